import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** The old addresses imports kept for listings, agents and agencies, for administrators (docs/api.md, GET /redirects). */
export const redirectsFeature: ConsoleFeature = {
  id: 'redirects',
  messages,
  routes: [{ path: '/redirects', roles: ADMINISTRATORS, element: lazyPage(() => import('./RedirectsPage')) }],
  menu: [{ path: '/redirects', label: 'redirects.title', roles: ADMINISTRATORS }],
  resources: [{ name: 'redirects', list: '/redirects', itemsKey: 'redirects', remove: '/redirects/:id' }],
};
