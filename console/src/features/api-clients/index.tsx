import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** Machine clients (docs/machine-clients.md): scoped credentials for other systems, for administrators. */
export const apiClientsFeature: ConsoleFeature = {
  id: 'api-clients',
  messages,
  routes: [{ path: '/api-clients', roles: ADMINISTRATORS, element: lazyPage(() => import('./ApiClientsPage')) }],
  menu: [{ path: '/api-clients', label: 'api-clients.title', roles: ADMINISTRATORS }],
  resources: [],
};
