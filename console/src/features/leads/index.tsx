import { lazyPage } from '../../components/lazy-page';
import { LISTING_CREATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

/** The inbox of contact-form inquiries addressed to the caller (docs/api.md 6.3). */
export const leadsFeature: ConsoleFeature = {
  id: 'leads',
  messages,
  routes: [
    {
      path: '/leads',
      roles: LISTING_CREATORS,
      element: lazyPage(() => import('./LeadsPage')),
    },
  ],
  menu: [{ path: '/leads', label: 'leads.title', roles: LISTING_CREATORS }],
  resources: [{ name: 'leads-inbox', list: '/users/leads', itemsKey: 'leads' }],
};
