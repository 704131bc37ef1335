import type { ConsoleFeature } from '../types';
import { messages } from './messages';
import { NotificationsPage } from './NotificationsPage';

/** The caller's notifications; the live unread badge of the header is ./live.tsx. */
export const notificationsFeature: ConsoleFeature = {
  id: 'notifications',
  messages,
  routes: [{ path: '/notifications', element: <NotificationsPage /> }],
  menu: [{ path: '/notifications', label: 'notifications.title' }],
  resources: [{ name: 'notifications', list: '/notifications', itemsKey: 'notifications', remove: '/notifications/:id' }],
};
