import type { Executor } from '../../../db/executor.js';
import type { ListingState, Taxonomy } from '../../../db/schema/index.js';

export interface SourceRow {
  listingId: number;
  fingerprint: string;
}

/** The listings a source's keys already name, by key. */
export async function findSources(db: Executor, source: string, keys: readonly string[]): Promise<Map<string, SourceRow>> {
  if (keys.length === 0) return new Map();
  const rows = await db
    .selectFrom('listing_sources')
    .select(['source_key', 'listing_id', 'fingerprint'])
    .where('source', '=', source)
    .where('source_key', 'in', keys)
    .execute();
  return new Map(rows.map((row) => [row.source_key, { listingId: row.listing_id, fingerprint: row.fingerprint }]));
}

export async function insertSources(
  trx: Executor,
  rows: readonly { listingId: number; source: string; key: string; fingerprint: string; at: string }[],
): Promise<void> {
  if (rows.length === 0) return;
  await trx
    .insertInto('listing_sources')
    .values(
      rows.map((row) => ({
        listing_id: row.listingId,
        source: row.source,
        source_key: row.key,
        fingerprint: row.fingerprint,
        imported_at: row.at,
      })),
    )
    .execute();
}

export async function updateFingerprint(db: Executor, listingId: number, fingerprint: string, at: string): Promise<void> {
  await db.updateTable('listing_sources').set({ fingerprint, imported_at: at }).where('listing_id', '=', listingId).execute();
}

/** A page of a source's listings in a state a withdrawal moves, after `afterId`, in id order. */
export async function withdrawableListings(
  db: Executor,
  source: string,
  states: readonly ListingState[],
  afterId: number,
  limit: number,
): Promise<{ listingId: number; key: string }[]> {
  const rows = await db
    .selectFrom('listing_sources')
    .innerJoin('listings', 'listings.id', 'listing_sources.listing_id')
    .select(['listing_sources.listing_id', 'listing_sources.source_key'])
    .where('listing_sources.source', '=', source)
    .where('listings.status', 'in', states)
    .where('listing_sources.listing_id', '>', afterId)
    .orderBy('listing_sources.listing_id')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ listingId: row.listing_id, key: row.source_key }));
}

/** Terms of a taxonomy whose folded name or slug is one of `keys`. */
export async function findTermsByName(
  db: Executor,
  taxonomy: Taxonomy,
  sortKeys: readonly string[],
  slugs: readonly string[],
): Promise<{ id: number; sort_key: string; slug: string }[]> {
  if (sortKeys.length === 0) return [];
  return db
    .selectFrom('terms')
    .select(['id', 'sort_key', 'slug'])
    .where('taxonomy', '=', taxonomy)
    .where((eb) => eb.or([eb('sort_key', 'in', sortKeys), eb('slug', 'in', slugs)]))
    .orderBy('id')
    .execute();
}

/** Agents or agencies by e-mail (compared in lower case) or by id. */
export async function findDirectoryRecords(
  db: Executor,
  table: 'agents' | 'agencies',
  emails: readonly string[],
  ids: readonly number[],
): Promise<{ id: number; email: string }[]> {
  if (emails.length === 0 && ids.length === 0) return [];
  return db
    .selectFrom(table)
    .select(['id', 'email'])
    .where((eb) =>
      eb.or([
        ...(emails.length > 0 ? [eb(eb.fn('lower', ['email']), 'in', emails)] : []),
        ...(ids.length > 0 ? [eb('id', 'in', ids)] : []),
      ]),
    )
    .orderBy('id')
    .execute();
}
