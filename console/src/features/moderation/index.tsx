import { lazy, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { MODERATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';
import { QUEUE_ITEMS_KEY, QUEUE_LIST_PATH, QUEUE_RESOURCE } from './queue';

const ModerationPage = lazy(() => import('./ModerationPage'));
const ListingReview = lazy(() => import('./ListingReview'));

/** Listings awaiting approval: approve or disapprove one or several (administrators and managers). */
export const moderationFeature: ConsoleFeature = {
  id: 'moderation',
  messages,
  routes: [
    {
      path: '/moderation',
      roles: MODERATORS,
      element: (
        <Suspense fallback={<Loading />}>
          <ModerationPage />
        </Suspense>
      ),
    },
    {
      path: '/moderation/:id',
      roles: MODERATORS,
      element: (
        <Suspense fallback={<Loading />}>
          <ListingReview />
        </Suspense>
      ),
    },
  ],
  menu: [{ path: '/moderation', label: 'moderation.title', roles: MODERATORS }],
  resources: [{ name: QUEUE_RESOURCE, list: QUEUE_LIST_PATH, itemsKey: QUEUE_ITEMS_KEY, one: '/properties/:id' }],
};
