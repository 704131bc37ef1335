import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import { asciiLower, asciiLowerCase, escapeLike } from '../../../db/dialect/index.js';
import type { DB, ListingState } from '../../../db/schema/index.js';
import type { PageWindow } from '../../../lib/paging.js';
import { PUBLIC_STATES } from '../listing-access.js';
import type { ListSort } from '../properties.schemas.js';
import { inListOrder } from './published-pages.repository.js';

/** The SQL of the caller's lists (favorites, own listings), of the moderators' list and of similar listings; each returns ids only. */

export interface IdPage {
  ids: number[];
  total: number;
}

/** The users whose agent records belong to the agency of `agencyUserId`: their listings are the agency's (docs/api.md 0.3). */
function agentUsersOfAgency(db: Kysely<DB>, agencyUserId: number) {
  return db
    .selectFrom('agents as a')
    .innerJoin('agencies as g', 'g.id', 'a.agency_id')
    .select('a.user_id')
    .where('g.user_id', '=', agencyUserId);
}

export interface FavoritesReader {
  userId: number;
  /** Administrators and managers see every listing (listing-access.ts canView). */
  seesEveryListing: boolean;
}

/**
 * One page of the user's favorites, newest favorite first (ties by listing id, descending), and their total,
 * both counting only listings the user may still see: listing-access.ts canView in SQL (a public state, the
 * user's own listing, or one by an agent of the user's agency). Uses the favorites primary key
 * (user_id, listing_id) and the listings primary key.
 */
export async function findFavoritePage(db: Kysely<DB>, reader: FavoritesReader, window: PageWindow): Promise<IdPage> {
  let query = db.selectFrom('favorites as f').innerJoin('listings as l', 'l.id', 'f.listing_id').where('f.user_id', '=', reader.userId);
  if (!reader.seesEveryListing) {
    query = query.where((eb) =>
      eb.or([
        eb('l.status', 'in', [...PUBLIC_STATES]),
        eb('l.author_id', '=', reader.userId),
        eb('l.author_id', 'in', agentUsersOfAgency(db, reader.userId)),
      ]),
    );
  }
  const [page, count] = await Promise.all([
    query
      .select('f.listing_id')
      .orderBy('f.created_at', 'desc')
      .orderBy('f.listing_id', 'desc')
      .limit(window.perPage)
      .offset(window.offset)
      .execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ids: page.map((row) => row.listing_id), total: Number(count.n) };
}

/** The filters that the lists holding every state share (own listings, moderation). */
export interface StateAndKeyword {
  /** Absent: every state. */
  status?: ListingState;
  /** Substring of the title or the reference, ASCII case ignored the same way on both databases. */
  keyword?: string;
}

export interface OwnListingsFilter extends StateAndKeyword {
  ownerId: number;
  sort: ListSort;
}

/** Narrows a query of listings to a state and a keyword, when given. */
function withStateAndKeyword<O>(
  db: Kysely<DB>,
  query: SelectQueryBuilder<DB, 'listings', O>,
  filter: StateAndKeyword,
): SelectQueryBuilder<DB, 'listings', O> {
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.keyword !== undefined) {
    const pattern = `%${escapeLike(asciiLowerCase(filter.keyword))}%`;
    query = query.where((eb) =>
      eb.or((['title', 'reference'] as const).map((column) => sql<boolean>`${asciiLower(db, eb.ref(column))} like ${pattern} escape '\\'`)),
    );
  }
  return query;
}

type IdQuery = SelectQueryBuilder<DB, 'listings', { id: number }>;

/** The two statements of a page: its ids, and the total of the matching listings. */
export interface IdPageQueries {
  page: IdQuery;
  count: SelectQueryBuilder<DB, 'listings', { n: string | number | bigint }>;
}

/** The page of the ids `query` matches, in the order `inOrder` gives them (ending with a unique key), and their count. */
function idPageQueries(
  query: SelectQueryBuilder<DB, 'listings', object>,
  inOrder: (ids: IdQuery) => IdQuery,
  window: PageWindow,
): IdPageQueries {
  return {
    page: inOrder(query.select('id')).limit(window.perPage).offset(window.offset),
    count: query.select((eb) => eb.fn.countAll().as('n')),
  };
}

async function runIdPage({ page, count }: IdPageQueries): Promise<IdPage> {
  const [rows, total] = await Promise.all([page.execute(), count.executeTakeFirstOrThrow()]);
  return { ids: rows.map((row) => row.id), total: Number(total.n) };
}

/**
 * One page of the listings the user owns in any state (authored by the user, or by an agent of the user's
 * agency) and their total. Uses listings_author_status_idx (author_id, status, id).
 */
export async function findOwnListingPage(db: Kysely<DB>, filter: OwnListingsFilter, window: PageWindow): Promise<IdPage> {
  // One IN over the owner and the agency's agents (rather than an OR), so both databases look the authors up
  // in the index instead of scanning every listing.
  const authors = agentUsersOfAgency(db, filter.ownerId).union(
    db.selectFrom('users').select('id as user_id').where('id', '=', filter.ownerId),
  );
  const query = withStateAndKeyword(db, db.selectFrom('listings').where('author_id', 'in', authors), filter);
  return runIdPage(idPageQueries(query, (ids) => inListOrder(ids, filter.sort, true), window));
}

export interface ModerationListFilter extends StateAndKeyword {
  /** Only this author's listings. */
  authorId?: number;
  /** Absent: the most recently changed first (`updated_at` descending). */
  sort?: ListSort;
}

/**
 * One page of every user's listings, for moderators, and their total. In one state, the default order is a
 * backward range of listings_status_updated_idx (status, updated_at, id) (migration 0016) and the count reads
 * one of the `(status, …)` indexes; with `author_id`, PostgreSQL finds the rows through
 * listings_author_status_idx (author_id, status, id) and SQLite walks the same backward range. Every state
 * (`all`) or another `sortby` sorts the matching rows.
 */
export function moderationListQueries(db: Kysely<DB>, filter: ModerationListFilter, window: PageWindow): IdPageQueries {
  let query = db.selectFrom('listings');
  if (filter.authorId !== undefined) query = query.where('author_id', '=', filter.authorId);
  const { sort } = filter;
  return idPageQueries(
    withStateAndKeyword(db, query, filter),
    (ids) => (sort === undefined ? ids.orderBy('updated_at', 'desc').orderBy('id', 'desc') : inListOrder(ids, sort, true)),
    window,
  );
}

export async function findModerationListPage(db: Kysely<DB>, filter: ModerationListFilter, window: PageWindow): Promise<IdPage> {
  return runIdPage(moderationListQueries(db, filter, window));
}

export interface SimilarCriteria {
  /** The listing the others are similar to; never among them. */
  listingId: number;
  /** Its property_type terms: a similar listing has at least one of them. */
  typeIds: readonly number[];
  /** Its city, else state, else country term: a similar listing has it too; null: anywhere. */
  placeTermId: number | null;
  /** Its price: a similar listing's is within ±25 %, nearest first; null: any price, newest id first. */
  price: number | null;
  limit: number;
}

/** How far from the listing's price a similar listing's may be, as a fraction of it (docs/api.md 4.2). */
const SIMILAR_PRICE_BAND = 0.25;

/**
 * Published listings similar to one (docs/api.md 4.2, 12), nearest in price first, ties by id descending. Both
 * databases find the candidates of the type and of the place through listing_terms_search_idx (term, state,
 * city, price), narrowed to published links within the price band by the copies each link carries of its
 * listing's state and price, intersect them, and check state and price band on each through the listings
 * primary key; the few that remain are sorted. (listings_status_price_idx could drive the price band instead
 * where it is the narrower filter.)
 */
export async function findSimilarIds(db: Kysely<DB>, criteria: SimilarCriteria): Promise<number[]> {
  if (criteria.typeIds.length === 0) return [];
  const { price } = criteria;
  const band = price === null ? undefined : ([price * (1 - SIMILAR_PRICE_BAND), price * (1 + SIMILAR_PRICE_BAND)] as const);
  const withTerm = (termIds: readonly number[]) => {
    const links = db.selectFrom('listing_terms').select('listing_id').where('term_id', 'in', termIds).where('status', '=', 'publish');
    return band ? links.where('price', '>=', band[0]).where('price', '<=', band[1]) : links;
  };
  let query = db
    .selectFrom('listings')
    .select('id')
    .where('status', '=', 'publish')
    .where('id', '!=', criteria.listingId)
    .where('id', 'in', withTerm(criteria.typeIds));
  if (criteria.placeTermId !== null) query = query.where('id', 'in', withTerm([criteria.placeTermId]));
  if (band) {
    query = query
      .where('price', '>=', band[0])
      .where('price', '<=', band[1])
      .orderBy(sql`abs(price - ${price})`);
  }
  const rows = await query.orderBy('id', 'desc').limit(criteria.limit).execute();
  return rows.map((row) => row.id);
}
