import type { InsertObject, Kysely, Transaction } from 'kysely';
import type { FileStorage } from '../adapters/storage/storage.js';
import { type DB, TAXONOMIES, type Taxonomy } from '../db/schema/index.js';
import { type Random, seededRandom } from '../lib/random.js';
import { firstFreeSlug } from '../lib/slug.js';
import type { AccountsService } from '../modules/accounts/index.js';
import { ensureDemoDirectory } from './demo-directory.js';
import { createDemoImages } from './demo-images.js';
import { type DemoPlace, type DemoTermIds, draftListing, type ListingDraft } from './demo-listing-drafts.js';
import { DEMO_TYPES } from './demo-listing-types.js';
import { DEMO_CITIES } from './demo-places.js';
import { averageRating } from '../lib/rating.js';
import { aggregateOf, type DemoReview, draftReviews, reviewWindow } from './demo-reviews.js';

/**
 * `seed --properties N`: realistic listings over the demo terms and places, owned by the demo agencies,
 * agents and private sellers, with galleries that share a few stored pictures. Listings are written in
 * transactions of a few thousand, each table with multi-row inserts; term counts follow by the database's
 * own triggers (db/dialect/term-triggers.ts).
 */

export interface DemoListingsOptions {
  count: number;
  /** The same seed gives the same listings (titles, places, prices); default 1. */
  seed?: number;
  /** The moment the listings' dates count back from; default now. */
  now?: Date;
  /** Called after each transaction with the number of listings it wrote. */
  onProgress?: (written: number) => void;
}

export interface DemoListingsSummary {
  listings: number;
  published: number;
  images: number;
}

/** The database holds terms, but not the demo ones the listings need. */
export class DemoTermsMissingError extends Error {}

const LISTINGS_PER_TRANSACTION = 2_000;
/** Share of public listings with reviews, and how many each gets at most. */
/** Reviews draw from a stream of their own, this far from the listings' seed (bench/bulk-drafts-worker.ts too). */
export const REVIEW_STREAM_OFFSET = 1_000_003;
const REVIEWED_SHARE = 0.15;
const MOST_REVIEWS = 4;
/** Bound parameters per statement: below SQLite's limit of 32,766 (PostgreSQL's is 65,535). */
const PARAMETERS_PER_STATEMENT = 30_000;

export async function seedDemoListings(
  db: Kysely<DB>,
  users: AccountsService,
  storage: FileStorage,
  options: DemoListingsOptions,
): Promise<DemoListingsSummary> {
  const terms = await findDemoTerms(db);
  const now = options.now ?? new Date();
  const directory = await ensureDemoDirectory(db, users, storage, now);
  const images = await createDemoImages(storage, now);
  const context = { terms, directory, images, now };
  const random = seededRandom(options.seed ?? 1);
  // Reviews draw from a stream of their own, so that they do not change the listings a seed gives.
  const reviewRandom = seededRandom((options.seed ?? 1) + REVIEW_STREAM_OFFSET);
  // Numbers continue after the listings already there, so that a second seed's slugs and references are new.
  const first = (await highestListingId(db)) + 1;

  let published = 0;
  for (let start = 0; start < options.count; start += LISTINGS_PER_TRANSACTION) {
    const size = Math.min(LISTINGS_PER_TRANSACTION, options.count - start);
    const drafts = Array.from({ length: size }, (_, i) => draftListing(random, context, first + start + i));
    published += drafts.filter((draft) => draft.row.status === 'publish').length;
    const reviews = drafts.map((draft) => listingReviews(reviewRandom, draft, directory.reviewers, now));
    await db.transaction().execute((trx) => writeDrafts(trx, drafts, reviews));
    options.onProgress?.(size);
  }
  return { listings: options.count, published, images: images.length };
}

/** Reviews for some public listings; the listing row gets their aggregate (docs/api.md 6.1). */
export function listingReviews(random: Random, draft: ListingDraft, reviewers: readonly number[], now: Date): DemoReview[] {
  const reviewed = (draft.row.status === 'publish' || draft.row.status === 'sold') && random() < REVIEWED_SHARE;
  const reviews = reviewed
    ? draftReviews(
        random,
        'property',
        1 + Math.floor(random() * MOST_REVIEWS),
        reviewers,
        reviewWindow(now, draft.row.published_at ?? null),
        now,
      )
    : [];
  // Every row names the columns: a multi-row insert fills a missing value with null on SQLite.
  const aggregate = aggregateOf(reviews);
  Object.assign(draft.row, aggregate, { rating: averageRating(aggregate) });
  return reviews;
}

async function writeDrafts(trx: Transaction<DB>, drafts: ListingDraft[], reviews: DemoReview[][]): Promise<void> {
  await avoidTakenSlugs(trx, drafts);
  const ids = new Map<string, number>();
  for (const chunk of chunksOf(drafts.map((draft) => draft.row))) {
    // Matched by slug: the order of RETURNING rows is not guaranteed by either database.
    for (const { id, slug } of await trx.insertInto('listings').values(chunk).returning(['id', 'slug']).execute()) ids.set(slug, id);
  }
  const listed = drafts.map((draft) => ({ draft, id: ids.get(draft.row.slug) as number }));

  await insertInChunks(
    trx,
    'listing_terms',
    listed.flatMap(({ draft, id }) => {
      const positions = new Map<Taxonomy, number>();
      return draft.terms.map(({ termId, taxonomy }) => {
        const position = positions.get(taxonomy) ?? 0;
        positions.set(taxonomy, position + 1);
        return { listing_id: id, term_id: termId, taxonomy, position };
      });
    }),
  );
  await insertInChunks(
    trx,
    'listing_agents',
    listed.flatMap(({ draft, id }) => draft.agentIds.map((agentId, position) => ({ listing_id: id, agent_id: agentId, position }))),
  );
  await insertInChunks(
    trx,
    'media',
    listed.flatMap(({ draft, id }) =>
      draft.gallery.map((image, position) => ({
        owner_id: draft.row.author_id as number,
        listing_id: id,
        position,
        storage_key: image.storageKey,
        mime_type: image.mimeType,
        width: image.width,
        height: image.height,
        size_bytes: image.sizeBytes,
        title: image.title,
        caption: '',
        alt: `${image.title}: ${draft.row.title}`,
        description: '',
        sizes: image.sizes,
        created_at: draft.row.created_at,
      })),
    ),
  );
  await insertInChunks(
    trx,
    'reviews',
    listed.flatMap(({ id }, index) =>
      (reviews[index] ?? []).map((review) => ({
        target_type: 'property' as const,
        target_id: id,
        author_id: review.authorId,
        rating: review.rating,
        title: review.title,
        content: review.content,
        created_at: review.createdAt,
        updated_at: review.createdAt,
      })),
    ),
  );
  await insertInChunks(
    trx,
    'listing_transitions',
    listed.map(({ draft, id }) => ({
      listing_id: id,
      from_state: null,
      to_state: draft.row.status,
      actor_id: draft.row.author_id ?? null,
      reason: '',
      at: draft.row.created_at,
    })),
  );
}

/** Slugs are unique by their number; only listings written since (through the API) can hold one already. */
async function avoidTakenSlugs(trx: Transaction<DB>, drafts: ListingDraft[]): Promise<void> {
  const slugs = drafts.map((draft) => draft.row.slug);
  const taken = new Set<string>();
  for (const chunk of chunksOf(slugs, 1)) {
    for (const row of await trx.selectFrom('listings').select('slug').where('slug', 'in', chunk).execute()) taken.add(row.slug);
  }
  for (const draft of drafts) {
    if (!taken.has(draft.row.slug)) continue;
    draft.row.slug = await firstFreeSlug(draft.row.slug, async (slug) => {
      const row = await trx.selectFrom('listings').select('id').where('slug', '=', slug).executeTakeFirst();
      return row !== undefined;
    });
  }
}

async function insertInChunks<T extends keyof DB & string>(trx: Transaction<DB>, table: T, rows: InsertObject<DB, T>[]): Promise<void> {
  const columns = rows[0] ? Object.keys(rows[0]).length : 1;
  for (const chunk of chunksOf(rows, columns)) await trx.insertInto(table).values(chunk).execute();
}

/** Slices of `items` small enough for one statement when each item binds `columns` parameters. */
function chunksOf<T>(items: readonly T[], columns = items[0] ? Object.keys(items[0]).length : 1): T[][] {
  const size = Math.max(1, Math.floor(PARAMETERS_PER_STATEMENT / columns));
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

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
export async function findDemoTerms(db: Kysely<DB>): Promise<DemoTermIds> {
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
