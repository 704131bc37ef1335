import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { changeLogHead, pruneChangeLog, readChangesAfter } from '../../src/db/change-log.js';
import { createDatabase } from '../../src/db/database.js';
import { recordNewListings } from '../../src/db/dialect/bulk-load.js';
import type { DB } from '../../src/db/schema/index.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { insertTermRow, newAgency, newAgent, newListing, unique } from '../helpers/factories.js';
import { gate } from '../helpers/gate.js';
import { until } from '../helpers/until.js';

describeEachDialect('change log (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  const changesAfter = async (seq: number) => (await readChangesAfter(db, seq, 10_000)).map((c) => [c.entity, c.entityId, c.seq]);
  const newTermRow = () => insertTermRow(db, 'property_type', unique('type-'));

  it('records each change to a listing, its terms and agents, a term, an agent’s agency and an agency, numbered in order', async () => {
    const start = await changeLogHead(db);
    const agencyId = await newAgency(db);
    const agentId = await newAgent(db);
    const termId = await newTermRow();
    const listingId = await newListing(db, { terms: [{ termId, taxonomy: 'property_type' }] });
    await db.insertInto('listing_agents').values({ listing_id: listingId, agent_id: agentId, position: 0 }).execute();
    await db.updateTable('listings').set({ title: 'Renamed' }).where('id', '=', listingId).execute();
    await db.updateTable('agents').set({ agency_id: agencyId }).where('id', '=', agentId).execute();
    await db.updateTable('terms').set({ name: 'Renamed type' }).where('id', '=', termId).execute();
    await db.deleteFrom('listings').where('id', '=', listingId).execute(); // its links go with it (cascade)

    const changes = await changesAfter(start);
    expect(changes.map(([entity, id]) => [entity, id])).toEqual([
      ['agency', agencyId],
      ['agent', agentId],
      ['term', termId],
      ['listing', listingId], // the row
      ['listing', listingId], // its term link
      ['listing', listingId], // its agent
      ['listing', listingId], // renamed
      ['agent', agentId], // moved to the agency
      ['term', termId], // renamed
      ['listing', listingId], // the row deleted, then its links
      ['listing', listingId],
      ['listing', listingId],
    ]);
    expect(changes.map(([, , seq]) => seq)).toEqual(changes.map((_, i) => start + 1 + i));
    expect(await changeLogHead(db)).toBe(start + changes.length);
  });

  it('leaves out what no follower reads: view counts, term counts; records an agent’s profile (migration 0038)', async () => {
    const termId = await newTermRow();
    const listingId = await newListing(db, { terms: [{ termId, taxonomy: 'property_type' }] });
    const agentId = await newAgent(db);
    const start = await changeLogHead(db);
    await db.updateTable('listings').set({ views: 42 }).where('id', '=', listingId).execute();
    await db.updateTable('terms').set({ count: 7 }).where('id', '=', termId).execute();
    expect(await changesAfter(start)).toEqual([]);
    // Outbound webhooks' agent.updated follows every change of an agent's record, not only its agency.
    await db.updateTable('agents').set({ phone: '+1 555 0100' }).where('id', '=', agentId).execute();
    expect(await changesAfter(start)).toEqual([['agent', agentId, start + 1]]);
  });

  it('records nothing for a transaction rolled back, and leaves no gap in the numbers', async () => {
    const listingId = await newListing(db);
    const start = await changeLogHead(db);
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('listings').set({ title: 'Never' }).where('id', '=', listingId).execute();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await db.updateTable('listings').set({ title: 'Kept' }).where('id', '=', listingId).execute();
    expect(await changesAfter(start)).toEqual([['listing', listingId, start + 1]]);
  });

  it('prunes changes older than a time but keeps the last one, so that the head stays', async () => {
    const listingId = await newListing(db);
    await db.updateTable('listings').set({ title: 'Pruned soon' }).where('id', '=', listingId).execute();
    const head = await changeLogHead(db);
    expect(await pruneChangeLog(db, '2000-01-01T00:00:00.000Z')).toBe(0);
    expect(await pruneChangeLog(db, '2999-01-01T00:00:00.000Z')).toBeGreaterThan(0);
    expect(await changesAfter(0)).toEqual([['listing', listingId, head]]);
    expect(await changeLogHead(db)).toBe(head);
    await db.updateTable('listings').set({ title: 'After the prune' }).where('id', '=', listingId).execute();
    expect(await changesAfter(head)).toEqual([['listing', listingId, head + 1]]);
  });

  it.runIf(dialect === 'postgres')(
    'numbers a change that commits late after those committed before it, so a follower at their number still finds it',
    async () => {
      const [early, late] = [await newListing(db), await newListing(db)];
      const start = await changeLogHead(db);
      const other = createDatabase({ kind: 'postgres', url: database.url! });
      try {
        const written = gate();
        const goOn = gate();
        // The first transaction writes first and commits last.
        const slow = db.transaction().execute(async (trx) => {
          await trx.updateTable('listings').set({ title: 'Written first' }).where('id', '=', early).execute();
          written.release();
          await goOn.wait;
        });
        await written.wait;
        await other.db.updateTable('listings').set({ title: 'Committed first' }).where('id', '=', late).execute();

        const seen = await changesAfter(start);
        expect(seen).toEqual([['listing', late, start + 1]]);
        goOn.release();
        await slow;
        // A follower that applied everything up to what it saw asks for what comes after: the late commit is there.
        expect(await changesAfter(start + 1)).toEqual([['listing', early, start + 2]]);
        const pending = await db
          .selectFrom('change_log_pending' as never)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirst();
        expect(Number((pending as { n: unknown }).n)).toBe(0);
      } finally {
        await other.destroy();
      }
    },
  );

  it.runIf(dialect === 'postgres')(
    'numbers a fresh load’s listings as it records them, and a write committing meanwhile waits and comes after them',
    async () => {
      const late = await newListing(db);
      const start = await changeLogHead(db);
      const { rows } = await sql<{ id: number }>`select id from listings order by id`.execute(db);
      const other = createDatabase({ kind: 'postgres', url: database.url! });
      try {
        const recorded = gate();
        const goOn = gate();
        // As a fresh bulk load ends (bulk-load.ts): its listings recorded, then a stamp renewed, then commit.
        const load = db.transaction().execute(async (trx) => {
          await recordNewListings(trx);
          recorded.release();
          await goOn.wait;
          await trx
            .updateTable('cache_versions')
            .set({ version: unique('v') })
            .where('name', '=', 'listings')
            .execute();
        });
        await recorded.wait;
        // Its commit numbers its change and renews the listings stamp: it must wait for the load's commit.
        const write = other.db.updateTable('listings').set({ title: 'Committed meanwhile' }).where('id', '=', late).execute();
        await waitForLockWaiter(db);
        expect(await changesAfter(start)).toEqual([]);
        goOn.release();
        await Promise.all([load, write]);
        expect(await changesAfter(start)).toEqual([
          ...rows.map(({ id }, n) => ['listing', id, start + 1 + n]),
          ['listing', late, start + rows.length + 1],
        ]);
      } finally {
        await other.destroy();
      }
    },
  );
});

/** Resolves once some session of this database waits for a lock held by another. */
async function waitForLockWaiter(db: Kysely<DB>): Promise<void> {
  await until(async () => {
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(db);
    return rows[0]!.n > 0;
  });
}
