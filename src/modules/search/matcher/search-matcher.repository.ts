import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { groupBy } from '../../../lib/group-by.js';
import { FILTERED_COLUMNS, type MatchableListing } from './search-matcher.js';

/**
 * What search-matcher.ts needs of the given listings, in three queries whatever their number: the rows, their
 * term links, and the agents they name with those agents' agencies.
 */
export async function loadMatchableListings(db: Kysely<DB>, ids: readonly number[]): Promise<MatchableListing[]> {
  if (ids.length === 0) return [];
  const [rows, terms, agents] = await Promise.all([
    db
      .selectFrom('listings')
      .select([...FILTERED_COLUMNS, 'latitude', 'longitude', 'geo_x', 'geo_y', 'geo_z'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute(),
    db.selectFrom('listing_terms').select(['listing_id', 'term_id']).where('listing_id', 'in', ids).execute(),
    db
      .selectFrom('listing_agents as la')
      .innerJoin('agents as a', 'a.id', 'la.agent_id')
      .select(['la.listing_id', 'la.agent_id', 'a.agency_id'])
      .where('la.listing_id', 'in', ids)
      .execute(),
  ]);
  const termsOf = groupBy(terms, (link) => link.listing_id);
  const agentsOf = groupBy(agents, (agent) => agent.listing_id);
  return rows.map((row) => {
    const own = agentsOf.get(row.id) ?? [];
    return {
      ...row,
      featured: Boolean(row.featured),
      geo: row.geo_x === null || row.geo_y === null || row.geo_z === null ? null : [row.geo_x, row.geo_y, row.geo_z],
      term_ids: new Set((termsOf.get(row.id) ?? []).map((link) => link.term_id)),
      agent_ids: own.map((agent) => agent.agent_id),
      agent_agency_ids: own.flatMap((agent) => (agent.agency_id === null ? [] : [agent.agency_id])),
    };
  });
}
