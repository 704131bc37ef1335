import { lazyPage } from '../../components/lazy-page';
import { LISTING_CREATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** The caller's membership, buying a package, and invoices with a printable page (docs/api.md 10). */
export const membershipFeature: ConsoleFeature = {
  id: 'membership',
  messages,
  routes: [
    {
      path: '/membership',
      roles: LISTING_CREATORS,
      element: lazyPage(() => import('./MembershipPage')),
    },
    {
      path: '/membership/invoices/:id',
      roles: LISTING_CREATORS,
      element: lazyPage(() => import('./InvoicePage')),
    },
  ],
  menu: [{ path: '/membership', label: 'membership.title', roles: LISTING_CREATORS }],
  resources: [
    { name: 'membership-packages', list: '/payments/packages', itemsKey: 'packages' },
    { name: 'membership-invoices', list: '/users/invoices', itemsKey: 'invoices', one: '/users/invoices/:id' },
  ],
};
