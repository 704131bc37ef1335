import { registerMultipart } from '../../http/multipart.js';
import type { SubmissionRules } from './submission-rule.js';
import type { MediaService } from '../media/index.js';
import type { AppModule, Platform } from '../module.js';
import type { TaxonomiesService } from '../taxonomies/index.js';
import type { ListingCharges } from './listing-charges.js';
import { ListingRecords } from './listing-records.service.js';
import { FavoritesService } from './lists/favorites.service.js';
import { propertyListRoutes } from './lists/property-lists.routes.js';
import { PropertyListsService } from './lists/property-lists.service.js';
import { ListingExpiryJob } from './moderation/listing-expiry.service.js';
import { ListingMoves } from './moderation/listing-moves.service.js';
import { moderationRoutes } from './moderation/moderation.routes.js';
import { ModerationService } from './moderation/moderation.service.js';
import { propertyRoutes, propertyUploadRoutes } from './properties.routes.js';
import { ListingRatings } from './ratings/listing-ratings.service.js';
import { Property, PropertySummary } from './properties.schemas.js';
import { PropertiesService } from './properties.service.js';
import { ListingSitemap } from './sitemap/listing-sitemap.service.js';
import { ViewCounter } from './views/view-counter.service.js';

export interface PropertiesServices {
  properties: PropertiesService;
  /** Listing states and moderation (POST /users/property-actions and the single-action routes). */
  moderation: ModerationService;
  /** The moves other modules ask for inside their transactions (paid drafts, paid upgrades, expired memberships). */
  listingMoves: ListingMoves;
  favorites: FavoritesService;
  /** The caller's favorites and own listings, and similar listings. */
  propertyLists: PropertyListsService;
  /** Batched listing view counts; `serve` starts its flushing. */
  views: ViewCounter;
  /** Moves listings past their `expires_at` to `expired`. */
  listingExpiry: ListingExpiryJob;
  /** The public listings by blocks of ids, for the website's sitemap. */
  listingSitemap: ListingSitemap;
  /** Listings' review totals and rating, which the reviews module changes inside its transactions. */
  listingRatings: ListingRatings;
}

const MINUTE_MS = 60_000;

/** Listings (docs/api.md 4): records, create and update, states and moderation, favorites, views, expiry. */
export function createPropertiesModule(
  { config, database, log, redis, stamps, storage }: Platform,
  deps: { taxonomies: TaxonomiesService; media: MediaService; charges: ListingCharges; siteSettings: SubmissionRules },
): AppModule<PropertiesServices> {
  const { db } = database;
  const views = new ViewCounter(db, log, config.listings.flushIntervalMs, redis && { client: redis, keyPrefix: config.redisKeyPrefix });
  const records = new ListingRecords(db, stamps, { publicUrl: config.publicUrl, listingUrlTemplate: config.listings.urlTemplate, storage });
  const properties = new PropertiesService(
    db,
    records,
    deps.taxonomies,
    deps.media,
    views,
    config.listings,
    deps.charges,
    deps.siteSettings,
  );
  const moderation = new ModerationService(db, config.listings, deps.charges, deps.siteSettings);
  const favorites = new FavoritesService(db, properties);
  const propertyLists = new PropertyListsService(db, properties);
  const listingExpiry = new ListingExpiryJob(db);
  return {
    services: {
      properties,
      moderation,
      listingMoves: new ListingMoves(config.listings),
      favorites,
      propertyLists,
      views,
      listingExpiry,
      listingSitemap: new ListingSitemap(db, config.listings.urlTemplate),
      listingRatings: new ListingRatings(),
    },
    schemas: [Property, PropertySummary],
    routes: async (api) => {
      await api.register(async (uploads) => {
        await registerMultipart(uploads, config);
        await uploads.register(propertyUploadRoutes, {
          properties,
          maxFileBytes: config.uploads.maxFileBytes,
          maxFiles: config.uploads.maxFiles,
        });
      });
      await api.register(propertyRoutes, { properties });
      await api.register(propertyListRoutes, { favorites, propertyLists });
      await api.register(moderationRoutes, { moderation });
    },
    jobs: [
      {
        name: 'listing-expiry',
        intervalMs: MINUTE_MS,
        run: async (now) => {
          const expired = await listingExpiry.runOnce(now);
          if (expired > 0) log.info({ expired }, 'listings expired');
        },
      },
    ],
    start: () => views.start(),
    stop: () => views.stop(),
  };
}

export type { FeaturingCost, ListingCharges } from './listing-charges.js';
export type { ListingAccess } from './listing-records.service.js';
export { PUBLIC_STATES, assertCanView, canView, isModerator, isOwner } from './listing-access.js';
export type { ListingMoves } from './moderation/listing-moves.service.js';
export type { ListingRatings } from './ratings/listing-ratings.service.js';
export { FEATURE_SETTERS } from './moderation/moderation.schemas.js';
export type { TermLink } from './properties.repository.js';
export { formatPrice } from './price-format.js';
export { listingUrl } from './properties.mapper.js';
export type { ListSort, PropertyListRecord, PropertyRecord, PropertySummaryRecord } from './properties.schemas.js';
export type { PropertiesService } from './properties.service.js';
export { ListingBulkWriter } from './bulk/listing-bulk-writer.service.js';
export { type DraftRules, draftOfInput } from './bulk/input-drafts.js';
export { UpdatePropertyBody, type UpdatePropertyInput } from './properties.schemas.js';
export {
  type BulkCompanions,
  BulkDraftError,
  type BulkWriteMode,
  type ListingDraft,
  type ListingReviewRow,
  type ListingReviewRowsWriter,
} from './bulk/listing-drafts.js';
