import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser } from '../helpers/factories.js';
import { API, csvFeed, drainImports, importJob, tempDataDir } from './import-runs-helpers.js';
import { until } from '../helpers/until.js';

const MINUTE_MS = 60_000;

/**
 * A feed server: `/feeds/*.csv` answer a small CSV feed; `/slow.csv` sends its first line and holds the rest until
 * released (an import caught mid-download).
 */
async function partnerServer() {
  const hits: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const server = http.createServer((request, response) => {
    const url = request.url ?? '';
    hits.push(url);
    const path = url.split('?')[0] ?? '';
    if (path === '/slow.csv') {
      response.write('key,title,price,status\n');
      void released.then(() => response.end('Z1,Slow house,1000,publish\n'));
      return;
    }
    if (!path.startsWith('/feeds/')) {
      response.statusCode = 404;
      return response.end();
    }
    response.end(csvFeed(path.slice('/feeds/'.length, '/feeds/'.length + 1).toUpperCase()));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, release, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeEachDialect('feed sources (%s)', (dialect) => {
  const data = tempDataDir();
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let server: Awaited<ReturnType<typeof partnerServer>>;

  beforeAll(async () => {
    server = await partnerServer();
    t = await buildTestApp(dialect, { DATA_DIR: data.dir, IMPORT_ALLOWED_HOSTS: '127.0.0.1' });
    db = t.database.db;
    admin = (await newSignedInUser(t, { role: 'administrator' })).auth;
  });
  afterAll(async () => {
    server.release();
    await t.close();
    await server.close();
    data.remove();
  });

  /** Runs the job at `now` until the queue is empty. */
  const drain = (now = new Date()) => drainImports(t, now);
  const request = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({ method, url: `${API}${url}`, headers: admin, ...(payload === undefined ? {} : { payload }) });
  async function newSource(name: string, extra: object = {}) {
    const res = await request('POST', '/imports/sources', {
      name,
      url: `${server.base}/feeds/${name}.csv?key=t0ken`,
      format: 'csv',
      interval_minutes: 60,
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number; name: string; next_pull_at: string };
  }
  const runsOf = (sourceId: number) =>
    db
      .selectFrom('import_runs')
      .select(['id', 'state', 'error', 'feed_source_id'])
      .where('feed_source_id', '=', sourceId)
      .orderBy('id')
      .execute();

  it('adds a source due at once; the job queues it under its name and runs it', async () => {
    const before = Date.now();
    const res = await request('POST', '/imports/sources', {
      name: ' <b>alpha</b> ',
      url: `${server.base}/feeds/alpha.csv?key=t0ken`,
      format: 'csv',
      interval_minutes: 60,
      withdraw_missing: true,
    });
    expect(res.statusCode, res.body).toBe(201);
    const source = res.json().data;
    expect(res.json().message).toBe('The feed source was added: its first import is queued within seconds.');
    expect(source).toMatchObject({
      name: 'alpha',
      url: `${server.base}/feeds/alpha.csv?key=t0ken`,
      format: 'csv',
      interval_minutes: 60,
      withdraw_missing: true,
      paused: false,
      last_run: null,
    });
    expect(Date.parse(source.next_pull_at)).toBeLessThanOrEqual(Date.now());

    await drain();
    const [run] = await runsOf(source.id);
    const record = (await request('GET', `/imports/${run!.id}`)).json().data;
    expect(record).toMatchObject({
      state: 'done',
      source: 'alpha',
      feed_source_id: source.id,
      withdraw_missing: true,
      url: `${server.base}/feeds/alpha.csv`,
      counts: { created: 2, rejected: 1 },
    });
    expect(server.hits).toContain('/feeds/alpha.csv?key=t0ken');

    const listed = (await request('GET', '/imports/sources')).json().data;
    const shown = listed.sources.find((item: { id: number }) => item.id === source.id);
    expect(shown.last_run).toMatchObject({ id: run!.id, state: 'done' });
    expect(Date.parse(shown.next_pull_at)).toBeGreaterThanOrEqual(before + 60 * MINUTE_MS - 1000);
    expect(listed.total_sources).toBe(listed.sources.length);
    // Not due again before its interval.
    await drain();
    expect(await runsOf(source.id)).toHaveLength(1);
  });

  it('pulls again once due, and not while paused; resuming queues a pull that fell due meanwhile', async () => {
    const source = await newSource('bravo');
    await drain();
    expect(await runsOf(source.id)).toHaveLength(1);
    const paused = await request('PATCH', `/imports/sources/${source.id}`, { paused: true });
    expect(paused.statusCode, paused.body).toBe(200);
    expect(paused.json().data.paused).toBe(true);
    const later = new Date(Date.now() + 3 * 60 * MINUTE_MS);
    await drain(later);
    expect(await runsOf(source.id)).toHaveLength(1);
    const resumed = await request('PATCH', `/imports/sources/${source.id}`, { paused: false });
    expect(resumed.json().data.paused).toBe(false);
    await drain(later);
    const runs = await runsOf(source.id);
    expect(runs.map((run) => run.state)).toEqual(['done', 'done']);
    // The second pull found the same feed: nothing changed.
    const second = (await request('GET', `/imports/${runs[1]!.id}`)).json().data;
    expect(second.counts).toMatchObject({ created: 0, unchanged: 2, rejected: 1 });
  });

  it('does not queue a source again while its last import is still queued', async () => {
    const source = await newSource('charlie', { interval_minutes: 15 });
    expect(await t.services.feedSources.queueDue(new Date())).toBe(1);
    expect(await t.services.feedSources.queueDue(new Date(Date.now() + 20 * MINUTE_MS))).toBe(0);
    expect(await runsOf(source.id)).toHaveLength(1);
    await drain();
    expect((await runsOf(source.id)).map((run) => run.state)).toEqual(['done']);
  });

  it('changes a source: a shorter interval brings the next pull forward, a new URL is checked', async () => {
    const source = await newSource('delta', { interval_minutes: 10_080 });
    await drain();
    const res = await request('PATCH', `/imports/sources/${source.id}`, {
      interval_minutes: 30,
      url: `${server.base}/feeds/delta2.csv`,
      withdraw_missing: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const changed = res.json().data;
    expect(changed).toMatchObject({ interval_minutes: 30, url: `${server.base}/feeds/delta2.csv`, withdraw_missing: true });
    expect(Date.parse(changed.next_pull_at)).toBeLessThanOrEqual(Date.now() + 30 * MINUTE_MS);
  });

  it('deletes a source: its queued import fails, its past imports stay', async () => {
    const source = await newSource('echo');
    await drain();
    await t.services.feedSources.queueDue(new Date(Date.now() + 2 * 60 * MINUTE_MS));
    const [done, waiting] = await runsOf(source.id);
    const res = await request('DELETE', `/imports/sources/${source.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ id: source.id, deleted: true });
    const after = (await request('GET', `/imports/${waiting!.id}`)).json().data;
    expect(after).toMatchObject({ state: 'failed', error: 'its feed source was deleted before it ran', feed_source_id: null });
    expect((await request('GET', `/imports/${done!.id}`)).json().data).toMatchObject({ state: 'done', source: 'echo' });
    expect((await request('DELETE', `/imports/sources/${source.id}`)).statusCode).toBe(404);
    expect((await request('PATCH', `/imports/sources/${source.id}`, { paused: true })).statusCode).toBe(404);
    const listed = (await request('GET', '/imports/sources')).json().data.sources;
    expect(listed.map((item: { id: number }) => item.id)).not.toContain(source.id);
  });

  it('refuses bad input with 400 naming the field, and a taken name with 409', async () => {
    const valid = { name: 'foxtrot', url: `${server.base}/feeds/foxtrot.csv`, format: 'csv', interval_minutes: 60 };
    const cases: [object, string][] = [
      [{ ...valid, interval_minutes: 14 }, 'interval_minutes'],
      [{ ...valid, interval_minutes: 10_081 }, 'interval_minutes'],
      [{ ...valid, url: 'ftp://feeds.example/a.csv' }, 'url'],
      [{ ...valid, url: 'javascript:alert(1)' }, 'url'],
      [{ ...valid, url: 'nonsense' }, 'url'],
      [{ ...valid, format: 'xml' }, 'format'],
      [{ ...valid, name: '<i></i>' }, 'name'],
      [{ ...valid, name: '' }, 'name'],
      [{ ...valid, paused: true }, 'paused'],
    ];
    for (const [payload, field] of cases) {
      const res = await request('POST', '/imports/sources', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    const source = await newSource('foxtrot');
    const taken = await request('POST', '/imports/sources', { ...valid, name: 'foxtrot' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'conflict', message: expect.stringContaining('exists already') });
    for (const [payload, field] of [
      [{ interval_minutes: 5 }, 'interval_minutes'],
      [{ url: 'ftp://feeds.example/a.csv' }, 'url'],
      [{ name: 'renamed' }, 'name'],
      [{ paused: 'yes' }, 'paused'],
    ] as const) {
      const res = await request('PATCH', `/imports/sources/${source.id}`, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().errors.map((error: { field: string }) => error.field)).toContain(field);
    }
    expect((await request('PATCH', `/imports/sources/${source.id}`, {})).statusCode).toBe(400);
  });

  it('puts a running import back in the queue when the process shuts down, and runs it after', async () => {
    await drain(); // what earlier tests queued goes first
    const res = await request('POST', '/imports', { url: `${server.base}/slow.csv`, format: 'csv', source: 'slow' });
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.id as number;
    const tick = importJob(t).run(new Date());
    await until(() => server.hits.includes('/slow.csv'));
    await t.services.importRunner.stop();
    await tick;
    expect((await request('GET', `/imports/${id}`)).json().data).toMatchObject({ state: 'queued', attempts: 1, finished_at: null });
    expect(data.imports()).toEqual([]);
    server.release();
    await drain();
    expect((await request('GET', `/imports/${id}`)).json().data).toMatchObject({ state: 'done', attempts: 2, counts: { created: 1 } });
  });
});
