import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely';
import { asciiLower, asciiLowerCase, escapeLike } from '../../db/dialect/index.js';
import type { DB } from '../../db/schema/index.js';
import type { PageWindow } from '../../lib/paging.js';
import type { DirectorySort } from './directory.schemas.js';

/** The SQL that picks and counts the ids of a directory page; the records are built from the ids elsewhere. */

export interface IdPage {
  ids: number[];
  total: number;
}

/** What a list of agents is narrowed to; only visible agents are listed unless `includeHidden` says otherwise. */
export interface AgentFilter {
  agencyId?: number;
  /** Hidden agents too: only for a caller who may see each of them (an agency's list for its user or moderators). */
  includeHidden?: true;
  /** Folded with sortKey(): a substring of the folded name (`sort_key`). */
  keyword?: string;
  /** agent_city slugs: agents with any of them. */
  citySlugs?: readonly string[];
  /** agent_category slugs: agents with any of them. */
  categorySlugs?: readonly string[];
  /** One of the agent's languages exactly, ignoring the case of ASCII letters. */
  language?: string;
}

/**
 * One page of visible agents (all agents with `includeHidden`) and their total. Name orders use
 * agents_visible_name_idx (visible, sort_key, id), an agency's agents agents_agency_idx; `d_properties` counts each agent's published listings in a correlated subquery (through
 * listing_agents_agent_idx), which is fine at directory sizes (thousands of agents), not at millions.
 */
export async function findAgentPage(db: Kysely<DB>, filter: AgentFilter, sort: DirectorySort, window: PageWindow): Promise<IdPage> {
  let query = db.selectFrom('agents');
  if (!filter.includeHidden) query = query.where('visible', '=', 1);
  if (filter.agencyId !== undefined) query = query.where('agency_id', '=', filter.agencyId);
  if (filter.keyword) query = query.where(sql<boolean>`sort_key like ${`%${escapeLike(filter.keyword)}%`} escape '\\'`);
  const withTerm = (taxonomy: 'agent_city' | 'agent_category', slugs: readonly string[]) =>
    db
      .selectFrom('agent_terms as at')
      .innerJoin('terms as t', 't.id', 'at.term_id')
      .select('at.agent_id')
      .where('t.taxonomy', '=', taxonomy)
      .where('t.slug', 'in', slugs);
  if (filter.citySlugs) query = query.where('id', 'in', withTerm('agent_city', filter.citySlugs));
  if (filter.categorySlugs) query = query.where('id', 'in', withTerm('agent_category', filter.categorySlugs));
  if (filter.language !== undefined) {
    // `languages` is a JSON array of strings: the quoted, encoded name matches one element exactly (names
    // cannot hold quotes or backslashes, so a match never starts or ends inside another element).
    const pattern = `%${escapeLike(JSON.stringify(asciiLowerCase(filter.language)))}%`;
    query = query.where(sql<boolean>`${asciiLower(db, sql.ref('languages'))} like ${pattern} escape '\\'`);
  }
  const publishedListings = sql`(select count(*) from listing_agents la inner join listings l on l.id = la.listing_id
    where la.agent_id = agents.id and l.status = 'publish')`;
  const [page, count] = await Promise.all([
    inDirectoryOrder(query.select('id'), sort, publishedListings).limit(window.perPage).offset(window.offset).execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ids: page.map((row) => row.id), total: Number(count.n) };
}

/**
 * One page of agencies and their total; `keyword` is folded with sortKey(). Name orders use
 * agencies_name_idx (sort_key, id); `d_properties` counts in a correlated subquery as the agents' does.
 */
export async function findAgencyPage(
  db: Kysely<DB>,
  keyword: string | undefined,
  sort: DirectorySort,
  window: PageWindow,
): Promise<IdPage> {
  let query = db.selectFrom('agencies');
  if (keyword) query = query.where(sql<boolean>`sort_key like ${`%${escapeLike(keyword)}%`} escape '\\'`);
  const publishedListings = sql`(select count(*) from listings l where l.status = 'publish' and (l.agency_id = agencies.id
    or l.id in (select la.listing_id from listing_agents la inner join agents a on a.id = la.agent_id where a.agency_id = agencies.id)))`;
  const [page, count] = await Promise.all([
    inDirectoryOrder(query.select('id'), sort, publishedListings).limit(window.perPage).offset(window.offset).execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { ids: page.map((row) => row.id), total: Number(count.n) };
}

/**
 * The orders of docs/api.md 5.2, each ending with id descending so that equal keys come out the same on both
 * databases. `d_rating` compares the exact average (a double on both), agents without reviews last.
 */
function inDirectoryOrder<TB extends 'agents' | 'agencies', O>(
  query: SelectQueryBuilder<DB, TB, O>,
  sort: DirectorySort,
  publishedListings: RawBuilder<unknown>,
): SelectQueryBuilder<DB, TB, O> {
  switch (sort) {
    case 'a_name':
    case 'd_name':
      query = query.orderBy(sql`sort_key`, sort === 'a_name' ? 'asc' : 'desc');
      break;
    case 'd_rating':
      query = query.orderBy(sql`(reviews_count = 0)`).orderBy(sql`cast(rating_sum as double precision) / nullif(reviews_count, 0)`, 'desc');
      break;
    case 'd_properties':
      query = query.orderBy(publishedListings, 'desc');
      break;
  }
  return query.orderBy(sql`id`, 'desc');
}
