import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { EventLoopTurns, SLICE_RECORDS } from '../../src/lib/event-loop-turns.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser } from '../helpers/factories.js';
import { csvPart, drainImports, importRunOf, postUpload, tempDataDir } from './import-runs-helpers.js';

/**
 * An import that updates listings leaves the serving thread free between its records (issue 38): on SQLite every
 * statement runs on this thread, so the import itself hands the event loop back (lib/event-loop-turns.ts). Counted
 * in event-loop turns and in requests answered, never in time: a `setImmediate` ticker notes how many updates the
 * import had made at each turn, and `/health` is asked over and over while it runs.
 */
const LISTINGS = 600; // more than one of the importer's batches of 500 records

function feed(titleSuffix: string, extra: string[] = []): string {
  const rows = Array.from({ length: LISTINGS }, (_, n) => `T${n},House ${n}${titleSuffix},${100_000 + n},publish,Villa,Pool|Garden`);
  return ['key,title,price,status,types,features', ...rows, ...extra].join('\n');
}

describeEachDialect('an import of updates beside requests (%s)', (dialect) => {
  const data = tempDataDir();
  let t: TestApp;
  let admin: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { DATA_DIR: data.dir });
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
  });
  afterAll(async () => {
    await t.close();
    data.remove();
  });

  async function importFeed(text: string) {
    const res = await postUpload(t, admin, [
      ['format', 'csv'],
      ['source', 'turns'],
      ['file', csvPart(text, 'turns.csv')],
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const id: number = res.json().data.id;
    await drainImports(t);
    return importRunOf(t, admin, id);
  }

  it('serves other requests between its updates, and reports the same counts and rejections', async () => {
    expect(await importFeed(feed(''))).toMatchObject({ state: 'done', counts: { created: LISTINGS, rejected: 0 } });

    const updates = vi.spyOn(t.services.properties, 'update');
    let importing = true;
    // The most updates the import made between two turns of the event loop.
    let lastTurn = 0;
    let mostBetweenTurns = 0;
    const tick = () => {
      const made = updates.mock.calls.length;
      mostBetweenTurns = Math.max(mostBetweenTurns, made - lastTurn);
      lastTurn = made;
      if (importing) setImmediate(tick);
    };
    setImmediate(tick);
    // `/health`, asked again at the next turn after each answer (inject alone never waits for one): the updates
    // made by the time of each answer.
    const answeredAt = new Set<number>();
    const health = (async () => {
      while (importing) {
        const res = await t.app.inject({ method: 'GET', url: '/health' });
        expect(res.statusCode).toBe(200);
        answeredAt.add(updates.mock.calls.length);
        await nextTurn();
      }
    })();
    let run;
    let updated: number;
    try {
      run = await importFeed(feed(' (renovated)', ['T-bad,x,100,publish,,']));
    } finally {
      importing = false;
      await health;
      updated = updates.mock.calls.length;
      updates.mockRestore();
    }

    expect(run).toMatchObject({
      state: 'done',
      counts: { read: LISTINGS + 1, created: 0, updated: LISTINGS, unchanged: 0, withdrawn: 0, rejected: 1 },
      rejections: [
        { at: `line ${LISTINGS + 2}`, key: 'T-bad', errors: [{ field: 'title', reason: 'must be at least 3 characters long' }] },
      ],
    });
    expect(updated).toBe(LISTINGS);
    const title = await t.database.db.selectFrom('listings').select('title').where('title', '=', 'House 599 (renovated)').execute();
    expect(title).toHaveLength(1);

    // Without the turns, a batch's 500 updates ran in one go. With them, a turn comes after every SLICE_RECORDS
    // updates at most; two slices may fall between two of the ticker's turns when the import's wait for the
    // next page of the file puts it before the ticker in the loop's queue.
    expect(mostBetweenTurns).toBeLessThanOrEqual(2 * SLICE_RECORDS);
    // `/health` answered all along the import, not only between its batches.
    const answeredMidway = [...answeredAt].filter((made) => made > 0 && made < LISTINGS);
    expect(answeredMidway.length).toBeGreaterThanOrEqual(LISTINGS / (4 * SLICE_RECORDS));
  }, 120_000);

  it('checks a batch’s records between turns too, when nothing is written', async () => {
    const text = feed(' (checked)');
    expect(await importFeed(text)).toMatchObject({ state: 'done', counts: { rejected: 0 } });
    // The batch's check loop asks its EventLoopTurns once per record (import-run.ts); nothing else does
    // when nothing is written. A spy on the class, not a module mock: test files share loaded modules (isolate:
    // false), so a module mocked here may already be loaded unmocked by another file.
    const checks = vi.spyOn(EventLoopTurns.prototype, 'next');
    let importing = true;
    let lastTurn = 0;
    let mostBetweenTurns = 0;
    const tick = () => {
      const made = checks.mock.calls.length;
      mostBetweenTurns = Math.max(mostBetweenTurns, made - lastTurn);
      lastTurn = made;
      if (importing) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      // The same file again: every record is checked and fingerprinted, and found unchanged.
      expect(await importFeed(text)).toMatchObject({ state: 'done', counts: { updated: 0, unchanged: LISTINGS } });
    } finally {
      importing = false;
    }
    const made = checks.mock.calls.length;
    checks.mockRestore();
    expect(made).toBe(LISTINGS);
    // Before, a batch's 500 checks (with their fingerprints and links) ran in one go on either database. The
    // bound leaves room for slices resumed from a read's callback as well as from a turn of their own (above).
    expect(mostBetweenTurns).toBeLessThanOrEqual(4 * SLICE_RECORDS);
  }, 120_000);
});
