import { lazy, type ReactNode, Suspense } from 'react';
import { Loading } from '../../components/ui';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

const SavedSearchesPage = lazy(() => import('./SavedSearchesPage'));
const NewSavedSearchPage = lazy(() => import('./NewSavedSearchPage'));
const MatchesPage = lazy(() => import('./MatchesPage'));

const page = (element: ReactNode) => <Suspense fallback={<Loading />}>{element}</Suspense>;

/**
 * The caller's saved searches (docs/api.md 7): list with inline alert settings, rename and delete; a form to save
 * a new one; each one's current matches. `SaveSearchButton` (./SaveSearchButton.tsx) saves a search page's query.
 */
export const savedSearchesFeature: ConsoleFeature = {
  id: 'saved-searches',
  messages,
  routes: [
    { path: '/saved-searches', element: page(<SavedSearchesPage />) },
    { path: '/saved-searches/new', element: page(<NewSavedSearchPage />) },
    { path: '/saved-searches/:id', element: page(<MatchesPage />) },
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
    // The term listings behind the form's pickers, under names of this feature's own.
    { name: 'saved-searches-types', list: '/property-types', itemsKey: 'property_types' },
    { name: 'saved-searches-statuses', list: '/property-status', itemsKey: 'property_status' },
    { name: 'saved-searches-cities', list: '/property-cities', itemsKey: 'cities' },
  ],
};
