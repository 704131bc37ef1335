import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDatabase, type Database } from '../../src/db/database.js';

/**
 * A serving process's SQLite file is checkpointed on a thread of its own (db/wal-checkpoints.ts): the commits of
 * the serving connection never checkpoint (its automatic checkpoints are off), and the log still reaches the
 * database file. Told apart by SQLite's own settings and the thread's reports, never by time.
 */
describe('checkpoints off the serving thread (sqlite file)', () => {
  const opened: { database: Database; dir: string }[] = [];
  afterEach(async () => {
    for (const { database, dir } of opened.splice(0)) {
      await database.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  function open(checkpointsOffThread: boolean): Database {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-wal-'));
    const database = createDatabase({ kind: 'sqlite', path: path.join(dir, 'test.db') }, { checkpointsOffThread });
    opened.push({ database, dir });
    return database;
  }

  const autocheckpoint = async ({ db }: Database) =>
    (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(db)).rows[0]!.wal_autocheckpoint;

  async function writePages({ db }: Database): Promise<void> {
    await sql`create table filler (id integer primary key, text text not null)`.execute(db);
    for (let batch = 0; batch < 20; batch++) {
      await db.transaction().execute(async (trx) => {
        for (let n = 0; n < 50; n++) await sql`insert into filler (text) values (${'x'.repeat(4000)})`.execute(trx);
      });
    }
  }

  it('turns the connection’s automatic checkpoints off, and the thread copies the log into the file', async () => {
    const database = open(true);
    expect(await autocheckpoint(database)).toBe(0);
    await writePages(database);
    // About 1,000 pages of 4 kB went into the log; SQLite's own checkpoint would have come at the commit past 1,000.
    await vi.waitFor(() => expect(database.walCheckpoints!.framesCheckpointed).toBeGreaterThanOrEqual(1_000), {
      timeout: 20_000,
      interval: 50,
    });
    const { rows } = await sql<{ rows: number }>`select count(*) as rows from filler`.execute(database.db);
    expect(rows[0]!.rows).toBe(1_000);
  });

  it('leaves SQLite’s own checkpoints to a process that does not ask', async () => {
    const database = open(false);
    expect(database.walCheckpoints).toBeUndefined();
    expect(await autocheckpoint(database)).toBe(1_000);
  });
});
