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
      // The map's code (Leaflet) is asked for with the page's: the map is the largest thing on its first screen.
      element: lazyPage(() => Promise.all([import('./ExplorePage'), import('./ClusterMap')]).then(([page]) => page)),
    },
    {
      path: '/explore/:id',
      element: lazyPage(() => import('./ListingPage')),
    },
  ],
  menu: [{ path: '/explore', label: 'explore.title' }],
  resources: [{ name: 'explore-properties', list: '/properties/search', itemsKey: 'properties', one: '/properties/:id' }],
};
