import { lazy, type ReactNode, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

const BroadcastPage = lazy(() => import('./BroadcastPage'));
const DeliveriesPage = lazy(() => import('./DeliveriesPage'));

const suspended = (element: ReactNode) => <Suspense fallback={<Loading />}>{element}</Suspense>;

/** Administrators' notifications to users, roles or everyone, and the outbox's failed deliveries (docs/api.md 8). */
export const broadcastFeature: ConsoleFeature = {
  id: 'broadcast',
  messages,
  routes: [
    { path: '/broadcast', roles: ADMINISTRATORS, element: suspended(<BroadcastPage />) },
    { path: '/deliveries', roles: ADMINISTRATORS, element: suspended(<DeliveriesPage />) },
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
