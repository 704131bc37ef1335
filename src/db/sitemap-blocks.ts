import { type RawBuilder, sql } from 'kysely';
import { likelyCondition } from './dialect/index.js';
import type { Executor } from './executor.js';

/**
 * The sitemap's blocks of ids (migration 0027): block n of a table holds ids n·size … n·size + size − 1. The
 * partial indexes on `(id / 50000, updated_at)` serve the index's newest change per block (one seek) and a
 * shard's summary (its block's index entries alone); a shard's records are read by the primary key. Any other
 * block size gives the same answers without those indexes (the tests cut shards of three).
 */
export const SITEMAP_BLOCK_IDS = 50_000;

export type SitemapTable = 'listings' | 'agents' | 'agencies';

/**
 * The public records of each table, spelled as the partial indexes' conditions (literals: a condition with
 * parameters does not prove a partial index usable). NOTE: `publish` and `sold` are PUBLIC_STATES of the
 * properties module (docs/api.md 4.2), which db/ may not import; test/site/sitemap.test.ts holds them equal.
 */
const PUBLIC: Record<SitemapTable, RawBuilder<boolean> | null> = {
  listings: sql<boolean>`status in ('publish', 'sold')`,
  agents: sql<boolean>`visible = 1`,
  agencies: null,
};

export interface BlockRecord {
  id: number;
  slug: string;
  updated_at: string;
}

function blockOf(size: number): RawBuilder<number> {
  if (!Number.isSafeInteger(size) || size < 1) throw new Error(`a sitemap block of ${size} ids`);
  return sql<number>`(id / ${sql.lit(size)})`;
}

/** The public condition as the planner must read it (db/dialect likelyCondition), or null for a table all public. */
function publicOf(db: Executor, table: SitemapTable): RawBuilder<boolean> | null {
  const condition = PUBLIC[table];
  return condition ? likelyCondition(db, condition) : null;
}

function publicIn(db: Executor, table: SitemapTable, size: number, block: number): RawBuilder<boolean> {
  // NOTE: the block as a plain parameter: SQLite seeks no index with `cast(? as integer)`.
  const inBlock = sql<boolean>`${blockOf(size)} = ${block}`;
  const condition = publicOf(db, table);
  return condition ? sql<boolean>`${condition} and ${inBlock}` : inBlock;
}

/** The block of the table's highest id (through the primary key), or null when the table is empty. */
async function lastBlock(db: Executor, table: SitemapTable, size: number): Promise<number | null> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max<number | null>('id').as('id'))
    .executeTakeFirst();
  return row?.id == null ? null : Math.floor(Number(row.id) / size);
}

/**
 * Each block up to the table's highest id that holds public records, with their newest `updated_at`: one seek of
 * the block index per block (twenty for a million listings), whatever the number of records.
 */
export async function newestPerBlock(db: Executor, table: SitemapTable, size: number): Promise<{ block: number; newest: string }[]> {
  const last = await lastBlock(db, table, size);
  const blocks: { block: number; newest: string }[] = [];
  for (let block = 0; last !== null && block <= last; block++) {
    const newest = await newestInBlock(db, table, size, block);
    if (newest !== null) blocks.push({ block, newest });
  }
  return blocks;
}

/** The newest `updated_at` of the block's public records, or null when it has none: one seek of the block's index. */
async function newestInBlock(db: Executor, table: SitemapTable, size: number, block: number): Promise<string | null> {
  const row = await newestInBlockQuery(db, table, size, block).executeTakeFirst();
  return row?.updated_at ?? null;
}

/** As an ordered read of one row rather than max(): SQLite then seeks the block's last entry instead of reading the status index. */
export function newestInBlockQuery(db: Executor, table: SitemapTable, size: number, block: number) {
  return db
    .selectFrom(table)
    .select('updated_at')
    .where(publicIn(db, table, size, block))
    .orderBy('updated_at', 'desc')
    .limit(1);
}

/**
 * How many public records the block holds and their newest change: what a shard's ETag is made of, since every
 * change to a record moves its `updated_at` and every arrival or departure moves the count.
 */
export async function blockSummary(
  db: Executor,
  table: SitemapTable,
  size: number,
  block: number,
): Promise<{ count: number; newest: string | null }> {
  const row = await blockSummaryQuery(db, table, size, block).executeTakeFirstOrThrow();
  return { count: Number(row.count), newest: row.newest ?? null };
}

export function blockSummaryQuery(db: Executor, table: SitemapTable, size: number, block: number) {
  return db
    .selectFrom(table)
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.max<string | null>('updated_at').as('newest')])
    .where(publicIn(db, table, size, block));
}

/**
 * The block's public records after id `after`, in id order, at most `limit`: listings from their sitemap index
 * (id, slug, updated_at of the public ones: a covering range), agents and agencies by the primary key.
 */
export async function blockPage(
  db: Executor,
  table: SitemapTable,
  size: number,
  block: number,
  after: number,
  limit: number,
): Promise<BlockRecord[]> {
  const rows = await blockPageQuery(db, table, size, block, after, limit).execute();
  return rows.map((row) => ({ id: Number(row.id), slug: row.slug, updated_at: row.updated_at }));
}

export function blockPageQuery(db: Executor, table: SitemapTable, size: number, block: number, after: number, limit: number) {
  const lo = Math.max(block * size, after + 1);
  const hi = block * size + size - 1;
  const condition = publicOf(db, table);
  let query = db.selectFrom(table).select(['id', 'slug', 'updated_at']).where('id', '>=', lo).where('id', '<=', hi);
  if (condition) query = query.where(condition);
  return query.orderBy('id').limit(limit);
}
