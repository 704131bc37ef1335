import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import type { BackgroundJob } from '../../src/lib/background-job.js';
import type { TestApp } from '../helpers/app.js';
import { type FilePart, multipart } from '../media/media-fixtures.js';

/** Imports over HTTP: what the tests of POST /imports and the feed sources share. */
export const API = '/realty-api/v1';

/** A CSV feed: two good records and one the import rejects (its title is too short), on line 4. */
export function csvFeed(prefix: string): string {
  return [
    'key,title,price,status',
    `${prefix}1,First house,100000,publish`,
    `${prefix}2,Second house,200000,publish`,
    `${prefix}3,x,300000,publish`,
  ].join('\n');
}

/** A temporary DATA_DIR, and what is in its imports folder. */
export function tempDataDir(): { dir: string; imports(): string[]; remove(): void } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-imports-'));
  return {
    dir,
    imports: () => (fs.existsSync(path.join(dir, 'imports')) ? fs.readdirSync(path.join(dir, 'imports')) : []),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** A feed server on 127.0.0.1: each path answers its text; every request's path and query is kept. */
export async function feedServer(files: Map<string, string>): Promise<{ base: string; hits: string[]; close(): Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    const url = request.url ?? '';
    hits.push(url);
    const body = files.get(url.split('?')[0] ?? '');
    if (body === undefined) {
      response.statusCode = 404;
      return response.end();
    }
    response.setHeader('content-type', 'text/csv');
    response.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { base: `http://127.0.0.1:${port}`, hits, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The `feed-imports` job as the module declares it: the tests call its run function, not the scheduler. */
export function importJob(t: Pick<TestApp, 'services'>): BackgroundJob {
  const job = t.services.modules.flatMap((module) => module.jobs ?? []).find((candidate) => candidate.name === 'feed-imports');
  if (!job) throw new Error('no feed-imports job');
  return job;
}

/**
 * Runs the job at `now` until the queue is empty, as the scheduler would: again at once after an import, and
 * waiting for an import that went on past the job's run.
 */
export async function drainImports(t: Pick<TestApp, 'services'>, now = new Date()): Promise<void> {
  const runner = t.services.importRunner;
  for (;;) {
    const more = await importJob(t).run(now);
    const busy = runner.busy;
    await runner.idle();
    if (more !== 0 && !busy) return;
  }
}

/** POST /imports as multipart/form-data. */
export async function postUpload(t: TestApp, headers: Record<string, string>, parts: [string, string | FilePart][]) {
  const body = await multipart(parts);
  return t.app.inject({ method: 'POST', url: `${API}/imports`, headers: { ...headers, ...body.headers }, payload: body.payload });
}

export const csvPart = (text: string, filename = 'agency-feed.csv'): FilePart => ({ data: Buffer.from(text), filename, type: 'text/csv' });

/** GET /imports/{id} as `headers`, expected to answer 200: the run's record. */
export async function importRunOf(t: TestApp, headers: Record<string, string>, id: number) {
  const res = await t.app.inject({ method: 'GET', url: `${API}/imports/${id}`, headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** How many listings the source's keys name. */
export async function sourceListingCount(t: Pick<TestApp, 'database'>, source: string): Promise<number> {
  const row = await t.database.db
    .selectFrom('listing_sources')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('source', '=', source)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
