import { lazyPage } from '../../components/lazy-page';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';

/** The map search over published listings (docs/api.md 4.4, 4.5) and a listing's public page; for everyone signed in. */
export const exploreFeature: ConsoleFeature = {
  id: 'explore',
  messages,
  routes: [
    {
      path: '/explore',
      element: lazyPage(() => import('./ExplorePage')),
    },
    {
      path: '/explore/:id',
      element: lazyPage(() => import('./ListingPage')),
    },
  ],
  menu: [{ path: '/explore', label: 'explore.title' }],
  resources: [{ name: 'explore-properties', list: '/properties/search', itemsKey: 'properties', one: '/properties/:id' }],
};
