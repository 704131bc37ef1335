import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

const ExplorePage = lazy(() => import('./ExplorePage'));
const ListingPage = lazy(() => import('./ListingPage'));

/** The map search over published listings (docs/api.md 4.4, 4.5) and a listing's public page; for everyone signed in. */
export const exploreFeature: ConsoleFeature = {
  id: 'explore',
  messages,
  routes: [
    {
      path: '/explore',
      element: (
        <Suspense fallback={<Loading />}>
          <ExplorePage />
        </Suspense>
      ),
    },
    {
      path: '/explore/:id',
      element: (
        <Suspense fallback={<Loading />}>
          <ListingPage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/explore', label: 'explore.title' }],
  resources: [{ name: 'explore-properties', list: '/properties/search', itemsKey: 'properties', one: '/properties/:id' }],
};
