import { useGetIdentity } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { Identity } from '../../api/session';
import { PageHeader } from '../../components/ui';
import { useMenu } from '../../layout/menu';
import { allows, type ConsoleFeature } from '../types';

/** The first page after signing in: who is signed in, and the pages this role can open. */
function HomePage() {
  const { t } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const pages = useMenu().filter((item) => item.path !== '/' && allows(item.roles, identity?.role));
  return (
    <section>
      <PageHeader title={t('home.welcome', { name: identity?.display_name || identity?.username || '' })} />
      <p>{t('home.signed_in_as', { role: identity?.role ?? '' })}</p>
      <ul className="tiles">
        {pages.map((item) => (
          <li key={item.path}>
            <Link to={item.path}>{t(item.label)}</Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

export const homeFeature: ConsoleFeature = {
  id: 'home',
  messages: {
    en: { title: 'Home', welcome: 'Welcome, {{name}}', signed_in_as: 'You are signed in as {{role}}.' },
    ar: { title: 'الرئيسية', welcome: 'مرحبًا، {{name}}', signed_in_as: 'أنت مسجّل الدخول بصفة {{role}}.' },
    es: { title: 'Inicio', welcome: 'Hola, {{name}}', signed_in_as: 'Has iniciado sesión como {{role}}.' },
    fr: { title: 'Accueil', welcome: 'Bienvenue, {{name}}', signed_in_as: 'Vous êtes connecté en tant que {{role}}.' },
  },
  routes: [{ path: '/', element: <HomePage /> }],
  menu: [{ path: '/', label: 'home.title' }],
};
