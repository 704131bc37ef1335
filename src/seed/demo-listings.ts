import type { Kysely } from 'kysely';
import type { FileStorage } from '../adapters/storage/storage.js';
import { type DB, TAXONOMIES, type Taxonomy } from '../db/schema/index.js';
import type { AccountsService } from '../modules/accounts/index.js';
import { GalleryRows } from '../modules/media/index.js';
import { type BulkCompanions, type BulkWriteMode, ListingBulkWriter } from '../modules/properties/index.js';
import { ListingReviewRows } from '../modules/reviews/index.js';
import { type DraftJob, draftBatches, draftBatchesOnWorker, startDraftingThread } from './demo-draft-batches.js';
import { ensureDemoDirectory } from './demo-directory.js';
import { createDemoImages } from './demo-images.js';
import type { DemoPlace, DemoTermIds } from './demo-listing-drafts.js';
import { DEMO_TYPES } from './demo-listing-types.js';
import { DEMO_CITIES } from './demo-places.js';

/**
 * `seed --properties N`: realistic listings over the demo terms and places, owned by the demo agencies,
 * agents and private sellers, with galleries that share a few stored pictures. Drafted here (or, for large
 * seeds, on a worker thread: demo-draft-batches.ts) and written by the properties module's bulk writer: into
 * a database without listings with the listing tables' triggers set aside and their work done set-wise
 * afterwards, else in transactions (5,000 listings on SQLite, 100 on PostgreSQL) with every trigger in force.
 */

export interface DemoListingsOptions {
  count: number;
  /** The same seed gives the same listings (titles, places, prices); default 1. */
  seed?: number;
  /** The moment the listings' dates count back from; default now. */
  now?: Date;
  /** Called as listings are written, with how many were written since the last call. */
  onProgress?: (written: number) => void;
  /** The bulk writer's mode; default `auto` (fresh into a database without listings, else live). */
  mode?: BulkWriteMode | 'auto';
  /** Draft on a worker thread; default for 5,000 listings or more (below, starting the thread costs more than it saves). */
  draftOnWorker?: boolean;
}

export interface DemoListingsSummary {
  listings: number;
  published: number;
  images: number;
  /** How the bulk writer wrote them. */
  mode: BulkWriteMode;
}

/** The database holds terms, but not the demo ones the listings need. */
export class DemoTermsMissingError extends Error {}

/** Listings per drafted batch: the unit of progress, and of a worker's messages. */
const DRAFT_BATCH = 2_000;
const WORKER_FROM = 5_000;

export async function seedDemoListings(
  db: Kysely<DB>,
  users: AccountsService,
  storage: FileStorage,
  options: DemoListingsOptions,
): Promise<DemoListingsSummary> {
  const terms = await findDemoTerms(db);
  const now = options.now ?? new Date();
  // The drafting thread loads its modules while the accounts are made and the pictures rendered (a seed of
  // 100,000: its first batch 0.98-1.09 s after the start when the thread started after them, 0.89-1.01 s now;
  // the rest is drafting that batch).
  const drafter = (options.draftOnWorker ?? options.count >= WORKER_FROM) ? startDraftingThread() : undefined;
  try {
    // The listings' pictures render (sharp's threads) while the accounts are made; the directory's own pictures
    // render while the listings are written, and its details are written after them.
    const [{ directory, writeDetails }, images] = await Promise.all([
      ensureDemoDirectory(db, users, storage, now),
      createDemoImages(storage, now),
    ]);
    // Numbers continue after the listings already there, so that a second seed's slugs and references are new.
    const job: DraftJob = {
      context: { terms, directory, images, now },
      seed: options.seed ?? 1,
      first: (await highestListingId(db)) + 1,
      count: options.count,
      batchSize: DRAFT_BATCH,
    };
    const written = await new ListingBulkWriter(db, DEMO_COMPANIONS).write(
      drafter ? draftBatchesOnWorker(drafter, job) : draftBatches(job),
      {
        mode: options.mode ?? 'auto',
        ...(options.onProgress ? { onProgress: options.onProgress } : {}),
      },
    );
    await writeDetails();
    return { listings: written.listings, published: written.published, images: images.length, mode: written.mode };
  } finally {
    // Stopped once its batches are read; here also when the seed failed before reading them.
    await drafter?.terminate();
  }
}

/** The demo listings come with pictures and reviews, which the media and reviews modules write. */
const DEMO_COMPANIONS: BulkCompanions = { gallery: new GalleryRows(), reviews: new ListingReviewRows() };

async function highestListingId(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The listing taxonomies (the agent ones describe agents, not listings). */
const DEMO_TAXONOMIES: readonly Taxonomy[] = TAXONOMIES.filter((taxonomy) => taxonomy.startsWith('property_'));

/** The ids of the demo terms in this database: what exists of the demo taxonomy (demo-terms.ts). */
async function findDemoTerms(db: Kysely<DB>): Promise<DemoTermIds> {
  const rows = await db
    .selectFrom('terms')
    .select(['id', 'taxonomy', 'name', 'location_parent_id'])
    .where('taxonomy', 'in', DEMO_TAXONOMIES)
    .orderBy('id')
    .execute();
  const ids = new Map<string, number>();
  for (const row of rows) {
    const key = termKey(row.taxonomy, row.name, row.location_parent_id);
    if (!ids.has(key)) ids.set(key, row.id);
  }
  const find = (taxonomy: Taxonomy, name: string, parent: number | null = null) => ids.get(termKey(taxonomy, name, parent));
  const named = (taxonomy: Taxonomy) => new Map(rows.filter((row) => row.taxonomy === taxonomy).map((row) => [row.name, row.id]));

  const types = DEMO_TYPES.flatMap((profile) => {
    const termId = find('property_type', profile.name);
    return termId === undefined ? [] : [{ profile, termId }];
  });
  const places = DEMO_CITIES.flatMap((city): DemoPlace[] => {
    const countryId = find('property_country', city.country);
    const stateId = countryId === undefined ? undefined : find('property_state', city.state, countryId);
    const cityId = stateId === undefined ? undefined : find('property_city', city.city, stateId);
    if (countryId === undefined || stateId === undefined || cityId === undefined) return [];
    const areas = city.areas.flatMap((area) => {
      const termId = find('property_area', area.name, cityId);
      return termId === undefined ? [] : [{ area, termId }];
    });
    return areas.length === 0 ? [] : [{ city, countryId, stateId, cityId, areas }];
  });
  const [forSale, forRent, newConstruction] = ['For Sale', 'For Rent', 'New Construction'].map((name) => find('property_status', name));
  if (types.length === 0 || places.length === 0 || forSale === undefined || forRent === undefined || newConstruction === undefined) {
    throw new DemoTermsMissingError(
      'demo listings need the demo taxonomy (property types, the For Sale / For Rent / New Construction statuses, ' +
        'the demo cities and areas), and this database has other terms; seed into a new database instead',
    );
  }
  return { types, forSale, forRent, newConstruction, labels: named('property_label'), features: named('property_feature'), places };
}

function termKey(taxonomy: string, name: string, parent: number | null): string {
  return `${taxonomy}\u0000${parent ?? ''}\u0000${name}`;
}
