import type { Executor } from '../../../db/executor.js';
import { type ListingScope, type ResolvedSearch, TAXONOMY_OF } from './search-terms.js';
import { TAXONOMY_FILTERS, type SearchQuery } from './search-types.js';

const isId = (value: string) => /^[1-9]\d{0,15}$/.test(value);

/** Resolves the term parameters of a search in one query (by slug, or by id, within each parameter's taxonomy). */
export async function resolveTerms(db: Executor, query: SearchQuery, scope?: ListingScope): Promise<ResolvedSearch> {
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
