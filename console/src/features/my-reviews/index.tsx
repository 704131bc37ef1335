import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';
import { MY_REVIEWS_RESOURCE } from './reviews';

const MyReviewsPage = lazy(() => import('./MyReviewsPage'));

/** The reviews the caller wrote (GET /users/reviews, docs/api.md 6.1), each deletable after a confirmation. */
export const myReviewsFeature: ConsoleFeature = {
  id: 'my-reviews',
  messages,
  routes: [
    {
      path: '/my-reviews',
      element: (
        <Suspense fallback={<Loading />}>
          <MyReviewsPage />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/my-reviews', label: 'my-reviews.title' }],
  resources: [{ name: MY_REVIEWS_RESOURCE, list: '/users/reviews', itemsKey: 'reviews', remove: '/reviews/:id' }],
};
