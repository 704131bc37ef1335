import { authFeature } from './auth';
import { homeFeature } from './home';
import { notificationsFeature } from './notifications';
import type { ConsoleFeature } from './types';

/** Every part of the console, in the order of the side navigation. */
export const FEATURES: readonly ConsoleFeature[] = [homeFeature, notificationsFeature, authFeature];
