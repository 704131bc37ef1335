import { lazyPage } from '../../components/lazy-page';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

/** The caller's own account (docs/api.md 3.2): details, picture, password, deleting it. Every role. */
export const profileFeature: ConsoleFeature = {
  id: 'profile',
  messages,
  routes: [
    {
      path: '/profile',
      element: lazyPage(() => import('./ProfilePage')),
    },
  ],
  menu: [{ path: '/profile', label: 'profile.title' }],
  resources: [{ name: 'profile', one: '/users/me', update: '/users/profile' }],
};
