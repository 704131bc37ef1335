import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { LISTING_CREATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';
import { RECEIVED_RESOURCE } from './received';

const ReviewsReceivedPage = lazy(() => import('./ReviewsReceivedPage'));

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
      element: (
        <Suspense fallback={<Loading />}>
          <ReviewsReceivedPage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/reviews-received', label: 'reviews-received.title', roles: LISTING_CREATORS }],
  resources: [{ name: RECEIVED_RESOURCE, list: '/users/reviews-received', itemsKey: 'reviews' }],
};
