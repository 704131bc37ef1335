import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { LISTING_CREATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

const LeadsPage = lazy(() => import('./LeadsPage'));

/** The inbox of contact-form inquiries addressed to the caller (docs/api.md 6.3). */
export const leadsFeature: ConsoleFeature = {
  id: 'leads',
  messages,
  routes: [
    {
      path: '/leads',
      roles: LISTING_CREATORS,
      element: (
        <Suspense fallback={<Loading />}>
          <LeadsPage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/leads', label: 'leads.title', roles: LISTING_CREATORS }],
  resources: [{ name: 'leads-inbox', list: '/users/leads', itemsKey: 'leads' }],
};
