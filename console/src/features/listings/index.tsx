import { lazyPage } from '../../components/lazy-page';
import { type ConsoleFeature, LISTING_CREATORS } from '../types';
import { messages } from './messages';
import { RESOURCES } from './resources';

/** One element for both routes, so moving between them keeps the same page component (as one lazy component did). */
const editorPage = lazyPage(() => import('./ListingEditorPage'));

/** The caller's own listings: the list in every state, the create/edit form with gallery and map, state moves. */
export const listingsFeature: ConsoleFeature = {
  id: 'listings',
  messages,
  routes: [
    { path: '/listings', element: lazyPage(() => import('./MyListingsPage')), roles: LISTING_CREATORS },
    { path: '/listings/new', element: editorPage, roles: LISTING_CREATORS },
    { path: '/listings/:id/edit', element: editorPage, roles: LISTING_CREATORS },
  ],
  menu: [{ path: '/listings', label: 'listings.my_listings', roles: LISTING_CREATORS }],
  resources: RESOURCES,
};
