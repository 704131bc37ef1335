import type { Kysely } from 'kysely';
import {
  countTermsOfLoadedLinks,
  inMarkedTransaction,
  insertRows,
  liveBatchSize,
  recordNewListings,
  reserveIds,
  type SetAside,
  setAsideForLoad,
  settleAfterLoad,
  tidyBetweenTransactions,
  withBulkSettings,
} from '../../../db/dialect/bulk-load.js';
import { renewCacheStamps } from '../../../db/cache-versions.js';
import { fillGeoCells } from '../../../db/dialect/ddl/geo-cell-triggers.js';
import type { Executor } from '../../../db/executor.js';
import type { DB, Taxonomy } from '../../../db/schema/index.js';
import { isSlugTaken } from '../properties.repository.js';

/** The SQL of the bulk write path (listing-bulk-writer.service.ts). */

/**
 * Every table a bulk write fills, media's and reviews' through their modules (BulkCompanions) among them: what
 * fresh mode sets aside (triggers, secondary indexes) for the whole load, and settles after it.
 */
const LOADED_TABLES = ['listings', 'listing_terms', 'listing_agents', 'media', 'reviews', 'listing_transitions'] as const;

export async function hasListings(db: Executor): Promise<boolean> {
  return (await db.selectFrom('listings').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** Every term's taxonomy, by id: what links are checked against. */
export async function termTaxonomies(db: Executor, ids?: readonly number[]): Promise<Map<number, Taxonomy>> {
  if (ids?.length === 0) return new Map();
  let query = db.selectFrom('terms').select(['id', 'taxonomy']);
  if (ids) query = query.where('id', 'in', ids);
  const rows = await query.execute();
  return new Map(rows.map((row) => [row.id, row.taxonomy]));
}

/** Which of `ids` are rows of `table`. */
export async function existingIds(db: Executor, table: 'users' | 'agents' | 'agencies', ids: readonly number[]): Promise<Set<number>> {
  const found = new Set<number>();
  for (let start = 0; start < ids.length; start += 10_000) {
    const slice = ids.slice(start, start + 10_000);
    for (const row of await db.selectFrom(table).select('id').where('id', 'in', slice).execute()) found.add(row.id);
  }
  return found;
}

/** Which of `slugs` listings hold already, or held before (a former slug keeps leading to its listing). */
export async function takenSlugs(db: Executor, slugs: readonly string[]): Promise<Set<string>> {
  const taken = new Set<string>();
  for (let start = 0; start < slugs.length; start += 10_000) {
    const slice = slugs.slice(start, start + 10_000);
    for (const row of await db.selectFrom('listings').select('slug').where('slug', 'in', slice).execute()) taken.add(row.slug);
    for (const row of await db.selectFrom('listing_slug_history').select('slug').where('slug', 'in', slice).execute()) taken.add(row.slug);
  }
  return taken;
}

export async function slugTaken(db: Executor, slug: string): Promise<boolean> {
  return isSlugTaken(db, slug);
}

/** Runs a bulk write with the connection set for its mode (SQLite: a wide page cache), set back afterwards. */
export function withBulkConnection<T>(db: Kysely<DB>, mode: 'fresh' | 'live', write: () => Promise<T>): Promise<T> {
  return withBulkSettings(db, mode, write);
}

/** Listings per live transaction on this database. */
export function liveTransactionSize(db: Kysely<DB>): number {
  return liveBatchSize(db);
}

/** Between live transactions: the rows the triggers update once per written row (term counts, stamps) tidied. */
export function tidyHotRows(db: Kysely<DB>): Promise<void> {
  return tidyBetweenTransactions(db, ['terms', 'cache_versions']);
}

/**
 * One live transaction's work in `trx`, marked for the SQLite change log: a listing's links and agents
 * written after its row record no change of their own (db/dialect/ddl/change-log-once-per-bulk-transaction.ts).
 */
export function inLiveTransaction<T>(trx: Executor, write: () => Promise<T>): Promise<T> {
  return inMarkedTransaction(trx, write);
}

export function reserveListingIds(trx: Executor, count: number): Promise<number[]> {
  return reserveIds(trx, 'listings', count);
}

// Each of this module's tables by name (a literal, so that the architecture test sees who writes it); media's
// and reviews' rows are written by their modules (BulkCompanions).
export function insertListingRows(trx: Executor, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  return insertRows(trx, 'listings', columns, rows);
}

export function insertTermLinkRows(trx: Executor, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  return insertRows(trx, 'listing_terms', columns, rows);
}

export function insertAgentLinkRows(trx: Executor, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  return insertRows(trx, 'listing_agents', columns, rows);
}

export function insertTransitionRows(trx: Executor, columns: readonly string[], rows: readonly unknown[][]): Promise<void> {
  return insertRows(trx, 'listing_transitions', columns, rows);
}

/** Fresh mode: the loaded tables' triggers, secondary indexes and keys set aside until `restore`, in `trx`. */
export function setAsideLoadedTables(trx: Executor): Promise<SetAside> {
  return setAsideForLoad(trx, LOADED_TABLES);
}

/**
 * What the set-aside triggers do row by row for new listings (db/dialect/ddl/), done set-wise over every
 * listing present (fresh mode: all of them are new). The copies on term links are written with the links.
 * - term-triggers.ts: a term's count moves by one for each link of a published listing (`countTermsOfLoadedLinks`);
 * - geo-cell-triggers.ts: `fillGeoCells` counts every listing's cells anew;
 * - listing-triggers.ts, directory-triggers.ts: the `listings` stamp (listings, links, agents, gallery) and
 *   the `reviews` stamp (reviews) are renewed. The `terms` stamp follows the counts by its own trigger.
 * - change-log.ts: each listing is recorded once as changed (`recordNewListings`).
 */
export async function redoTriggerWork(trx: Executor, stamps: readonly string[]): Promise<void> {
  await countTermsOfLoadedLinks(trx);
  await fillGeoCells(trx as Kysely<DB>);
  await recordNewListings(trx);
  await renewCacheStamps(trx, stamps);
}

/** After a fresh load committed (PostgreSQL: vacuum and statistics of the loaded tables). */
export function settleLoadedTables(db: Kysely<DB>): Promise<void> {
  return settleAfterLoad(db, LOADED_TABLES);
}
