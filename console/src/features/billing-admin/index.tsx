import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature, MODERATORS } from '../types';
import { messages } from './messages';

/**
 * Membership packages (administrators) and every user's invoices (administrators and managers read; only
 * administrators mark bank transfers paid and archive), docs/api.md 10.
 */
export const billingAdminFeature: ConsoleFeature = {
  id: 'billing-admin',
  messages,
  routes: [
    { path: '/packages', roles: ADMINISTRATORS, element: lazyPage(() => import('./PackagesPage')) },
    { path: '/invoices', roles: MODERATORS, element: lazyPage(() => import('./InvoicesPage')) },
    { path: '/invoices/:id', roles: MODERATORS, element: lazyPage(() => import('./InvoicePage')) },
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
