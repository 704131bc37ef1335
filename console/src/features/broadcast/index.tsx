import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** Administrators' notifications to users, roles or everyone, and the outbox's failed deliveries (docs/api.md 8). */
export const broadcastFeature: ConsoleFeature = {
  id: 'broadcast',
  messages,
  routes: [
    { path: '/broadcast', roles: ADMINISTRATORS, element: lazyPage(() => import('./BroadcastPage')) },
    { path: '/deliveries', roles: ADMINISTRATORS, element: lazyPage(() => import('./DeliveriesPage')) },
  ],
  menu: [
    { path: '/broadcast', label: 'broadcast.title', roles: ADMINISTRATORS },
    { path: '/deliveries', label: 'broadcast.deliveries_title', roles: ADMINISTRATORS },
  ],
  resources: [
    { name: 'broadcast-notifications', create: '/notifications' },
    { name: 'broadcast-deliveries', list: '/notifications/deliveries', itemsKey: 'deliveries' },
  ],
};
