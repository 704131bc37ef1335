import { lazyPage } from '../../components/lazy-page';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

/** The caller's favorite listings (docs/api.md 4.2, 3.2): every signed-in role has them. */
export const favoritesFeature: ConsoleFeature = {
  id: 'favorites',
  messages,
  routes: [
    {
      path: '/favorites',
      element: lazyPage(() => import('./FavoritesPage')),
    },
  ],
  menu: [{ path: '/favorites', label: 'favorites.title' }],
  resources: [{ name: 'favorites', list: '/users/favorite-properties', itemsKey: 'properties' }],
};
