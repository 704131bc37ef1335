import { authFeature } from './auth';
import { billingAdminFeature } from './billing-admin';
import { broadcastFeature } from './broadcast';
import { exploreFeature } from './explore';
import { favoritesFeature } from './favorites';
import { homeFeature } from './home';
import { listingsFeature } from './listings';
import { notificationsFeature } from './notifications';
import { savedSearchesFeature } from './saved-searches';
import { taxonomyFeature } from './taxonomy';
import type { ConsoleFeature } from './types';

/** Every part of the console, in the order of the side navigation. */
export const FEATURES: readonly ConsoleFeature[] = [
  homeFeature,
  exploreFeature,
  listingsFeature,
  notificationsFeature,
  favoritesFeature,
  savedSearchesFeature,
  taxonomyFeature,
  billingAdminFeature,
  broadcastFeature,
  authFeature,
];
