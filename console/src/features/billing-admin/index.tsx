import { lazy, type ReactNode, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { ADMINISTRATORS, type ConsoleFeature, MODERATORS } from '../types';
import { messages } from './messages';

const PackagesPage = lazy(() => import('./PackagesPage'));
const InvoicesPage = lazy(() => import('./InvoicesPage'));
const InvoicePage = lazy(() => import('./InvoicePage'));

const suspended = (element: ReactNode) => <Suspense fallback={<Loading />}>{element}</Suspense>;

/**
 * Membership packages (administrators) and every user's invoices (administrators and managers read; only
 * administrators mark bank transfers paid and archive), docs/api.md 10.
 */
export const billingAdminFeature: ConsoleFeature = {
  id: 'billing-admin',
  messages,
  routes: [
    { path: '/packages', roles: ADMINISTRATORS, element: suspended(<PackagesPage />) },
    { path: '/invoices', roles: MODERATORS, element: suspended(<InvoicesPage />) },
    { path: '/invoices/:id', roles: MODERATORS, element: suspended(<InvoicePage />) },
  ],
  menu: [
    { path: '/packages', label: 'billing-admin.packages_title', roles: ADMINISTRATORS },
    { path: '/invoices', label: 'billing-admin.invoices_title', roles: MODERATORS },
  ],
  resources: [
    {
      name: 'admin-packages',
      list: '/payments/packages',
      itemsKey: 'packages',
      one: '/payments/packages/:id',
      create: '/payments/packages',
      update: '/payments/packages/:id',
      remove: '/payments/packages/:id',
    },
    { name: 'admin-invoices', list: '/users/invoices', itemsKey: 'invoices', one: '/users/invoices/:id', remove: '/users/invoices/:id' },
  ],
};
