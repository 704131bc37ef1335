import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDatabase, migrateToLatest } from '../../src/db/database.js';
import type { DialectName } from '../../src/db/dialect/index.js';
import type { DB } from '../../src/db/schema/index.js';
import { createTestDatabase, describeEachDialect } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';
import { startProgram } from '../helpers/programs.js';

/**
 * docs/data-exchange.md "Crashes": an import process killed (SIGKILL) after some of its transactions committed
 * leaves whole listings only, each with its source row; running the same import again gives exactly the feed's
 * listings, each once. The feed spans several transactions of the live bulk path (5,000 listings on SQLite,
 * 100 on PostgreSQL), and the kill comes as soon as the first one is visible.
 */

const COUNT = { sqlite: 11_000, postgres: 1_500 } as const;
const TIMEOUT = 120_000;

describeEachDialect('an import killed midway (%s)', (dialect) => {
  let dir: string;
  let db: Kysely<DB>;
  let databaseUrl: string;
  let dispose: () => Promise<void>;
  const count = COUNT[dialect];

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-import-crash-'));
    if (dialect === 'sqlite') {
      const file = path.join(dir, 'realty.sqlite');
      const database = createDatabase({ kind: 'sqlite', path: file });
      await migrateToLatest(database.db);
      ({ db } = database);
      databaseUrl = `sqlite:${file}`;
      dispose = () => database.destroy();
    } else {
      const database = await createTestDatabase(dialect as DialectName);
      ({ db } = database);
      databaseUrl = database.url!;
      dispose = () => database.dispose();
    }
    await newUser(db, { role: 'administrator' });
    const rows = Array.from({ length: count }, (_, n) => `K${n},Listing number ${n},${1000 + n},Flat,Town ${n % 7}`);
    fs.writeFileSync(path.join(dir, 'feed.csv'), ['key,title,price,types,city', ...rows].join('\n'));
  });
  afterAll(async () => {
    await dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const startImport = () =>
    startProgram('main.mjs', ['import', 'feed.csv', '--format', 'csv'], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, DATA_DIR: dir },
    });

  const counts = async () => {
    const [listings, sources, keys] = await Promise.all([
      db
        .selectFrom('listings')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('listing_sources')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow(),
      db
        .selectFrom('listing_sources')
        .select((eb) => eb.fn.count<number>('source_key').distinct().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return { listings: Number(listings.n), sources: Number(sources.n), keys: Number(keys.n) };
  };

  it(
    'leaves whole listings with their source rows, and a second run finishes the feed exactly',
    async () => {
      const child = startImport();
      let output = '';
      child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      // Killed as soon as the first transaction is visible.
      for (;;) {
        if ((await counts()).listings > 0) {
          child.kill('SIGKILL');
          break;
        }
        const exitCode = await Promise.race([exited, new Promise<undefined>((resolve) => setTimeout(resolve, 10))]);
        if (exitCode !== undefined) throw new Error(`the import ended before it could be killed (${exitCode}): ${output}`);
      }
      await exited;
      const afterKill = await counts();
      expect(afterKill.listings, 'the kill came before the import finished').toBeLessThan(count);
      // Whole transactions only: every listing written has its source row, and no key twice.
      expect(afterKill.sources).toBe(afterKill.listings);
      expect(afterKill.keys).toBe(afterKill.listings);

      const again = startImport();
      let summary = '';
      again.stdout.on('data', (chunk: Buffer) => (summary += chunk.toString()));
      again.stderr.on('data', (chunk: Buffer) => (summary += chunk.toString()));
      const code = await new Promise<number | null>((resolve) => again.on('exit', resolve));
      expect(code, summary).toBe(0);
      expect(summary).toContain(
        `${count - afterKill.listings} created, 0 updated, ${afterKill.listings} unchanged, 0 withdrawn, 0 rejected`,
      );
      expect(await counts()).toEqual({ listings: count, sources: count, keys: count });
      const orphans = await db
        .selectFrom('listings')
        .leftJoin('listing_sources', 'listing_sources.listing_id', 'listings.id')
        .select('listings.id')
        .where('listing_sources.listing_id', 'is', null)
        .execute();
      expect(orphans).toEqual([]);
    },
    TIMEOUT,
  );
});
