import type { Executor } from '../../../db/executor.js';
import { commaSeparatedIds, parseCommaSeparatedIds } from '../../../db/dialect/id-lists.js';
import { unindexedColumn } from '../../../db/dialect/index.js';
import { jsonArrayOf } from '../../../db/dialect/json-rows.js';
import { FILTERED_COLUMNS } from '../matcher/search-matcher.js';
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

/**
 * The columns a listing is indexed from, read as one JSON array a row (db/dialect/json-rows.ts: a build reads a
 * million of them, and a driver's object per row cost more than the reading), in the order `toIndexedListing`
 * takes them apart; `published_at` comes last (see `searchableListings`).
 */
const LISTING_COLUMNS = [
  ...FILTERED_COLUMNS,
  'title_tokens',
  'sort_title',
  'latitude',
  'longitude',
  'geo_key',
  'geo_x',
  'geo_y',
  'geo_z',
] as const;

/**
 * Every searchable listing, in pages of at most `pageSize` by ascending id (keyset: each page starts after the
 * last id of the one before), each page as one JSON text (`parseListingPage` reads it): what a worker thread
 * hands the thread that builds the index (index-rows-worker.ts), a copy of one string. A page's listings are
 * read first, then its links while the next page's listings are read: on a pool of more than one connection
 * (PostgreSQL's reader, db/database.ts `openReader`) the database reads two pages at once.
 */
export async function* searchableListingTexts(db: Executor, pageSize: number): AsyncGenerator<string> {
  let next = listingRowsAfter(db, 0, pageSize);
  for (;;) {
    const rows = await next;
    if (rows.length === 0) return;
    next = rows.length === pageSize ? listingRowsAfter(db, rows[rows.length - 1]!.id, pageSize) : Promise.resolve([]);
    yield await pageText(db, rows);
  }
}

/** `searchableListingTexts`, read here. */
export function searchableListingPages(db: Executor, pageSize: number): AsyncGenerator<IndexedListing[]> {
  return parsedListingPages(searchableListingTexts(db, pageSize));
}

/** The listings of each page of `searchableListingTexts`, wherever it was read. */
export async function* parsedListingPages(texts: AsyncIterable<string>): AsyncGenerator<IndexedListing[]> {
  for await (const text of texts) yield parseListingPage(text);
}

/** The listings of a page of `searchableListingTexts`. */
function parseListingPage(text: string): IndexedListing[] {
  return (JSON.parse(text) as PageValues[]).map((values) => toIndexedListing(values, values[24], values[25]));
}

/** The highest listing id, 0 without listings: how large a build will be, through the primary key alone. */
export async function highestListingId(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** The searchable listings among `ids` (those gone or in another state are absent), in ascending id order. */
export async function findIndexedListings(db: Executor, ids: readonly number[]): Promise<IndexedListing[]> {
  const listings: IndexedListing[] = [];
  for (const chunk of chunksOf(ids)) {
    const [rows, terms, agents] = await Promise.all([
      searchableListings(db)
        .where('id', 'in', chunk)
        .orderBy('id')
        .execute()
        .then((found) => found.map(valuesOf)),
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

/** The searchable listings after `afterId`, at most `pageSize` by ascending id, each as one JSON array text. */
function listingRowsAfter(db: Executor, afterId: number, pageSize: number): Promise<{ id: number; row: string }[]> {
  return searchableListings(db).select('id').where('id', '>', afterId).orderBy('id').limit(pageSize).execute();
}

/**
 * A page of listings as one JSON array, each its row's values with its term ids and agent ids appended as two
 * arrays: the texts the databases give, joined, never parsed here.
 */
async function pageText(db: Executor, rows: readonly { id: number; row: string }[]): Promise<string> {
  // The links of the page's id range, through the primary keys (listing_id first): links of listings in the
  // range that are not searchable come along and are dropped, which costs less than naming thousands of ids.
  const [first, last] = [rows[0]!.id, rows[rows.length - 1]!.id];
  const [terms, agents] = await Promise.all([
    termIdsOf(db).where('listing_id', '>=', first).where('listing_id', '<=', last).execute(),
    agentIdsOf(db).where('listing_id', '>=', first).where('listing_id', '<=', last).execute(),
  ]);
  const termIds = new Map(terms.map(({ listing_id, ids }) => [listing_id, ids]));
  const agentIds = new Map(agents.map(({ listing_id, ids }) => [listing_id, ids]));
  const listings = rows.map(({ id, row }) => `${row.slice(0, -1)},[${termIds.get(id) ?? ''}],[${agentIds.get(id) ?? ''}]]`);
  return `[${listings.join(',')}]`;
}

function searchableListings(db: Executor) {
  return (
    db
      .selectFrom('listings')
      .select((eb) =>
        jsonArrayOf(db, [
          ...LISTING_COLUMNS.map((column) => eb.ref(column)),
          // NOTE: a listing gets `published_at` when it first enters `publish`, so a searchable one always has it;
          // the creation time stands in only for a row written around that rule.
          eb.fn.coalesce('published_at', 'created_at'),
        ]).as('row'),
      )
      // NOTE: through the primary key whatever the planner's statistics say (db/dialect/index.ts): planned
      // through an index on status, each page of a build sorted every searchable listing.
      .where((eb) => eb(unindexedColumn(db, eb.ref('status')), 'in', SEARCHABLE_STATES))
  );
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

/** A listing's values in the order of LISTING_COLUMNS, then `published_at`; in a page, its term and agent ids after. */
type ListingValues = [
  id: number,
  status: IndexedListing['status'],
  price: number | null,
  currency: string,
  size: number | null,
  landSize: number | null,
  bedrooms: number | null,
  bathrooms: number | null,
  garage: number | null,
  yearBuilt: number | null,
  featured: number,
  authorId: number | null,
  agencyId: number | null,
  reference: string,
  searchText: string,
  titleTokens: string,
  sortTitle: string,
  latitude: number | null,
  longitude: number | null,
  geoKey: number | null,
  geoX: number | null,
  geoY: number | null,
  geoZ: number | null,
  publishedAt: string,
];

type PageValues = [...ListingValues, termIds: number[], agentIds: number[]];

function valuesOf({ row }: { row: string }): ListingValues {
  return JSON.parse(row) as ListingValues;
}

interface IdList {
  listing_id: number;
  ids: string | null;
}

/** The ids of a listing without links: one shared array (most listings name no agent). */
const NO_IDS: readonly number[] = Object.freeze([]);

function toIndexedListings(rows: readonly ListingValues[], terms: readonly IdList[], agents: readonly IdList[]): IndexedListing[] {
  const termIds = new Map<number, readonly number[]>();
  for (const { listing_id, ids } of terms) termIds.set(listing_id, parseCommaSeparatedIds(ids));
  const agentIds = new Map<number, readonly number[]>();
  for (const { listing_id, ids } of agents) agentIds.set(listing_id, parseCommaSeparatedIds(ids));
  return rows.map((values) => toIndexedListing(values, termIds.get(values[0]) ?? NO_IDS, agentIds.get(values[0]) ?? NO_IDS));
}

function toIndexedListing(values: ListingValues | PageValues, termIds: readonly number[], agentIds: readonly number[]): IndexedListing {
  return {
    id: values[0],
    status: values[1],
    price: values[2],
    currency: values[3],
    size: values[4],
    land_size: values[5],
    bedrooms: values[6],
    bathrooms: values[7],
    garage: values[8],
    year_built: values[9],
    featured: values[10] !== 0,
    author_id: values[11],
    agency_id: values[12],
    reference: values[13],
    search_text: values[14],
    title_tokens: values[15],
    sort_title: values[16],
    latitude: values[17],
    longitude: values[18],
    geo_key: values[19],
    geo_x: values[20],
    geo_y: values[21],
    geo_z: values[22],
    published_at: values[23],
    term_ids: termIds,
    agent_ids: agentIds,
  };
}

function* chunksOf(ids: readonly number[]): Generator<number[]> {
  const distinct = [...new Set(ids)];
  for (let i = 0; i < distinct.length; i += IDS_PER_STATEMENT) yield distinct.slice(i, i + IDS_PER_STATEMENT);
}
