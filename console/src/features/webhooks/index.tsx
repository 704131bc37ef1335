import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** Outbound webhooks (docs/webhooks.md): endpoints, their deliveries, test, rotation, retry and replay, for administrators. */
export const webhooksFeature: ConsoleFeature = {
  id: 'webhooks',
  messages,
  routes: [
    { path: '/webhooks', roles: ADMINISTRATORS, element: lazyPage(() => import('./WebhooksPage')) },
    { path: '/webhooks/:id', roles: ADMINISTRATORS, element: lazyPage(() => import('./DeliveriesPage')) },
  ],
  menu: [{ path: '/webhooks', label: 'webhooks.title', roles: ADMINISTRATORS }],
  resources: [],
};
