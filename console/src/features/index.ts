import { authFeature } from './auth';
import { favoritesFeature } from './favorites';
import { homeFeature } from './home';
import { notificationsFeature } from './notifications';
import { savedSearchesFeature } from './saved-searches';
import type { ConsoleFeature } from './types';

/** Every part of the console, in the order of the side navigation. */
export const FEATURES: readonly ConsoleFeature[] = [homeFeature, notificationsFeature, favoritesFeature, savedSearchesFeature, authFeature];
