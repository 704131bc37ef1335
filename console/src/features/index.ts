import { agencyFeature } from './agency';
import { apiClientsFeature } from './api-clients';
import { authFeature } from './auth';
import { billingAdminFeature } from './billing-admin';
import { brandFeature } from './brand';
import { broadcastFeature } from './broadcast';
import { dashboardFeature } from './dashboard';
import { exploreFeature } from './explore';
import { favoritesFeature } from './favorites';
import { homeFeature } from './home';
import { importsFeature } from './imports';
import { leadsFeature } from './leads';
import { listingsFeature } from './listings';
import { membershipFeature } from './membership';
import { moderationFeature } from './moderation';
import { myReviewsFeature } from './my-reviews';
import { notificationsFeature } from './notifications';
import { profileFeature } from './profile';
import { redirectsFeature } from './redirects';
import { webhooksFeature } from './webhooks';
import { reviewsReceivedFeature } from './reviews-received';
import { savedSearchesFeature } from './saved-searches';
import { taxonomyFeature } from './taxonomy';
import type { ConsoleFeature } from './types';
import { usersFeature } from './users';

/** Every part of the console, in the order of the side navigation. */
export const FEATURES: readonly ConsoleFeature[] = [
  homeFeature,
  exploreFeature,
  listingsFeature,
  notificationsFeature,
  favoritesFeature,
  savedSearchesFeature,
  leadsFeature,
  reviewsReceivedFeature,
  myReviewsFeature,
  agencyFeature,
  membershipFeature,
  profileFeature,
  dashboardFeature,
  moderationFeature,
  usersFeature,
  taxonomyFeature,
  importsFeature,
  billingAdminFeature,
  broadcastFeature,
  brandFeature,
  redirectsFeature,
  webhooksFeature,
  apiClientsFeature,
  authFeature,
];
