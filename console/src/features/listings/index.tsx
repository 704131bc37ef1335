import { lazy, type ReactNode, Suspense } from 'react';
import { Loading } from '../../components/ui';
import { type ConsoleFeature, LISTING_CREATORS } from '../types';
import { messages } from './messages';
import { RESOURCES } from './resources';

const MyListingsPage = lazy(() => import('./MyListingsPage'));
const ListingEditorPage = lazy(() => import('./ListingEditorPage'));

const page = (element: ReactNode) => <Suspense fallback={<Loading />}>{element}</Suspense>;

/** The caller's own listings: the list in every state, the create/edit form with gallery and map, state moves. */
export const listingsFeature: ConsoleFeature = {
  id: 'listings',
  messages,
  routes: [
    { path: '/listings', element: page(<MyListingsPage />), roles: LISTING_CREATORS },
    { path: '/listings/new', element: page(<ListingEditorPage />), roles: LISTING_CREATORS },
    { path: '/listings/:id/edit', element: page(<ListingEditorPage />), roles: LISTING_CREATORS },
  ],
  menu: [{ path: '/listings', label: 'listings.my_listings', roles: LISTING_CREATORS }],
  resources: RESOURCES,
};
