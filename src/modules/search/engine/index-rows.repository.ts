import type { Executor } from '../../../db/executor.js';
import type { ListingRow } from '../../../db/schema/index.js';
import { commaSeparatedIds, parseCommaSeparatedIds } from '../../../db/dialect/id-lists.js';
import type { IndexedAgent, IndexedListing, IndexedTerm } from './indexed-listing.js';

/**
 * The rows the search engine's index is made of (indexed-listing.ts), read in few statements whatever their
 * number: the whole set in pages of listings by id (three statements a page: the listings, then their term
 * links and their agents as one comma-separated id list per listing, over the page's id range), and the
 * listings, terms or agents that the change log names, by id.
 */

/** The states a search can return; a listing in any other state is not in the index. */
const SEARCHABLE_STATES = ['publish', 'sold'] as const;
/** Ids per `IN (...)` list: well under either driver's limit on bound parameters (SQLite 32,766, pg 65,535). */
const IDS_PER_STATEMENT = 5_000;

const LISTING_COLUMNS = [
  'id',
  'status',
  'price',
  'currency',
  'size',
  'land_size',
  'bedrooms',
  'bathrooms',
  'garage',
  'year_built',
  'featured',
  'author_id',
  'agency_id',
  'reference',
  'search_text',
  'title_tokens',
  'sort_title',
  'published_at',
  'created_at',
  'latitude',
  'longitude',
  'geo_key',
  'geo_x',
  'geo_y',
  'geo_z',
] as const;

/**
 * Every searchable listing, in pages of at most `pageSize` by ascending id (keyset: each page starts after the
 * last id of the one before). The next page is read while the caller works on the current one.
 */
export async function* searchableListingPages(db: Executor, pageSize: number): AsyncGenerator<IndexedListing[]> {
  let next = listingPageAfter(db, 0, pageSize);
  for (;;) {
    const page = await next;
    if (page.length === 0) return;
    if (page.length === pageSize) next = listingPageAfter(db, page[page.length - 1]!.id, pageSize);
    else next = Promise.resolve([]);
    yield page;
  }
}

/** The searchable listings among `ids` (those gone or in another state are absent), in ascending id order. */
export async function findIndexedListings(db: Executor, ids: readonly number[]): Promise<IndexedListing[]> {
  const listings: IndexedListing[] = [];
  for (const chunk of chunksOf(ids)) {
    const [rows, terms, agents] = await Promise.all([
      db
        .selectFrom('listings')
        .select(LISTING_COLUMNS)
        .where('status', 'in', SEARCHABLE_STATES)
        .where('id', 'in', chunk)
        .orderBy('id')
        .execute(),
      termIdsOf(db).where('listing_id', 'in', chunk).execute(),
      agentIdsOf(db).where('listing_id', 'in', chunk).execute(),
    ]);
    listings.push(...toIndexedListings(rows, terms, agents));
  }
  return listings;
}

/** Every term, as facets name it. */
export async function findAllIndexedTerms(db: Executor): Promise<IndexedTerm[]> {
  return db.selectFrom('terms').select(['id', 'taxonomy', 'slug', 'name']).orderBy('id').execute();
}

/** The terms among `ids` that still exist. */
export async function findIndexedTerms(db: Executor, ids: readonly number[]): Promise<IndexedTerm[]> {
  const terms: IndexedTerm[] = [];
  for (const chunk of chunksOf(ids)) {
    terms.push(...(await db.selectFrom('terms').select(['id', 'taxonomy', 'slug', 'name']).where('id', 'in', chunk).execute()));
  }
  return terms;
}

/** Every agent, with the agency it belongs to. */
export async function findAllIndexedAgents(db: Executor): Promise<IndexedAgent[]> {
  return db.selectFrom('agents').select(['id', 'agency_id']).orderBy('id').execute();
}

/** The agents among `ids` that still exist. */
export async function findIndexedAgents(db: Executor, ids: readonly number[]): Promise<IndexedAgent[]> {
  const agents: IndexedAgent[] = [];
  for (const chunk of chunksOf(ids)) {
    agents.push(...(await db.selectFrom('agents').select(['id', 'agency_id']).where('id', 'in', chunk).execute()));
  }
  return agents;
}

async function listingPageAfter(db: Executor, afterId: number, pageSize: number): Promise<IndexedListing[]> {
  const rows = await db
    .selectFrom('listings')
    .select(LISTING_COLUMNS)
    .where('status', 'in', SEARCHABLE_STATES)
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(pageSize)
    .execute();
  if (rows.length === 0) return [];
  // The links of the page's id range, through the primary keys (listing_id first): links of listings in the
  // range that are not searchable come along and are dropped, which costs less than naming thousands of ids.
  const [first, last] = [rows[0]!.id, rows[rows.length - 1]!.id];
  const [terms, agents] = await Promise.all([
    termIdsOf(db).where('listing_id', '>=', first).where('listing_id', '<=', last).execute(),
    agentIdsOf(db).where('listing_id', '>=', first).where('listing_id', '<=', last).execute(),
  ]);
  return toIndexedListings(rows, terms, agents);
}

/** Each listing's term ids as one text, grouped by listing: the caller adds which listings. */
function termIdsOf(db: Executor) {
  return db
    .selectFrom('listing_terms')
    .select((eb) => ['listing_id', commaSeparatedIds(db, eb.ref('term_id')).as('ids')])
    .groupBy('listing_id');
}

function agentIdsOf(db: Executor) {
  return db
    .selectFrom('listing_agents')
    .select((eb) => ['listing_id', commaSeparatedIds(db, eb.ref('agent_id')).as('ids')])
    .groupBy('listing_id');
}

type IndexedListingRow = Pick<ListingRow, (typeof LISTING_COLUMNS)[number]>;

interface IdList {
  listing_id: number;
  ids: string | null;
}

function toIndexedListings(rows: readonly IndexedListingRow[], terms: readonly IdList[], agents: readonly IdList[]): IndexedListing[] {
  const termIds = new Map<number, number[]>();
  for (const { listing_id, ids } of terms) termIds.set(listing_id, parseCommaSeparatedIds(ids));
  const agentIds = new Map<number, number[]>();
  for (const { listing_id, ids } of agents) agentIds.set(listing_id, parseCommaSeparatedIds(ids));
  return rows.map((row) => ({
    id: row.id,
    status: row.status as IndexedListing['status'],
    price: row.price,
    currency: row.currency,
    size: row.size,
    land_size: row.land_size,
    bedrooms: row.bedrooms,
    bathrooms: row.bathrooms,
    garage: row.garage,
    year_built: row.year_built,
    featured: Boolean(row.featured),
    author_id: row.author_id,
    agency_id: row.agency_id,
    reference: row.reference,
    search_text: row.search_text,
    title_tokens: row.title_tokens,
    sort_title: row.sort_title,
    // NOTE: a listing gets `published_at` when it first enters `publish`, so a searchable one always has it;
    // the creation time stands in only for a row written around that rule.
    published_at: row.published_at ?? row.created_at,
    latitude: row.latitude,
    longitude: row.longitude,
    // A bigint: PostgreSQL's driver returns it as a string.
    geo_key: row.geo_key === null ? null : Number(row.geo_key),
    geo_x: row.geo_x,
    geo_y: row.geo_y,
    geo_z: row.geo_z,
    term_ids: termIds.get(row.id) ?? [],
    agent_ids: agentIds.get(row.id) ?? [],
  }));
}

function* chunksOf(ids: readonly number[]): Generator<number[]> {
  const distinct = [...new Set(ids)];
  for (let i = 0; i < distinct.length; i += IDS_PER_STATEMENT) yield distinct.slice(i, i + IDS_PER_STATEMENT);
}
