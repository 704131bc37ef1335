import { lazyPage } from '../../components/lazy-page';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';
import { MATCHES_RESOURCE } from './types';

/**
 * The caller's saved searches (docs/api.md 7): list with inline alert settings, rename and delete; a form to save
 * a new one; each one's current matches. `SaveSearchButton` (./SaveSearchButton.tsx) saves a search page's query.
 */
export const savedSearchesFeature: ConsoleFeature = {
  id: 'saved-searches',
  messages,
  routes: [
    { path: '/saved-searches', element: lazyPage(() => import('./SavedSearchesPage')) },
    { path: '/saved-searches/new', element: lazyPage(() => import('./NewSavedSearchPage')) },
    { path: '/saved-searches/:id', element: lazyPage(() => import('./MatchesPage')) },
  ],
  menu: [{ path: '/saved-searches', label: 'saved-searches.title' }],
  resources: [
    {
      name: 'saved-searches',
      list: '/saved-searches',
      itemsKey: 'saved_searches',
      create: '/saved-searches',
      update: '/saved-searches/:id',
      remove: '/saved-searches/:id',
    },
    { name: MATCHES_RESOURCE, list: '/saved-searches/:id/matches', itemsKey: 'properties' },
    // The term listings behind the form's pickers, under names of this feature's own.
    { name: 'saved-searches-types', list: '/property-types', itemsKey: 'property_types' },
    { name: 'saved-searches-statuses', list: '/property-status', itemsKey: 'property_status' },
    { name: 'saved-searches-cities', list: '/property-cities', itemsKey: 'cities' },
  ],
};
