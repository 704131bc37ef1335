import { lazyPage } from '../../components/lazy-page';
import { LISTING_CREATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';
import { RECEIVED_RESOURCE } from './received';

/**
 * Others' reviews of the caller's listings, agent records and agency (GET /users/reviews-received, docs/api.md
 * 6.1), newest first, filtered by kind; read-only.
 */
export const reviewsReceivedFeature: ConsoleFeature = {
  id: 'reviews-received',
  messages,
  routes: [
    {
      path: '/reviews-received',
      roles: LISTING_CREATORS,
      element: lazyPage(() => import('./ReviewsReceivedPage')),
    },
  ],
  menu: [{ path: '/reviews-received', label: 'reviews-received.title', roles: LISTING_CREATORS }],
  resources: [{ name: RECEIVED_RESOURCE, list: '/users/reviews-received', itemsKey: 'reviews' }],
};
