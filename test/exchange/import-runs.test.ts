import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser, newUser } from '../helpers/factories.js';
import {
  API,
  csvFeed,
  csvPart,
  drainImports,
  feedServer,
  importJob,
  postUpload,
  tempDataDir,
  importRunOf,
  sourceListingCount,
} from './import-runs-helpers.js';

/**
 * Imports over HTTP (docs/data-exchange.md): POST /imports queues an upload or a URL, the `feed-imports` job runs
 * it, GET /imports/{id} shows how it went. The job's run function is called directly, not through the scheduler.
 */
const MAX_FILE_BYTES = 64 * 1024;

describeEachDialect('imports over HTTP (%s)', (dialect) => {
  const data = tempDataDir();
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let adminId: number;
  let server: Awaited<ReturnType<typeof feedServer>>;

  beforeAll(async () => {
    server = await feedServer(new Map([['/feeds/partner.csv', csvFeed('U')]]));
    t = await buildTestApp(dialect, {
      DATA_DIR: data.dir,
      IMPORT_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
      IMPORT_ALLOWED_HOSTS: '127.0.0.1',
    });
    db = t.database.db;
    const signedIn = await newSignedInUser(t, { role: 'administrator' });
    admin = signedIn.auth;
    adminId = signedIn.user.id;
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    data.remove();
  });

  const runJob = (now = new Date()) => importJob(t).run(now);
  /** Runs the job until the queue is empty (each run takes one import). */
  const drain = (now = new Date()) => drainImports(t, now);
  const getRun = (id: number) => importRunOf(t, admin, id);
  const listingsOf = (source: string) => sourceListingCount(t, source);
  const queued = async (res: { statusCode: number; body: string; json(): { data: { id: number } } }) => {
    expect(res.statusCode, res.body).toBe(202);
    return res.json().data.id;
  };

  it('queues an upload, runs it in the job and reports counts and rejected lines', async () => {
    const res = await postUpload(t, admin, [
      ['format', 'csv'],
      ['file', csvPart(csvFeed('A'), '../../etc/agency-feed.csv')],
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const body = res.json();
    expect(body.message).toBe('The import is queued: its record shows its progress.');
    expect(body.data).toMatchObject({
      state: 'queued',
      format: 'csv',
      source: 'agency-feed',
      dry_run: false,
      withdraw_missing: false,
      url: null,
      file_name: 'agency-feed.csv', // the name only, without the folders a client sent
      created_by: adminId,
      started_at: null,
      counts: { read: 0, created: 0, updated: 0, unchanged: 0, withdrawn: 0, rejected: 0 },
      error: null,
    });
    // Stored under a random name, never the client's.
    expect(data.imports()).toEqual([expect.stringMatching(/^[0-9a-f]{32}\.upload$/)]);

    await runJob();
    await t.services.importRunner.idle();
    const run = await getRun(body.data.id);
    expect(run).toMatchObject({
      state: 'done',
      attempts: 1,
      counts: { read: 3, created: 2, updated: 0, unchanged: 0, withdrawn: 0, rejected: 1 },
      error: null,
      rejections: [{ at: 'line 4', key: 'A3', errors: [{ field: 'title', reason: 'must be at least 3 characters long' }] }],
      rejections_truncated: false,
    });
    expect(run.started_at).toMatch(/Z$/);
    expect(run.finished_at).toMatch(/Z$/);
    expect(await listingsOf('agency-feed')).toBe(2);
    expect(data.imports()).toEqual([]);
    // Nothing more queued: the job has nothing to do.
    expect(await runJob()).toBeUndefined();
  });

  it('keeps the first 1,000 rejected records in the report and says it is cut', async () => {
    const lines = ['key,title,price,status', ...Array.from({ length: 1005 }, (_, n) => `X${n},,100,publish`)];
    const id = await queued(
      await postUpload(t, admin, [
        ['format', 'csv'],
        ['source', 'many-bad'],
        ['file', csvPart(lines.join('\n'))],
      ]),
    );
    await drain();
    const run = await getRun(id);
    expect(run).toMatchObject({ state: 'done', counts: { read: 1005, rejected: 1005 }, rejections_truncated: true });
    expect(run.rejections).toHaveLength(1000);
    expect(run.rejections[999]).toEqual({
      at: 'line 1001',
      key: 'X999',
      errors: [{ field: 'title', reason: 'must be at least 3 characters long' }],
    });
  });

  it('lists the runs newest first with paging and without their reports', async () => {
    const first = await queued(
      await postUpload(t, admin, [
        ['format', 'csv'],
        ['source', 'list-a'],
        ['file', csvPart(csvFeed('L'))],
      ]),
    );
    const second = await queued(
      await postUpload(t, admin, [
        ['format', 'csv'],
        ['source', 'list-b'],
        ['file', csvPart(csvFeed('M'))],
      ]),
    );
    await drain();
    const res = await t.app.inject({ method: 'GET', url: `${API}/imports?per_page=2`, headers: admin });
    expect(res.statusCode).toBe(200);
    const { import_runs, pagination } = res.json().data;
    expect(import_runs.map((run: { id: number }) => run.id)).toEqual([second, first]);
    expect(import_runs[0]).not.toHaveProperty('rejections');
    expect(pagination).toMatchObject({ current_page: 1, per_page: 2, has_next_page: true });
  });

  it('writes nothing in a dry run, and counts what it would write', async () => {
    const id = await queued(
      await postUpload(t, admin, [
        ['file', csvPart(csvFeed('D'), 'dry.csv')],
        ['format', 'csv'],
        ['dry_run', 'true'],
        ['source', 'dry-feed'],
      ]),
    );
    await drain();
    expect(await getRun(id)).toMatchObject({ state: 'done', dry_run: true, source: 'dry-feed', counts: { created: 2, rejected: 1 } });
    expect(await listingsOf('dry-feed')).toBe(0);
  });

  it('downloads a URL through the guard and shows it without its query', async () => {
    const url = `${server.base}/feeds/partner.csv?token=s3cret`;
    const res = await t.app.inject({ method: 'POST', url: `${API}/imports`, headers: admin, payload: { url, format: 'csv' } });
    const id = await queued(res);
    expect(res.json().data).toMatchObject({ url: `${server.base}/feeds/partner.csv`, file_name: null, source: 'partner' });
    expect(res.body).not.toContain('s3cret');
    await drain();
    const run = await getRun(id);
    expect(run).toMatchObject({ state: 'done', counts: { created: 2, rejected: 1 } });
    expect(JSON.stringify(run)).not.toContain('s3cret');
    expect(server.hits).toContain('/feeds/partner.csv?token=s3cret');
    expect(data.imports()).toEqual([]);
  });

  it('runs a WordPress export, which is read twice, from its upload', async () => {
    const site = fs.readFileSync(path.join(import.meta.dirname, '../adapters/feeds/wxr/fixtures/houzez-site.xml'));
    const id = await queued(
      await postUpload(t, admin, [
        ['format', 'wxr'],
        ['file', { data: site, filename: 'export.xml', type: 'text/xml' }],
      ]),
    );
    await drain();
    expect(await getRun(id)).toMatchObject({ state: 'done', format: 'wxr', source: 'export', counts: { created: 2, rejected: 0 } });
    expect(await listingsOf('export')).toBe(2);
    expect(data.imports()).toEqual([]);
  });

  it('fails a run whose feed cannot be read, with the reader’s words', async () => {
    const id = await queued(
      await postUpload(t, admin, [
        ['format', 'kyero'],
        ['file', csvPart('<root><kyero>', 'broken.xml')],
      ]),
    );
    await drain();
    const run = await getRun(id);
    expect(run.state).toBe('failed');
    expect(run.error).toMatch(/^the file cannot be read as kyero: .+; nothing after it was imported$/);
    expect(data.imports()).toEqual([]);
  });

  it('fails a URL the guard refuses, with the guard’s message', async () => {
    const id = await queued(
      await t.app.inject({
        method: 'POST',
        url: `${API}/imports`,
        headers: admin,
        payload: { url: 'http://10.1.2.3/feed.csv', format: 'csv' },
      }),
    );
    await drain();
    const run = await getRun(id);
    expect(run).toMatchObject({ state: 'failed', counts: { read: 0 } });
    expect(run.error).toContain('cannot download the feed: 10.1.2.3 is a private, loopback or otherwise non-public address');
  });

  it('answers 413 to an upload over IMPORT_MAX_FILE_BYTES and leaves nothing on disk', async () => {
    const before = Number(
      (
        await db
          .selectFrom('import_runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const res = await postUpload(t, admin, [
      ['format', 'csv'],
      ['file', csvPart('x'.repeat(MAX_FILE_BYTES + 1))],
    ]);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json()).toMatchObject({
      code: 'payload_too_large',
      message: `The request body is too large (limit ${MAX_FILE_BYTES} bytes).`,
    });
    expect(data.imports()).toEqual([]);
    const after = Number(
      (
        await db
          .selectFrom('import_runs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    expect(after).toBe(before);
  });

  it('refuses bad input with 400 naming the field, and keeps no file of it', async () => {
    const expectField = (res: { statusCode: number; body: string; json(): { errors: { field: string }[] } }, field: string) => {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().errors.map((error) => error.field)).toContain(field);
    };
    const post = (payload: object) => t.app.inject({ method: 'POST', url: `${API}/imports`, headers: admin, payload });
    expectField(await post({ url: 'ftp://feeds.example/a.csv', format: 'csv' }), 'url');
    expectField(await post({ url: 'not a url', format: 'csv' }), 'url');
    expectField(await post({ url: 'https://user:pw@feeds.example/a.csv', format: 'csv' }), 'url');
    expectField(await post({ url: 'https://feeds.example/a.csv', format: 'xml' }), 'format');
    expectField(await post({ url: 'https://feeds.example/a.csv', format: 'csv', owner_email: 'nobody@nowhere.example' }), 'owner_email');
    expectField(await post({ url: 'https://feeds.example/a.csv', format: 'csv', source: '<b></b>' }), 'source');
    expectField(await post({ url: 'https://feeds.example/a.csv', format: 'csv', verbose: true }), 'verbose');
    expectField(await post({ url: 'https://feeds.example/a.csv', format: 'csv', strict: 'yes' }), 'strict');
    expectField(
      await postUpload(t, admin, [
        ['format', 'xml'],
        ['file', csvPart('key\nA')],
      ]),
      'format',
    );
    expectField(await postUpload(t, admin, [['file', csvPart('key\nA')]]), 'format');
    expectField(await postUpload(t, admin, [['format', 'csv']]), 'file');
    expectField(
      await postUpload(t, admin, [
        ['format', 'csv'],
        ['dry_run', 'yes'],
        ['file', csvPart('key\nA')],
      ]),
      'dry_run',
    );
    expectField(
      await postUpload(t, admin, [
        ['format', 'csv'],
        ['owner_email', 'nobody@nowhere.example'],
        ['file', csvPart('key\nA')],
      ]),
      'owner_email',
    );
    expectField(
      await postUpload(t, admin, [
        ['format', 'csv'],
        ['colour', 'red'],
        ['file', csvPart('key\nA')],
      ]),
      'colour',
    );
    expect(data.imports()).toEqual([]);
    const text = await t.app.inject({
      method: 'POST',
      url: `${API}/imports`,
      headers: { ...admin, 'content-type': 'text/plain' },
      payload: 'x',
    });
    expect(text.statusCode).toBe(415);
    const unknown = await t.app.inject({ method: 'GET', url: `${API}/imports/999999`, headers: admin });
    expect(unknown.statusCode).toBe(404);
  });

  it('makes the account of owner_email the author of the listings it creates', async () => {
    const owner = await newUser(db, { role: 'agent' });
    const id = await queued(
      await postUpload(t, admin, [
        ['format', 'csv'],
        ['owner_email', owner.email.toUpperCase()],
        ['source', 'owned'],
        ['file', csvPart(csvFeed('O'))],
      ]),
    );
    await drain();
    expect(await getRun(id)).toMatchObject({ state: 'done', owner_id: owner.id });
    const authors = await db
      .selectFrom('listings')
      .innerJoin('listing_sources', 'listing_sources.listing_id', 'listings.id')
      .select('listings.author_id')
      .where('listing_sources.source', '=', 'owned')
      .execute();
    expect(authors.map((row) => row.author_id)).toEqual([owner.id, owner.id]);
  });

  it('answers 401 without a token and 403 to every role but administrator', async () => {
    const routes = [
      { method: 'POST' as const, url: `${API}/imports`, payload: { url: 'https://feeds.example/a.csv', format: 'csv' } },
      { method: 'GET' as const, url: `${API}/imports` },
      { method: 'GET' as const, url: `${API}/imports/1` },
      {
        method: 'POST' as const,
        url: `${API}/imports/sources`,
        payload: { name: 'x', url: 'https://feeds.example/a.csv', format: 'csv', interval_minutes: 60 },
      },
      { method: 'GET' as const, url: `${API}/imports/sources` },
      { method: 'PATCH' as const, url: `${API}/imports/sources/1`, payload: { paused: true } },
      { method: 'DELETE' as const, url: `${API}/imports/sources/1` },
    ];
    for (const route of routes) expect((await t.app.inject(route)).statusCode, `${route.method} ${route.url}`).toBe(401);
    for (const role of ['manager', 'agent', 'buyer'] as const) {
      const { auth } = await newSignedInUser(t, { role });
      for (const route of routes) {
        const res = await t.app.inject({ ...route, headers: auth });
        expect(res.statusCode, `${role}: ${route.method} ${route.url}`).toBe(403);
      }
      const upload = await postUpload(t, auth, [
        ['format', 'csv'],
        ['file', csvPart(csvFeed('F'))],
      ]);
      expect(upload.statusCode).toBe(403);
    }
    expect(data.imports()).toEqual([]);
  });
});

describeEachDialect('imports over HTTP without an allow-list (%s)', (dialect) => {
  const data = tempDataDir();
  let t: TestApp;
  let server: Awaited<ReturnType<typeof feedServer>>;

  beforeAll(async () => {
    server = await feedServer(new Map([['/feed.csv', csvFeed('P')]]));
    t = await buildTestApp(dialect, { DATA_DIR: data.dir });
  });
  afterAll(async () => {
    await t.close();
    await server.close();
    data.remove();
  });

  it('fails a URL on a loopback address with the guard’s message, and fetches nothing', async () => {
    const { auth } = await newSignedInUser(t, { role: 'administrator' });
    const res = await t.app.inject({
      method: 'POST',
      url: `${API}/imports`,
      headers: auth,
      payload: { url: `${server.base}/feed.csv`, format: 'csv' },
    });
    expect(res.statusCode, res.body).toBe(202);
    await importJob(t).run(new Date());
    const run = (await t.app.inject({ method: 'GET', url: `${API}/imports/${res.json().data.id}`, headers: auth })).json().data;
    expect(run.state).toBe('failed');
    expect(run.error).toBe(
      `cannot download the feed: ${new URL(server.base).host} is a private, loopback or otherwise non-public address; only a host on the allow-list may be reached there`,
    );
    expect(server.hits).toEqual([]);
  });
});
