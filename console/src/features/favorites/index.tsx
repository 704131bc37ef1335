import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

const FavoritesPage = lazy(() => import('./FavoritesPage'));

/** The caller's favorite listings (docs/api.md 4.2, 3.2): every signed-in role has them. */
export const favoritesFeature: ConsoleFeature = {
  id: 'favorites',
  messages,
  routes: [
    {
      path: '/favorites',
      element: (
        <Suspense fallback={<Loading />}>
          <FavoritesPage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/favorites', label: 'favorites.title' }],
  resources: [{ name: 'favorites', list: '/users/favorite-properties', itemsKey: 'properties' }],
};
