import type { Kysely } from 'kysely';
import type { DB, Taxonomy } from '../../db/schema.js';
import { TAXONOMY_FILTERS, type SearchQuery, type TaxonomyFilter } from './search-types.js';

/** The taxonomy each term parameter of API.md 4.4 names. */
export const TAXONOMY_OF: Record<TaxonomyFilter, Taxonomy> = {
  type: 'property_type',
  status: 'property_status',
  label: 'property_label',
  feature: 'property_feature',
  country: 'property_country',
  state: 'property_state',
  city: 'property_city',
  area: 'property_area',
};

/**
 * A search whose term slugs and ids are resolved to term ids. A parameter none of whose values names a term
 * keeps an empty list: it matches nothing (an unknown city finds no listing; it is not an error, since terms
 * come and go). `feature` needs every value: one unknown feature matches nothing either.
 */
export interface ResolvedSearch {
  query: SearchQuery;
  termIds: Partial<Record<TaxonomyFilter, number[]>>;
  /** The listings of one agent or agency only (GET /agents/{id}/properties, /agencies/{id}/properties). */
  scope?: ListingScope;
}

/** Whose listings a scoped search looks at (API.md 12): an agent's are those naming it, an agency's its own and its agents'. */
export interface ListingScope {
  kind: 'agent' | 'agency';
  id: number;
}

const isId = (value: string) => /^[1-9]\d{0,15}$/.test(value);

/** Resolves the term parameters of a search in one query (by slug, or by id, within each parameter's taxonomy). */
export async function resolveTerms(db: Kysely<DB>, query: SearchQuery, scope?: ListingScope): Promise<ResolvedSearch> {
  const scoped = scope ? { scope } : {};
  const wanted = TAXONOMY_FILTERS.filter((name) => query.terms?.[name]?.length);
  if (wanted.length === 0) return { query, termIds: {}, ...scoped };
  const values = wanted.flatMap((name) => query.terms![name]!);
  const slugs = [...new Set(values.filter((value) => !isId(value)))];
  const ids = [...new Set(values.filter(isId).map(Number))];
  const rows = await db
    .selectFrom('terms')
    .select(['id', 'taxonomy', 'slug'])
    .where(
      'taxonomy',
      'in',
      wanted.map((name) => TAXONOMY_OF[name]),
    )
    .where((eb) => eb.or([...(slugs.length ? [eb('slug', 'in', slugs)] : []), ...(ids.length ? [eb('id', 'in', ids)] : [])]))
    .execute();
  const termIds: ResolvedSearch['termIds'] = {};
  for (const name of wanted) {
    const taxonomy = TAXONOMY_OF[name];
    const found = query.terms![name]!.map(
      (value) => rows.find((row) => row.taxonomy === taxonomy && (isId(value) ? row.id === Number(value) : row.slug === value))?.id,
    );
    const known = [...new Set(found.filter((id): id is number => id !== undefined))];
    // All of the features, or nothing: a missing one empties the list, which matches no listing.
    termIds[name] = name === 'feature' && found.includes(undefined) ? [] : known;
  }
  return { query, termIds, ...scoped };
}
