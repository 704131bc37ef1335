import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import type { PageWindow } from '../../../lib/paging.js';
import type { ListSort } from '../properties.schemas.js';
import type { IdPage } from './property-lists.repository.js';

/**
 * The orders of `sortby`. Every order ends with `id` descending, so that equal keys come out the same on
 * SQLite and PostgreSQL (docs/api.md 4.4); listings without the sorted value (no price, no size) come last in
 * both directions, as `(x is null)` sorts false before true on both. With `mayBeUnpublished` (lists that
 * hold every state) a listing never published sorts after the published ones in the date orders too;
 * lists of published listings leave that key out, so that the (status, published_at) index serves them.
 */
export function inListOrder<O>(
  query: SelectQueryBuilder<DB, 'listings', O>,
  sort: ListSort,
  mayBeUnpublished: boolean,
): SelectQueryBuilder<DB, 'listings', O> {
  const unpublishedLast = (q: SelectQueryBuilder<DB, 'listings', O>) => (mayBeUnpublished ? q.orderBy(sql`(published_at is null)`) : q);
  switch (sort) {
    case 'd_date':
    case 'a_date':
      query = unpublishedLast(query).orderBy('published_at', sort === 'd_date' ? 'desc' : 'asc');
      break;
    case 'a_price':
    case 'd_price':
      query = query.orderBy(sql`(price is null)`).orderBy('price', sort === 'a_price' ? 'asc' : 'desc');
      break;
    case 'a_size':
    case 'd_size':
      query = query.orderBy(sql`(size is null)`).orderBy('size', sort === 'a_size' ? 'asc' : 'desc');
      break;
    case 'a_title':
    case 'd_title':
      query = query.orderBy('sort_title', sort === 'a_title' ? 'asc' : 'desc');
      break;
    case 'featured_first':
      query = unpublishedLast(query.orderBy('featured', 'desc')).orderBy('published_at', 'desc');
      break;
  }
  return query.orderBy('id', 'desc');
}

/** One page of published listings in the order of `sortby`. */
export async function findPublishedIds(db: Kysely<DB>, sort: ListSort, window: PageWindow): Promise<number[]> {
  const query = db.selectFrom('listings').select('id').where('status', '=', 'publish');
  const rows = await inListOrder(query, sort, false).limit(window.perPage).offset(window.offset).execute();
  return rows.map((row) => row.id);
}

export async function countPublished(db: Kysely<DB>): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('status', '=', 'publish')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** One page of the published listings naming the agent (docs/api.md 12), in the order of `sortby`. */
export async function findAgentListingPage(db: Kysely<DB>, agentId: number, sort: ListSort, window: PageWindow): Promise<IdPage> {
  const query = db
    .selectFrom('listings')
    .where('status', '=', 'publish')
    .where('id', 'in', db.selectFrom('listing_agents').select('listing_id').where('agent_id', '=', agentId));
  return listingPage(query, sort, window);
}

/** One page of the agency's published listings: its own (`agency_id`) and those naming one of its agents. */
export async function findAgencyListingPage(db: Kysely<DB>, agencyId: number, sort: ListSort, window: PageWindow): Promise<IdPage> {
  const query = db
    .selectFrom('listings')
    .where('status', '=', 'publish')
    .where((eb) =>
      eb.or([
        eb('agency_id', '=', agencyId),
        eb(
          'id',
          'in',
          eb
            .selectFrom('listing_agents as la')
            .innerJoin('agents as a', 'a.id', 'la.agent_id')
            .select('la.listing_id')
            .where('a.agency_id', '=', agencyId),
        ),
      ]),
    );
  return listingPage(query, sort, window);
}

async function listingPage(query: SelectQueryBuilder<DB, 'listings', object>, sort: ListSort, window: PageWindow): Promise<IdPage> {
  const [page, count] = await Promise.all([
    inListOrder(query.select('id'), sort, false).limit(window.perPage).offset(window.offset).execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ids: page.map((row) => row.id), total: Number(count.n) };
}
