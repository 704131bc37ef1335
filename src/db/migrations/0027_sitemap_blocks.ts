import { type Kysely, sql } from 'kysely';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The website's sitemap (docs/site.md, "Search engines") cuts the public listings, agents and agencies into
 * shards of 50,000 ids each (block n: ids n·50,000 … n·50,000 + 49,999), and its index gives each shard the newest
 * `updated_at` of its public records. These partial indexes on (block, updated_at) answer that with one seek per
 * block, and a shard's ETag (its count and newest change) from the block's entries alone: the index of a
 * million listings reads twenty index entries, not a million rows. The condition's column comes last so that
 * SQLite reads both from the index alone (it does not count a partial index's condition as covered). A shard's
 * listings are read from a partial index of their own, in id order with what a URL needs: a range of it holds
 * ~60 bytes a listing, where the table's rows hold kilobytes (descriptions), which halved a shard's read. The block size is written here as a literal
 * because an expression index is used only by a query that spells the same expression (db/sitemap-blocks.ts).
 * The public states are those of docs/api.md 4.2 (`publish`, `sold`); agents are public when `visible`.
 */
export async function up(db: AnyDb): Promise<void> {
  await sql`create index listings_sitemap_block_idx on listings ((id / 50000), updated_at, status) where status in ('publish', 'sold')`.execute(
    db,
  );
  await sql`create index listings_sitemap_idx on listings (id, slug, updated_at, status) where status in ('publish', 'sold')`.execute(db);
  await sql`create index agents_sitemap_block_idx on agents ((id / 50000), updated_at, visible) where visible = 1`.execute(db);
  await sql`create index agencies_sitemap_block_idx on agencies ((id / 50000), updated_at)`.execute(db);
}
