import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { seededRandom } from '../../src/lib/random.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type FakeGoogle, type FakeGraph, startFakeGoogle, startFakeGraph } from '../helpers/fake-providers.js';
import { type FakeStripe, startFakeStripe } from '../helpers/fake-stripe.js';
import { type Answer, describeFailure, type Failure, isTimeout, problemWith, send } from './check.js';
import { type Operation, operationsOf } from './operations.js';
import { type Assets, classOrder, generateRequest } from './requests.js';
import { buildWorld, type CallerName, type World } from './world.js';

/**
 * Fuzzing every operation of the application's own OpenAPI document (issue "Reliability and security").
 *
 * For each operation, requests are generated from its path, query, header and body schemas: every eighth one
 * as a well-meaning client would send it (ids naming records of a world of data: one for all the GET
 * operations, which run first, and a fresh one for each other operation), the others with a
 * hostile input class (wrong types, extreme numbers, hostile text, deep nesting, large arrays, unknown
 * fields, malformed JSON and multipart, odd path segments and headers; requests.ts). Each is sent as an
 * anonymous caller, a signed-in buyer and an administrator. Any 5xx, any error answer that is not the
 * envelope of docs/api.md 0.2, and any request not answered within 10 s fails the operation's test, which
 * lists the requests to reproduce.
 *
 * Deterministic: request n of an operation is drawn from a generator seeded with (FUZZ_SEED, operation, n).
 * - `npm test`: FUZZ_RUNS_SAMPLE requests per operation;
 * - `npm run fuzz` (FUZZ_FULL=1): FUZZ_RUNS_FULL per operation, with the statuses seen printed at the end;
 * - FUZZ_SEED=<n> another seed; FUZZ_RUNS=<n> another count; FUZZ_ONLY=<text> only the operations whose
 *   "METHOD /path" contains the text (e.g. FUZZ_ONLY='DELETE /realty-api/v1/users/saved-searches');
 *   FUZZ_SHOW=<n> how many failing requests each failed operation lists (8).
 */

const DEFAULT_SEED = 20_250_601;
const FUZZ_RUNS_SAMPLE = 4;
const FUZZ_RUNS_FULL = 80;

const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : DEFAULT_SEED;
const FULL = process.env.FUZZ_FULL === '1';
const RUNS = process.env.FUZZ_RUNS ? Number(process.env.FUZZ_RUNS) : FULL ? FUZZ_RUNS_FULL : FUZZ_RUNS_SAMPLE;
const ONLY = process.env.FUZZ_ONLY;
/** How many failing requests a failed operation lists (FUZZ_SHOW). */
const SHOWN = Number(process.env.FUZZ_SHOW ?? 8);
const CALLERS: CallerName[] = ['anonymous', 'buyer', 'admin'];

if (!Number.isSafeInteger(SEED)) throw new Error(`FUZZ_SEED must be an integer (got ${process.env.FUZZ_SEED})`);

/** FNV-1a: one 32-bit seed per (run seed, operation, request number). */
function seedFor(...parts: (string | number)[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('|')) {
    hash ^= char.charCodeAt(0);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

async function documentOf(t: TestApp): Promise<unknown> {
  const response = await t.app.inject({ url: '/docs/json' });
  if (response.statusCode !== 200) throw new Error(`GET /docs/json answered ${response.statusCode}`);
  return response.json();
}

// The operations are read once, when the tests are collected, from a throwaway app's document.
const collector = await buildTestApp('sqlite');
const documented = operationsOf(await documentOf(collector));
await collector.close();
// Reads first: they change nothing, so they share one world of data; every other operation gets a fresh one.
const reads = (op: Operation) => (op.method === 'GET' ? 0 : 1);
const selected = documented.filter((op) => ONLY === undefined || op.key.includes(ONLY)).sort((a, b) => reads(a) - reads(b));

async function makeAssets(): Promise<Assets> {
  const image = (format: 'png' | 'jpeg' | 'webp') =>
    sharp({ create: { width: 16, height: 12, channels: 3, background: '#3a7bd5' } })
      .toFormat(format)
      .toBuffer();
  const [png, jpeg, webp] = await Promise.all([image('png'), image('jpeg'), image('webp')]);
  return { png, jpeg, webp };
}

describeEachDialect('fuzzing every documented operation (%s)', (dialect) => {
  let t: TestApp;
  let google: FakeGoogle;
  let graph: FakeGraph;
  let stripe: FakeStripe;
  let uploadDir: string;
  let assets: Assets;
  const statuses = new Map<number, number>();
  /** FUZZ_VERBOSE: statuses per operation, class and caller, to see how deep the requests reach. */
  const detail = new Map<string, Map<number, number>>();
  let requests = 0;
  let slowest = { ms: 0, what: '' };
  let shared: World | undefined;

  beforeAll(async () => {
    [google, graph, stripe, assets] = await Promise.all([startFakeGoogle(), startFakeGraph(), startFakeStripe(), makeAssets()]);
    uploadDir = mkdtempSync(path.join(tmpdir(), 'realty-fuzz-uploads-'));
    t = await buildTestApp(dialect, {
      UPLOAD_DIR: uploadDir,
      UPLOAD_MAX_FILE_BYTES: String(1024 * 1024),
      PAYMENT_MODE: 'per_listing',
      LISTING_PRICE: '25',
      FEATURED_PRICE: '10',
      GOOGLE_CLIENT_IDS: google.clientId,
      GOOGLE_JWKS_URL: google.jwksUrl,
      FACEBOOK_APP_ID: graph.appId,
      FACEBOOK_APP_SECRET: graph.appSecret,
      FACEBOOK_GRAPH_URL: graph.graphUrl,
      ...stripe.env(),
    });
  });

  afterAll(async () => {
    await t?.close();
    await Promise.all([google?.close(), graph?.close(), stripe?.close()]);
    if (uploadDir) rmSync(uploadDir, { recursive: true, force: true });
    if (FULL || process.env.FUZZ_VERBOSE) {
      const counts = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, count]) => `${status}: ${count}`);
      console.log(
        `fuzz (${dialect}, seed ${SEED}, ${RUNS} requests × ${CALLERS.length} callers per operation): ${requests} requests; ` +
          `${counts.join(', ')}; slowest ${Math.round(slowest.ms)} ms (${slowest.what})`,
      );
    }
    if (process.env.FUZZ_VERBOSE) {
      for (const [key, counts] of detail) console.log(`${key}: ${[...counts].map(([status, count]) => `${status}×${count}`).join(' ')}`);
    }
  });

  it('covers every operation of the document this app serves', async () => {
    const served = operationsOf(await documentOf(t)).map((op) => op.key);
    expect(served).toEqual(documented.map((op) => op.key));
    expect(served.length).toBeGreaterThan(100);
  });

  const propertiesBody = () => documented.find((op) => op.key === 'POST /realty-api/v1/properties')?.bodies['application/json'];

  it.each(selected.map((op) => [op.key, op] as const))(
    '%s',
    async (_key: string, op: Operation) => {
      const world = op.method === 'GET' ? (shared ??= await buildWorld(t, { google, graph })) : await buildWorld(t, { google, graph });
      const order = classOrder(op, seededRandom(seedFor(SEED, op.key)));
      const failures: Failure[] = [];
      for (let index = 0; index < RUNS; index++) {
        const request = generateRequest(op, world, assets, seededRandom(seedFor(SEED, op.key, index)), index, order, propertiesBody());
        for (const caller of CALLERS) {
          const headers = caller === 'anonymous' ? request.headers : { ...request.headers, ...world.callers[caller] };
          let answer: Answer;
          requests++;
          const started = performance.now();
          try {
            answer = await send(t.app, request, headers, op.streams);
            const ms = performance.now() - started;
            if (ms > slowest.ms) slowest = { ms, what: `${op.key} #${index} as ${caller}: ${request.classes.join(' + ').slice(0, 80)}` };
          } catch (error) {
            failures.push({
              operation: op.key,
              index,
              caller,
              request,
              problem: isTimeout(error) ? String((error as Error).message) : `inject threw ${String(error)}`,
            });
            continue;
          }
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          if (process.env.FUZZ_VERBOSE) {
            const key = `${op.key} [${request.classes[0]?.split(':')[0]}] ${caller}`;
            const counts = detail.get(key) ?? new Map<number, number>();
            detail.set(key, counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1));
          }
          const problem = problemWith(answer);
          if (problem) failures.push({ operation: op.key, index, caller, request, problem, status: answer.status, body: answer.body });
        }
      }
      if (failures.length > 0) {
        const shown = failures.slice(0, SHOWN).map(describeFailure).join('\n\n');
        throw new Error(
          `${failures.length} of ${RUNS * CALLERS.length} fuzz requests failed (${dialect}, FUZZ_SEED=${SEED}). ` +
            `Reproduce: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} FUZZ_ONLY='${op.key}' npx vitest run test/fuzz\n\n${shown}`,
        );
      }
    },
    FULL ? 600_000 : 60_000,
  );
});
