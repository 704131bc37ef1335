import { lazyPage } from '../../components/lazy-page';
import type { ConsoleFeature } from '../types';
import { messages } from './messages';
import { MY_REVIEWS_RESOURCE } from './reviews';

/** The reviews the caller wrote (GET /users/reviews, docs/api.md 6.1), each deletable after a confirmation. */
export const myReviewsFeature: ConsoleFeature = {
  id: 'my-reviews',
  messages,
  routes: [
    {
      path: '/my-reviews',
      element: lazyPage(() => import('./MyReviewsPage')),
    },
  ],
  menu: [{ path: '/my-reviews', label: 'my-reviews.title' }],
  resources: [{ name: MY_REVIEWS_RESOURCE, list: '/users/reviews', itemsKey: 'reviews', remove: '/reviews/:id' }],
};
