import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { hasAllTerms } from '../../../db/dialect/full-text.js';
import type { DB, ListingState } from '../../../db/schema/index.js';
import { inBoxSql, inCircleSql, inPolygonSql } from '../geo/geo-filters.repository.js';
import { queryTerms } from '../../../lib/search-tokens.js';
import type { ResolvedSearch } from './search-terms.js';
import { type FacetName, LOCATION_FILTERS, type NumberRange, type SearchQuery, TERM_FILTERS, type TaxonomyFilter } from './search-types.js';

/** The listings table as searches name it. */
export type SearchDB = DB & { l: DB['listings'] };
export type ListingsEb = ExpressionBuilder<SearchDB, 'l'>;

/** The states a search returns: `publish`, and `sold` with `include_sold` (docs/api.md 4.4). */
export function searchedStates(query: SearchQuery): ListingState[] {
  return query.include_sold ? ['publish', 'sold'] : ['publish'];
}

/**
 * The conditions of a resolved search on `listings as l`, all of them ANDed; `except` leaves out the filter of
 * one facet. Term filters read listing_terms through listing_terms_search_idx (term_id, status, city_id,
 * price, listing_id). The rows carry copies of their listing's state, city and price (kept by triggers,
 * db/dialect/ddl/search-triggers.ts), so the first term filter takes the city and price conditions over: a
 * search by type, city and price range is then one range of that index, and the planners fetch its few
 * listings by id instead of walking every listing in the price range (SQLite did, with the conditions
 * written on the listing too).
 */
export function searchConditions(db: Kysely<DB>, search: ResolvedSearch, except?: FacetName) {
  const { query, termIds } = search;
  const states = searchedStates(query);
  const skipped = (name: FacetName) => except === name;
  // An unknown city matches nothing by its own condition; carrying an empty list would be an empty IN.
  const cityIds = !skipped('city') && termIds.city?.length ? termIds.city : undefined;
  const price = except === 'price' ? undefined : query.price;
  const carrier = TERM_FILTERS.find((name) => !skipped(name) && termIds[name]?.length);

  return (eb: ListingsEb): Expression<SqlBool>[] => {
    const conditions: Expression<SqlBool>[] = [eb('l.status', 'in', states)];
    const withTerms = (ids: readonly number[], carry: boolean) => {
      let rows = db
        .selectFrom('listing_terms as lt')
        .select('lt.listing_id')
        .where('lt.term_id', 'in', ids)
        .where('lt.status', 'in', states);
      if (carry && cityIds) rows = rows.where('lt.city_id', 'in', cityIds);
      if (carry && price?.min !== undefined) rows = rows.where('lt.price', '>=', price.min);
      if (carry && price?.max !== undefined) rows = rows.where('lt.price', '<=', price.max);
      return eb('l.id', 'in', rows);
    };
    const termFilter = (name: TaxonomyFilter) => {
      const ids = termIds[name];
      if (ids === undefined || skipped(name)) return;
      if (ids.length === 0) conditions.push(sql<SqlBool>`1 = 0`);
      else if (name === 'city' && carrier && cityIds)
        return; // carried
      else if (name === 'feature') ids.forEach((id, i) => conditions.push(withTerms([id], carrier === name && i === 0)));
      else conditions.push(withTerms(ids, carrier === name));
    };
    for (const name of [...TERM_FILTERS, ...LOCATION_FILTERS]) termFilter(name);

    const range = (column: 'l.price' | 'l.size' | 'l.land_size' | 'l.bedrooms' | 'l.bathrooms' | 'l.year_built', bounds?: NumberRange) => {
      if (bounds?.min !== undefined) conditions.push(eb(column, '>=', bounds.min));
      if (bounds?.max !== undefined) conditions.push(eb(column, '<=', bounds.max));
    };
    if (!carrier) range('l.price', price);
    range('l.size', query.size);
    range('l.land_size', query.land_size);
    if (!skipped('bedrooms')) range('l.bedrooms', query.bedrooms);
    if (!skipped('bathrooms')) range('l.bathrooms', query.bathrooms);
    range('l.year_built', query.year_built);
    if (query.currency !== undefined && !skipped('currency')) conditions.push(eb('l.currency', '=', query.currency));
    if (query.garage !== undefined) conditions.push(eb('l.garage', '>=', query.garage));
    if (query.featured) conditions.push(eb('l.featured', '=', 1));
    if (query.user_id !== undefined) conditions.push(eb('l.author_id', '=', query.user_id));
    if (query.ids !== undefined) conditions.push(eb('l.id', 'in', query.ids));
    if (query.reference !== undefined) conditions.push(eb('l.reference', '=', query.reference));
    if (query.agent_id !== undefined) conditions.push(ofAgent(db, eb, query.agent_id));
    if (query.agency_id !== undefined) conditions.push(ofAgency(db, eb, query.agency_id));
    if (search.scope) conditions.push((search.scope.kind === 'agent' ? ofAgent : ofAgency)(db, eb, search.scope.id));
    if (query.keyword !== undefined) {
      const terms = queryTerms(query.keyword);
      if (terms.length > 0) conditions.push(hasAllTerms(db, terms));
    }
    if (query.circle?.radius !== undefined) conditions.push(inCircleSql(eb, { ...query.circle, radius: query.circle.radius }));
    if (query.box !== undefined) conditions.push(inBoxSql(eb, query.box));
    if (query.polygon !== undefined) conditions.push(inPolygonSql(eb, query.polygon));
    return conditions;
  };
}

/** An agent's listings (docs/api.md 12): those naming it in `agent_ids`. */
function ofAgent(db: Kysely<DB>, eb: ListingsEb, agentId: number): Expression<SqlBool> {
  return eb('l.id', 'in', db.selectFrom('listing_agents').select('listing_id').where('agent_id', '=', agentId));
}

/** An agency's listings (docs/api.md 12): its own `agency_id`, or naming one of its agents. */
function ofAgency(db: Kysely<DB>, eb: ListingsEb, agencyId: number): Expression<SqlBool> {
  const namingItsAgents = db
    .selectFrom('listing_agents as la')
    .innerJoin('agents as a', 'a.id', 'la.agent_id')
    .select('la.listing_id')
    .where('a.agency_id', '=', agencyId);
  return eb.or([eb('l.agency_id', '=', agencyId), eb('l.id', 'in', namingItsAgents)]);
}
