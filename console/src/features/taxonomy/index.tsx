import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';
import { TERM_RESOURCES } from './taxonomies';

/** The administrator's taxonomy editor: property types, statuses, features, labels, locations (docs/api.md 1.3). */
export const taxonomyFeature: ConsoleFeature = {
  id: 'taxonomy',
  messages,
  routes: [
    {
      path: '/taxonomy',
      roles: ADMINISTRATORS,
      element: lazyPage(() => import('./TaxonomyPage')),
    },
  ],
  menu: [{ path: '/taxonomy', label: 'taxonomy.title', roles: ADMINISTRATORS }],
  resources: TERM_RESOURCES,
};
