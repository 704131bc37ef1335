import { type Kysely, type SelectQueryBuilder, sql } from 'kysely';
import type { DB } from '../../db/schema.js';
import { fittedPriceRanges, type PriceRange } from '../../lib/price-ranges.js';
import { type SearchDB, searchConditions, searchedStates } from './search-filters.js';
import { TAXONOMY_OF, type ResolvedSearch } from './search-terms.js';
import type { FacetName, TaxonomyFilter } from './search-types.js';

export interface FacetCount {
  /** The term's slug, the number of rooms, or a price range. */
  value: string | number | PriceRange;
  name: string;
  count: number;
}

/**
 * The counts of one facet (API.md 4.4): every filter of the search applies except the facet's own, so that a
 * client can show what widening its selection gives. Zero counts are left out; the order is by count
 * descending, then by value, compared in JavaScript so that both databases give the same order.
 */
export async function countFacet(db: Kysely<DB>, search: ResolvedSearch, facet: FacetName): Promise<FacetCount[]> {
  const matching = () => db.selectFrom('listings as l').where((eb) => eb.and(searchConditions(db, search, facet)(eb)));
  if (facet === 'bedrooms' || facet === 'bathrooms') {
    const rows = await matching()
      .select([`l.${facet} as value`, (eb) => eb.fn.countAll().as('n')])
      .where(`l.${facet}`, 'is not', null)
      .groupBy(`l.${facet}`)
      .execute();
    return byCount(rows.map((row) => ({ value: Number(row.value), name: String(Number(row.value)), count: Number(row.n) })));
  }
  if (facet === 'price') return countPriceRanges(db, matching);
  const taxonomy = TAXONOMY_OF[facet as TaxonomyFilter];
  const rows = await db
    .selectFrom('listing_terms as lt')
    .innerJoin('terms as t', 't.id', 'lt.term_id')
    .select(['t.slug', 't.name', (eb) => eb.fn.countAll().as('n')])
    .where('lt.taxonomy', '=', taxonomy)
    .where('lt.status', 'in', searchedStates(search.query))
    .where('lt.listing_id', 'in', matching().select('l.id'))
    .groupBy(['t.id', 't.slug', 't.name'])
    .execute();
  return byCount(rows.map((row) => ({ value: row.slug, name: row.name, count: Number(row.n) })));
}

/** A fresh query over the listings a facet counts. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type MatchingListings = () => SelectQueryBuilder<SearchDB, 'l', {}>;

/** Counts per range of the 10 fitted to the prices of the matching listings (price filter left out). */
async function countPriceRanges(db: Kysely<DB>, matching: MatchingListings): Promise<FacetCount[]> {
  const bounds = await matching()
    .select((eb) => [eb.fn.min('l.price').as('lowest'), eb.fn.max('l.price').as('highest')])
    .where('l.price', 'is not', null)
    .executeTakeFirst();
  if (bounds?.lowest == null || bounds.highest == null) return [];
  const ranges = fittedPriceRanges(Number(bounds.lowest), Number(bounds.highest));
  // Highest range first, so that the CASE picks the range a price is at or above the start of.
  const rangeOf = sql.join(
    ranges.map((range, index) => sql`when l.price >= ${range.min} then ${index}`).reverse(),
    sql` `,
  );
  const bucket = sql<number>`case ${rangeOf} end`;
  const rows = await matching()
    .select([bucket.as('bucket'), (eb) => eb.fn.countAll().as('n')])
    .where('l.price', 'is not', null)
    // NOTE: by the alias: the CASE written again binds new placeholders, which PostgreSQL takes for another expression.
    .groupBy('bucket')
    .execute();
  const counts = new Map(rows.map((row) => [Number(row.bucket), Number(row.n)]));
  return byCount(
    ranges.flatMap((range, index) => {
      const count = counts.get(index) ?? 0;
      return count > 0 ? [{ value: range, name: `${range.min}–${range.max}`, count }] : [];
    }),
    (a, b) => (a.value as PriceRange).min - (b.value as PriceRange).min,
  );
}

function byCount(counts: FacetCount[], tie: (a: FacetCount, b: FacetCount) => number = byValue): FacetCount[] {
  return counts.sort((a, b) => b.count - a.count || tie(a, b));
}

function byValue(a: FacetCount, b: FacetCount): number {
  if (typeof a.value === 'number' && typeof b.value === 'number') return a.value - b.value;
  const [x, y] = [String(a.value), String(b.value)];
  return x < y ? -1 : x > y ? 1 : 0;
}
