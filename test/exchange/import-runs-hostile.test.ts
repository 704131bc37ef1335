import { setImmediate as nextTurn } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newSignedInUser, unique } from '../helpers/factories.js';
import { MAX_REJECTION_TEXT, MAX_RUN_ERROR } from '../../src/modules/exchange/import-runs/run-messages.js';
import type { FilePart } from '../media/media-fixtures.js';
import { API, drainImports, importRunOf, postUpload, tempDataDir } from './import-runs-helpers.js';

/**
 * Imports over HTTP of the files an attacker's probe sent (issue 38): each is refused at its place with a short
 * error, and the server answers other requests while the file is read, on a thread of its own.
 */
describeEachDialect('hostile feeds over HTTP (%s)', (dialect) => {
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

  const upload = async (format: string, file: FilePart) => {
    const res = await postUpload(t, admin, [
      ['format', format],
      ['source', unique('hostile-')],
      ['file', file],
    ]);
    expect(res.statusCode, res.body).toBe(202);
    return res.json().data.id as number;
  };
  const part = (text: string | Buffer, filename: string): FilePart => ({
    data: Buffer.isBuffer(text) ? text : Buffer.from(text),
    filename,
    type: 'application/octet-stream',
  });

  /**
   * Runs the queued import while GET /health is asked again and again: what happened, in order. The import runs in
   * the job as the scheduler runs it; each answer of /health came while the file was still being read or written.
   */
  const importBesideHealth = async (): Promise<string[]> => {
    const events: string[] = [];
    let ended = false;
    const imported = drainImports(t).then(() => {
      ended = true;
      events.push('import ended');
    });
    while (!ended) {
      const res = await t.app.inject({ method: 'GET', url: '/health' });
      if (!ended) events.push(`health ${res.statusCode}`);
      // inject() answers within one turn of the event loop; a client's next request comes in a later one.
      await nextTurn();
    }
    await imported;
    return events;
  };

  it('refuses an 80,000-deep Kyero feed at its line, answering /health while it is read', async () => {
    const depth = 80_000;
    const kyero =
      '<?xml version="1.0"?>\n<root><kyero><feed_version>3</feed_version></kyero><property><id>D</id><price>1</price>' +
      `<desc><en>${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}</en></desc></property></root>\n`;
    const id = await upload('kyero', part(kyero, 'deep.xml'));
    const events = await importBesideHealth();
    expect(events[0]).toBe('health 200');
    expect(events.at(-1)).toBe('import ended');
    expect(await importRunOf(t, admin, id)).toMatchObject({
      state: 'failed',
      error:
        'the file cannot be read as kyero: line 2: elements are nested more than 64 levels deep; a Kyero feed needs a few; ' +
        'nothing after it was imported',
      counts: { read: 0, created: 0 },
    });
  });

  it('refuses a 20,000-deep WordPress export at its line, answering /health while it is read, and keeps no file', async () => {
    const depth = 20_000;
    const wxr =
      '<?xml version="1.0" encoding="UTF-8" ?>\n' +
      '<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/" xmlns:wp="http://wordpress.org/export/1.2/">\n' +
      '<channel>\n<item><title>T</title><wp:post_id>1</wp:post_id><wp:post_type>property</wp:post_type>' +
      `<content:encoded>${'<a>'.repeat(depth)}x${'</a>'.repeat(depth)}</content:encoded></item>\n</channel>\n</rss>\n`;
    const id = await upload('wxr', part(wxr, 'export.xml'));
    const events = await importBesideHealth();
    expect(events[0]).toBe('health 200');
    expect(events.at(-1)).toBe('import ended');
    expect(await importRunOf(t, admin, id)).toMatchObject({
      state: 'failed',
      error:
        'the file cannot be read as wxr: line 4: elements are nested more than 64 levels deep; a WordPress export needs a few; ' +
        'nothing after it was imported',
    });
    // Neither the upload nor the properties it set aside.
    expect(data.imports()).toEqual([]);
  });

  it('refuses a file that is not UTF-8 at its line and column', async () => {
    const latin1 = Buffer.concat([Buffer.from('key,title,city\nA,First house,Paris\nB,Second house,Caf'), Buffer.from([0xe9, 0x0a])]);
    const id = await upload('csv', part(latin1, 'latin1.csv'));
    await drainImports(t);
    expect(await importRunOf(t, admin, id)).toMatchObject({
      state: 'failed',
      error:
        'the file cannot be read as csv: line 3, column 19: the file is not valid UTF-8 (byte 0xE9): save it as UTF-8; ' +
        'nothing after it was imported',
    });
  });
  it('keeps the error of a 20 MB header name under a kilobyte: in the run’s row and in GET /imports', async () => {
    const id = await upload('csv', part(`key,${'h'.repeat(20 * 1024 * 1024)}\nA,1\n`, 'wide.csv'));
    await drainImports(t);
    const run = await importRunOf(t, admin, id);
    expect(run).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^the file cannot be read as csv: line 1: a record is longer/),
    });
    expect(run.error.length).toBeLessThan(1024);
    const listed = await t.app.inject({ method: 'GET', url: `${API}/imports?per_page=5`, headers: admin });
    expect(listed.statusCode).toBe(200);
    expect(listed.body.length).toBeLessThan(8 * 1024);
    const row = await t.database.db.selectFrom('import_runs').select('error').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.error!.length).toBeLessThanOrEqual(MAX_RUN_ERROR + 1);
  });

  it('keeps each stored rejection short, however long the key the record gave', async () => {
    const key = 'k'.repeat(5000);
    const id = await upload('csv', part(`key,title\n${key},A house\n`, 'long-key.csv'));
    await drainImports(t);
    const run = await importRunOf(t, admin, id);
    expect(run).toMatchObject({ state: 'done', counts: { rejected: 1 } });
    expect(run.rejections).toEqual([
      { at: 'line 2', key: `${'k'.repeat(MAX_REJECTION_TEXT)}…`, errors: [{ field: 'key', reason: expect.any(String) }] },
    ]);
  });
});
