import type { AppModule, Platform } from '../module.js';
import type { NotificationsServices } from '../notifications/index.js';
import type { SearchServices } from '../search/index.js';
import { SavedSearchAlerts } from './alerts/saved-search-alerts.service.js';
import { savedSearchRoutes } from './saved-searches.routes.js';
import { SavedSearch } from './saved-searches.schemas.js';
import { SavedSearchesService } from './saved-searches.service.js';

export interface SavedSearchesServices {
  /** The users' saved searches (docs/api.md 7), run again through `search`. */
  savedSearches: SavedSearchesService;
  /** Saved searches matched against listings entering `publish`; instant alerts and digests (docs/api.md 7). */
  savedSearchAlerts: SavedSearchAlerts;
}

const MINUTE_MS = 60_000;

/**
 * Saved searches (docs/api.md 7) and their alerts: an in-memory index of every saved search matches each listing
 * entering `publish`; notifications deliver what it finds.
 */
export function createSavedSearchesModule(
  { config, database, log, apiBaseUrl }: Platform,
  { search, notifier, notificationEvents }: SearchServices & Pick<NotificationsServices, 'notifier' | 'notificationEvents'>,
): AppModule<SavedSearchesServices> {
  const savedSearches = new SavedSearchesService(database.db, search, { perUser: config.savedSearchesPerUser });
  const savedSearchAlerts = new SavedSearchAlerts(database.db, notifier, search);
  notificationEvents.alertPublishedListingsWith(savedSearchAlerts);
  return {
    services: { savedSearches, savedSearchAlerts },
    schemas: [SavedSearch],
    routes: async (api) => {
      await api.register(savedSearchRoutes, {
        savedSearches,
        successorUrl: `${apiBaseUrl}/saved-searches`,
        perUser: config.savedSearchesPerUser,
      });
    },
    jobs: [
      {
        name: 'saved-search-digests',
        intervalMs: 5 * MINUTE_MS,
        run: async (now) => {
          const sent = await savedSearchAlerts.sendDigests(now);
          if (sent > 0) log.info({ digests: sent }, 'saved-search digests sent');
        },
      },
    ],
    // Parsing every saved search takes seconds at 100,000: done at start rather than by the first listing published.
    start: () => {
      savedSearchAlerts.warm().catch((error: unknown) => log.error({ err: error }, 'saved-search index warm-up failed'));
    },
  };
}
