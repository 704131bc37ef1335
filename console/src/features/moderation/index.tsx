import { lazyPage } from '../../components/lazy-page';
import { MODERATORS, type ConsoleFeature } from '../types';
import { messages } from './messages';
import { QUEUE_ITEMS_KEY, QUEUE_LIST_PATH, QUEUE_RESOURCE } from './queue';

/** Listings awaiting approval: approve or disapprove one or several (administrators and managers). */
export const moderationFeature: ConsoleFeature = {
  id: 'moderation',
  messages,
  routes: [
    {
      path: '/moderation',
      roles: MODERATORS,
      element: lazyPage(() => import('./ModerationPage')),
    },
    {
      path: '/moderation/:id',
      roles: MODERATORS,
      element: lazyPage(() => import('./ListingReview')),
    },
  ],
  menu: [{ path: '/moderation', label: 'moderation.title', roles: MODERATORS }],
  resources: [{ name: QUEUE_RESOURCE, list: QUEUE_LIST_PATH, itemsKey: QUEUE_ITEMS_KEY, one: '/properties/:id' }],
};
