import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { MODERATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

const DashboardPage = lazy(() => import('./DashboardPage'));

/** Figures for administrators and managers: listings per state, daily activity, revenue (charts load lazily). */
export const dashboardFeature: ConsoleFeature = {
  id: 'dashboard',
  messages,
  routes: [
    {
      path: '/dashboard',
      roles: MODERATORS,
      element: (
        <Suspense fallback={<Loading />}>
          <DashboardPage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/dashboard', label: 'dashboard.title', roles: MODERATORS }],
};
