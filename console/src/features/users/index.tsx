import { lazyPage } from '../../components/lazy-page';
import { MODERATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';
import { USERS_RESOURCE } from './users-logic';

/** Accounts: administrators and managers read them; administrators change roles, suspend and delete. */
export const usersFeature: ConsoleFeature = {
  id: 'users',
  messages,
  routes: [
    {
      path: '/users',
      roles: MODERATORS,
      element: lazyPage(() => import('./UsersPage')),
    },
  ],
  menu: [{ path: '/users', label: 'users.title', roles: MODERATORS }],
  resources: [{ name: USERS_RESOURCE, list: '/users', itemsKey: 'users', one: '/users/:id', remove: '/users/:id' }],
};
