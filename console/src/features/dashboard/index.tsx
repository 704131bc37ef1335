import { lazyPage } from '../../components/lazy-page';
import { MODERATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** Figures for administrators and managers: listings per state, daily activity, revenue (charts load lazily). */
export const dashboardFeature: ConsoleFeature = {
  id: 'dashboard',
  messages,
  routes: [
    {
      path: '/dashboard',
      roles: MODERATORS,
      element: lazyPage(() => import('./DashboardPage')),
    },
  ],
  menu: [{ path: '/dashboard', label: 'dashboard.title', roles: MODERATORS }],
};
