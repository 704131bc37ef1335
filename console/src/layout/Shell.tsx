import { useGetIdentity, useLogout } from '@refinedev/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import type { Identity } from '../api/session';
import { allows } from '../features/types';
import { LiveNotificationsProvider, useLiveNotifications } from '../features/notifications/live';
import { LanguageSwitch } from './LanguageSwitch';
import { useMenu } from './menu';

const MENU_ID = 'console-menu';
const TOOLS_ID = 'console-tools';

/**
 * The signed-in frame of every page: the header (language, live notifications, account) and the side navigation.
 * On a narrow screen (styles.css) the navigation and the account tools fold behind the Menu button, a disclosure:
 * opening it moves focus to the first entry, Escape closes it and gives focus back to the button, and choosing a
 * page closes it. On a wide screen the button is hidden and the navigation always shown, whatever its state.
 */
export function Shell() {
  const { t } = useTranslation();
  const { data: identity } = useGetIdentity<Identity>();
  const { mutate: logout } = useLogout();
  const items = useMenu().filter((item) => allows(item.roles, identity?.role));
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const nav = useRef<HTMLElement>(null);

  useEffect(() => setMenuOpen(false), [pathname]);
  useEffect(() => {
    if (!menuOpen) return;
    nav.current?.querySelector('a')?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      toggle.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <LiveNotificationsProvider>
      <a className="skip-link" href="#main">
        {t('common.skip_to_content')}
      </a>
      <header className={menuOpen ? 'topbar menu-open' : 'topbar'}>
        <button
          ref={toggle}
          type="button"
          className="menu-toggle"
          aria-expanded={menuOpen}
          aria-controls={`${MENU_ID} ${TOOLS_ID}`}
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-toggle-icon" aria-hidden="true" />
          {t('common.menu')}
        </button>
        <Link to="/" className="brand">
          {t('common.app_name')}
        </Link>
        <NotificationBell />
        <div className="topbar-tools" id={TOOLS_ID}>
          <LanguageSwitch />
          {identity ? (
            <Link to="/profile" className="account">
              {identity.display_name || identity.username}
              <span className="role-badge">{t(`common.role_${identity.role}`, { defaultValue: identity.role })}</span>
            </Link>
          ) : null}
          <button type="button" onClick={() => logout()}>
            {t('common.sign_out')}
          </button>
        </div>
      </header>
      <div className={menuOpen ? 'frame menu-open' : 'frame'}>
        <nav ref={nav} id={MENU_ID} className="sidebar" aria-label={t('common.navigation')}>
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
