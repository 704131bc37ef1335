import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { MAX_ATTEMPTS } from '../../src/modules/exchange/import-runs/import-runner.service.js';
import { buildPeerApp, buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser, unique } from '../helpers/factories.js';
import {
  csvFeed,
  csvPart,
  drainImports,
  importJob,
  postUpload,
  tempDataDir,
  importRunOf,
  sourceListingCount,
} from './import-runs-helpers.js';

/**
 * The `feed-imports` job across processes: one import runs once however many job runs take it at once, a run whose
 * process died is taken again, one running elsewhere is left alone, and an upload runs only where its file is.
 */
describeEachDialect('import runs across processes (%s)', (dialect) => {
  const data = tempDataDir();
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { DATA_DIR: data.dir });
    db = t.database.db;
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
  });
  afterAll(async () => {
    await t.close();
    data.remove();
  });

  const runJob = (now = new Date()) => importJob(t).run(now);
  /** Runs the job until the queue is empty (each run takes one import). */
  const drain = (now = new Date()) => drainImports(t, now);
  const getRun = (id: number) => importRunOf(t, admin, id);
  const listingsOf = (source: string) => sourceListingCount(t, source);
  /** Uploads a CSV feed under a new source name: the run's id and the source. */
  const queueUpload = async (prefix: string) => {
    const source = unique(`${prefix}-`);
    const res = await postUpload(t, admin, [
      ['format', 'csv'],
      ['source', source],
      ['file', csvPart(csvFeed(prefix.slice(0, 1).toUpperCase()))],
    ]);
    expect(res.statusCode, res.body).toBe(202);
    return { id: res.json().data.id as number, source };
  };

  it('runs a queued import once when two job runs, in this process and another, take it at the same time', async () => {
    const { id, source } = await queueUpload('race');
    const peer = await buildPeerApp(t);
    try {
      await Promise.all([runJob(), runJob(), importJob(peer).run(new Date())]);
      await Promise.all([t.services.importRunner.idle(), peer.services.importRunner.idle()]);
    } finally {
      await peer.close();
    }
    expect(await getRun(id)).toMatchObject({ state: 'done', attempts: 1, counts: { read: 3, created: 2, unchanged: 0, rejected: 1 } });
    expect(await listingsOf(source)).toBe(2);
  });

  it('takes again a run whose process stopped beating, and fails one that stopped every time', async () => {
    const { id, source } = await queueUpload('stale');
    const longAgo = new Date(Date.now() - 10 * 60_000).toISOString();
    // As a process that died mid-run leaves it: running, claimed, its heartbeat old.
    await db
      .updateTable('import_runs')
      .set({ state: 'running', claim: 'dead', attempts: 1, started_at: longAgo, heartbeat_at: longAgo })
      .where('id', '=', id)
      .execute();
    await drain();
    expect(await getRun(id)).toMatchObject({ state: 'done', attempts: 2, counts: { created: 2, rejected: 1 } });
    expect(await listingsOf(source)).toBe(2);

    const doomed = (await queueUpload('doomed')).id;
    await db
      .updateTable('import_runs')
      .set({ state: 'running', claim: 'dead', attempts: MAX_ATTEMPTS, heartbeat_at: longAgo })
      .where('id', '=', doomed)
      .execute();
    await drain();
    expect(await getRun(doomed)).toMatchObject({ state: 'failed', error: `its process stopped during each of ${MAX_ATTEMPTS} attempts` });
    expect(data.imports()).toEqual([]);
  });

  it('leaves a run that another process runs alone, and starts nothing beside it', async () => {
    const busy = (await queueUpload('busy')).id;
    const waiting = (await queueUpload('wait')).id;
    await db
      .updateTable('import_runs')
      .set({ state: 'running', claim: 'elsewhere', heartbeat_at: new Date().toISOString() })
      .where('id', '=', busy)
      .execute();
    expect(await runJob()).toBeUndefined();
    expect((await getRun(busy)).state).toBe('running');
    expect((await getRun(waiting)).state).toBe('queued');
    // Its process stops beating; then the run is taken again, and the queue moves on.
    await db
      .updateTable('import_runs')
      .set({ heartbeat_at: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('id', '=', busy)
      .execute();
    await drain();
    expect((await getRun(busy)).state).toBe('done');
    expect((await getRun(waiting)).state).toBe('done');
  });

  it('passes by an upload whose file is on another machine’s disk, and runs what is behind it', async () => {
    const elsewhere = (await queueUpload('away')).id;
    // As a process of another machine sees it: the row is shared, the file is not.
    const [key] = data.imports();
    fs.renameSync(path.join(data.dir, 'imports', key!), path.join(data.dir, 'away'));
    const behind = (await queueUpload('here')).id;
    await drain();
    expect((await getRun(behind)).state).toBe('done');
    expect((await getRun(elsewhere)).state).toBe('queued');
    // Back on this disk (DATA_DIR shared, or the job of the machine that received it): it runs.
    fs.renameSync(path.join(data.dir, 'away'), path.join(data.dir, 'imports', key!));
    await drain();
    expect(await getRun(elsewhere)).toMatchObject({ state: 'done', counts: { created: 2 } });
  });
});
