import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { blockPageQuery, blockSummaryQuery, newestInBlockQuery, SITEMAP_BLOCK_IDS } from '../../src/db/sitemap-blocks.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newAgency, newAgent, newListing } from '../helpers/factories.js';
import { planOf } from '../search/search-storage-fixtures.js';

/**
 * The sitemap index reads one entry of a block index per block, and a shard's summary its block's entries only
 * (migration 0025): the plans of both reads name the index on every table, on both databases; a listing shard's
 * pages read their own covering index in id order.
 */
describeEachDialect('the sitemap’s block reads (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    for (let n = 0; n < 50; n++) await newListing(db, { status: n % 3 === 0 ? 'draft' : 'publish' });
    await newAgent(db);
    await newAgency(db);
  });
  afterAll(() => database?.dispose());

  it.each([
    ['listings', 'listings_sitemap_block_idx'],
    ['agents', 'agents_sitemap_block_idx'],
    ['agencies', 'agencies_sitemap_block_idx'],
  ] as const)('reads %s through %s', async (table, index) => {
    expect(await planOf(db, newestInBlockQuery(db, table, SITEMAP_BLOCK_IDS, 0))).toContain(index);
    expect(await planOf(db, blockSummaryQuery(db, table, SITEMAP_BLOCK_IDS, 0))).toContain(index);
  });

  it('reads a page of a listing shard from listings_sitemap_idx, in id order', async () => {
    const plan = await planOf(db, blockPageQuery(db, 'listings', SITEMAP_BLOCK_IDS, 0, 10, 2_000));
    expect(plan).toContain('listings_sitemap_idx');
    expect(plan).not.toMatch(/TEMP B-TREE|Sort/);
  });
});
