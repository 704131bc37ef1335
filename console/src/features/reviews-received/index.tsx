import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { LISTING_CREATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';

const ReviewsReceivedPage = lazy(() => import('./ReviewsReceivedPage'));

/** Reviews of the caller's agency, agent record and listings (docs/api.md 6.1), read-only. */
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
  resources: [{ name: 'reviews-received-listings', list: '/users/my-properties', itemsKey: 'properties' }],
};
