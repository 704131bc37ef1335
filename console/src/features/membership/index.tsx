import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { LISTING_CREATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

const MembershipPage = lazy(() => import('./MembershipPage'));
const InvoicePage = lazy(() => import('./InvoicePage'));

/** The caller's membership, buying a package, and invoices with a printable page (docs/api.md 10). */
export const membershipFeature: ConsoleFeature = {
  id: 'membership',
  messages,
  routes: [
    {
      path: '/membership',
      roles: LISTING_CREATORS,
      element: (
        <Suspense fallback={<Loading />}>
          <MembershipPage />
        </Suspense>
      ),
    },
    {
      path: '/membership/invoices/:id',
      roles: LISTING_CREATORS,
      element: (
        <Suspense fallback={<Loading />}>
          <InvoicePage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/membership', label: 'membership.title', roles: LISTING_CREATORS }],
  resources: [
    { name: 'membership-packages', list: '/payments/packages', itemsKey: 'packages' },
    { name: 'membership-invoices', list: '/users/invoices', itemsKey: 'invoices', one: '/users/invoices/:id' },
  ],
};
