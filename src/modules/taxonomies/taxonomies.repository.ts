import { sql } from 'kysely';
import { escapeLike } from '../../db/dialect/index.js';
import type { NewTerm, Taxonomy, TermRow, TermUpdate } from '../../db/schema/index.js';
import type { TermFilter, TermOrderBy } from './term-query.js';
import type { Executor } from '../../db/executor.js';

/** A term with its location parent (states, cities, areas), as one row. */
export type TermWithLocationParent = TermRow & {
  location_parent_name: string | null;
  location_parent_slug: string | null;
};

/** Enough to fetch every term at once and still be a bound (no listing endpoint needs more). */
const NO_LIMIT = 2_147_483_647;

const SORT_COLUMN: Record<TermOrderBy, 't.sort_key' | 't.count' | 't.id' | 't.slug'> = {
  name: 't.sort_key',
  count: 't.count',
  id: 't.id',
  slug: 't.slug',
};

/** One query: filter, order (ties by id), page, with the location parent joined. */
export async function findTerms(db: Executor, filter: TermFilter): Promise<TermWithLocationParent[]> {
  const direction = filter.descending ? 'desc' : 'asc';
  let query = db
    .selectFrom('terms as t')
    .leftJoin('terms as lp', 'lp.id', 't.location_parent_id')
    .selectAll('t')
    .select(['lp.name as location_parent_name', 'lp.slug as location_parent_slug'])
    .where('t.taxonomy', '=', filter.taxonomy);

  if (filter.hideEmpty) query = query.where('t.count', '>', 0);
  if (filter.parent !== undefined) {
    query = filter.parent === 0 ? query.where('t.parent_id', 'is', null) : query.where('t.parent_id', '=', filter.parent);
  }
  if (filter.search !== undefined) {
    const pattern = `%${escapeLike(filter.search)}%`;
    query = query.where((eb) =>
      eb.or([
        sql<boolean>`${eb.ref('t.sort_key')} like ${pattern} escape '\\'`,
        sql<boolean>`${eb.ref('t.slug')} like ${pattern} escape '\\'`,
      ]),
    );
  }
  if (filter.include) query = query.where('t.id', 'in', filter.include);
  if (filter.exclude) query = query.where('t.id', 'not in', filter.exclude);
  if (filter.slugs) query = query.where('t.slug', 'in', filter.slugs);
  const parent = filter.locationParent;
  if (parent) {
    query = query.where('t.location_parent_id', 'in', (eb) => {
      const parents = eb.selectFrom('terms as p').select('p.id').where('p.taxonomy', '=', parent.taxonomy);
      return 'id' in parent ? parents.where('p.id', '=', parent.id) : parents.where('p.slug', '=', parent.slug);
    });
  }

  return query
    .orderBy(SORT_COLUMN[filter.orderBy], direction)
    .orderBy('t.id', direction)
    .limit(filter.limit ?? NO_LIMIT)
    .offset(filter.offset)
    .execute();
}

export async function findTermById(db: Executor, taxonomy: Taxonomy, id: number): Promise<TermWithLocationParent | undefined> {
  return db
    .selectFrom('terms as t')
    .leftJoin('terms as lp', 'lp.id', 't.location_parent_id')
    .selectAll('t')
    .select(['lp.name as location_parent_name', 'lp.slug as location_parent_slug'])
    .where('t.taxonomy', '=', taxonomy)
    .where('t.id', '=', id)
    .executeTakeFirst();
}

/** The mean position of the term's published listings that have one; undefined when none has. */
export async function findListingsCentre(db: Executor, termId: number): Promise<{ latitude: number; longitude: number } | undefined> {
  const row = await db
    .selectFrom('listing_terms as lt')
    .innerJoin('listings as l', 'l.id', 'lt.listing_id')
    .select((eb) => [eb.fn.avg<number>('l.latitude').as('latitude'), eb.fn.avg<number>('l.longitude').as('longitude')])
    .where('lt.term_id', '=', termId)
    .where('l.status', '=', 'publish')
    .where('l.latitude', 'is not', null)
    .where('l.longitude', 'is not', null)
    .executeTakeFirst();
  if (row?.latitude == null || row.longitude == null) return undefined;
  // Six decimals (~0.1 m), as positions are given: the mean's binary tail is not a difference between databases.
  const round = (value: number) => Math.round(Number(value) * 1e6) / 1e6;
  return { latitude: round(row.latitude), longitude: round(row.longitude) };
}

/** Taxonomy of each given id that exists (for parent and location-parent checks). */
export async function findTaxonomyOf(db: Executor, id: number): Promise<{ taxonomy: Taxonomy; parent_id: number | null } | undefined> {
  return db.selectFrom('terms').select(['taxonomy', 'parent_id']).where('id', '=', id).executeTakeFirst();
}

export async function insertTerm(db: Executor, term: NewTerm): Promise<number> {
  const row = await db.insertInto('terms').values(term).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export async function updateTerm(db: Executor, id: number, changes: TermUpdate): Promise<void> {
  await db.updateTable('terms').set(changes).where('id', '=', id).execute();
}

/** Listing links go with the term (cascade); children and location children are re-parented to none. */
export async function deleteTerm(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('terms').where('id', '=', id).execute();
}

export async function anyTermExists(db: Executor): Promise<boolean> {
  return (await db.selectFrom('terms').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function findLocationByName(
  db: Executor,
  taxonomy: Taxonomy,
  folded: string,
  parentId: number | null,
): Promise<number | undefined> {
  const row = await db
    .selectFrom('terms')
    .select('id')
    .where('taxonomy', '=', taxonomy)
    .where('sort_key', '=', folded)
    .where('location_parent_id', parentId === null ? 'is' : '=', parentId)
    .orderBy('id')
    .executeTakeFirst();
  return row?.id;
}

export async function slugExists(db: Executor, taxonomy: Taxonomy, slug: string): Promise<boolean> {
  const row = await db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).where('slug', '=', slug).executeTakeFirst();
  return row !== undefined;
}
