import { useGetIdentity, useLogout } from '@refinedev/core';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet } from 'react-router';
import type { Identity } from '../api/session';
import { allows } from '../features/types';
import { LiveNotificationsProvider, useLiveNotifications } from '../features/notifications/live';
import { LanguageSwitch } from './LanguageSwitch';
import { useMenu } from './menu';

/** The signed-in frame of every page: the header (language, live notifications, account) and the side navigation. */
export function Shell() {
  const { t } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const { mutate: logout } = useLogout();
  const items = useMenu().filter((item) => allows(item.roles, identity?.role));

  return (
    <LiveNotificationsProvider>
      <a className="skip-link" href="#main">
        {t('common.skip_to_content')}
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          {t('common.app_name')}
        </Link>
        <div className="topbar-tools">
          <LanguageSwitch />
          <NotificationBell />
          {identity ? (
            <Link to="/profile" className="account">
              {identity.display_name || identity.username}
              <span className="role-badge">{identity.role}</span>
            </Link>
          ) : null}
          <button type="button" onClick={() => logout()}>
            {t('common.sign_out')}
          </button>
        </div>
      </header>
      <div className="frame">
        <nav className="sidebar" aria-label={t('common.navigation')}>
          <ul>
            {items.map((item) => (
              <li key={item.path}>
                <NavLink to={item.path} end={item.path === '/'}>
                  {t(item.label)}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
    </LiveNotificationsProvider>
  );
}

function NotificationBell() {
  const { t } = useTranslation();
  const { unread } = useLiveNotifications();
  return (
    <Link to="/notifications" className="bell">
      {t('common.notifications')}
      <span className={unread > 0 ? 'badge' : 'badge badge-empty'} data-testid="unread-count">
        {unread}
      </span>
      <span className="visually-hidden">{t('common.unread')}</span>
    </Link>
  );
}
