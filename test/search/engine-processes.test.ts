import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { changeLogHead } from '../../src/db/change-log.js';
import { createDatabase, type Database, migrateToLatest } from '../../src/db/database.js';
import type { DialectName } from '../../src/db/dialect/index.js';
import type { IndexFeed } from '../../src/modules/search/engine/index-feed.service.js';
import { SEARCH_INDEX_CHANNEL } from '../../src/modules/search/engine/search-index.js';
import { TEST_JWT_SECRET, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newListing } from '../helpers/factories.js';
import { gate } from '../helpers/gate.js';
import { until } from '../helpers/until.js';

const API = '/realty-api/v1';
const METRICS_TOKEN = 'metrics-token-of-the-engine-tests';

/** A word no other listing has: letters only, so that the keyword index keeps it whole. */
function uniqueWord(): string {
  return `zq${[...randomBytes(8)].map((byte) => String.fromCharCode(97 + (byte % 26))).join('')}`;
}

/** A server process of its own: its own connection (or pool) and write counter, services, caches and index. */
interface ServerProcess {
  app: FastifyInstance;
  services: Services;
  database: Database;
  redis: Redis | undefined;
  release?: (() => void) | undefined;
  close(): Promise<void>;
}

/**
 * One database that several processes open: a SQLite file (WAL, as `serve` opens it), or a PostgreSQL
 * database of the test's own. Each `open()` is another process's connection to it.
 */
async function sharedDatabase(dialect: DialectName): Promise<{ open(): Database; dispose(): Promise<void> }> {
  if (dialect === 'postgres') {
    const database: TestDatabase = await createTestDatabase('postgres');
    const opened: Database[] = [];
    return {
      open: () => {
        const other = createDatabase({ kind: 'postgres', url: database.url! });
        opened.push(other);
        return other;
      },
      dispose: async () => {
        for (const other of opened) await other.destroy();
        await database.dispose();
      },
    };
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'realty-engine-'));
  const file = path.join(dir, 'shared.db');
  const first = createDatabase({ kind: 'sqlite', path: file });
  await migrateToLatest(first.db);
  await first.destroy();
  const opened: Database[] = [];
  return {
    open: () => {
      const other = createDatabase({ kind: 'sqlite', path: file });
      opened.push(other);
      return other;
    },
    dispose: async () => {
      for (const other of opened) await other.destroy();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function serverProcess(
  database: Database,
  env: Record<string, string>,
  withRedis: boolean,
  /** Called before the process starts, with its index feed; may return a function the test gets back. */
  beforeStart?: (feed: IndexFeed) => () => void,
): Promise<ServerProcess> {
  const config = testConfig({ METRICS_TOKEN, ...env });
  const redis = withRedis ? new Redis(process.env.REDIS_URL as string) : undefined;
  const deps = { config, database, jwtSecret: TEST_JWT_SECRET, ...(redis ? { redis } : {}) };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  await app.ready();
  const release = beforeStart?.(services.searchIndex!);
  services.startBackgroundWork(); // as `serve` does: builds the index and follows the log
  return {
    app,
    services,
    database,
    redis,
    release,
    close: async () => {
      await app.close();
      await services.shutdown();
      redis?.disconnect();
    },
  };
}

const searchIds = async (server: ServerProcess, word: string): Promise<number[]> => {
  const res = await server.app.inject({ method: 'GET', url: `${API}/properties/search?keyword=${word}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data.properties as { id: number }[]).map((summary) => summary.id);
};

const metric = async (server: ServerProcess, name: string): Promise<number | undefined> => {
  const res = await server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const line = res.body.split('\n').find((text) => text.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
};

const modes = [
  { name: 'polling the change log', redis: false },
  ...(process.env.REDIS_URL ? [{ name: 'told through Redis', redis: true }] : []),
];

describeEachDialect('the search index of two processes on one database (%s)', (dialect) => {
  let shared: Awaited<ReturnType<typeof sharedDatabase>>;
  const running: ServerProcess[] = [];
  beforeAll(async () => {
    shared = await sharedDatabase(dialect);
  });
  afterEach(async () => {
    for (const server of running.splice(0)) await server.close();
  });
  afterAll(() => shared.dispose());

  describe.each(modes)('$name', ({ redis }) => {
    // With Redis a process reads the head only every 20 polls without news: a long poll leaves the message as
    // the only way the change arrives within the wait.
    const env = (): Record<string, string> =>
      redis ? { REDIS_KEY_PREFIX: `realty-api:test:${process.pid}:${randomBytes(4).toString('hex')}:`, SEARCH_ENGINE_POLL_MS: '2000' } : {};

    it('a listing written through A is found by a search on B, and A finds it at once', async () => {
      const settings = env();
      const a = await serverProcess(shared.open(), settings, redis);
      running.push(a);
      const b = await serverProcess(shared.open(), settings, redis);
      running.push(b);
      if (redis) {
        const channel = `${settings.REDIS_KEY_PREFIX}${SEARCH_INDEX_CHANNEL}`;
        await until(async () => (await a.redis!.pubsub('NUMSUB', channel))[1] === 2);
      }
      await until(async () => a.services.searchIndex!.built && b.services.searchIndex!.built);
      const word = uniqueWord();
      expect(await searchIds(b, word)).toEqual([]);

      const id = await newListing(a.database.db, { title: `Terrace ${word}` });
      // A's own write: searchable on A's next search, without waiting for anything.
      expect(await searchIds(a, word)).toEqual([id]);
      await until(async () => (await searchIds(b, word)).length > 0);
      expect(await searchIds(b, word)).toEqual([id]);

      // And the way back, with a change rather than an insert.
      await b.database.db.updateTable('listings').set({ status: 'draft' }).where('id', '=', id).execute();
      expect(await searchIds(b, word)).toEqual([]);
      await until(async () => (await searchIds(a, word)).length === 0);
    });
  });

  it('reports the index in /ready and /metrics: 503 until built, then its size, position and lag', async () => {
    const database = shared.open();
    await newListing(database.db);
    const server = await serverProcess(database, {}, false, (feed) => {
      // Holds the build that `serve` starts until the test has seen /ready answer 503.
      const held = gate();
      for (const method of ['build', 'catchUp'] as const) {
        const original = feed[method].bind(feed) as () => Promise<unknown>;
        (feed as unknown as Record<string, () => Promise<unknown>>)[method] = async () => (await held.wait, original());
      }
      return held.release;
    });
    running.push(server);
    const ready = () => server.app.inject({ method: 'GET', url: '/ready' });
    expect((await ready()).statusCode).toBe(503);
    server.release!();
    await until(async () => (await ready()).statusCode === 200);
    const feed = server.services.searchIndex!;
    expect(feed.built).toBe(true);

    const head = await changeLogHead(database.db);
    await until(async () => feed.position === head);
    expect(await metric(server, 'realty_search_engine_listings')).toBe(feed.index.size);
    expect(feed.index.size).toBeGreaterThan(0);
    expect(await metric(server, 'realty_search_engine_change_log_position')).toBe(head);
    expect(await metric(server, 'realty_search_engine_change_log_lag')).toBe(0);
    expect(await metric(server, 'realty_search_engine_build_seconds')).toBeGreaterThan(0);
    const metrics = () => server.app.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
    const res = await metrics();
    for (const part of ['columns', 'postings', 'keyword', 'orders']) {
      expect(res.body).toMatch(new RegExp(`realty_search_engine_memory_bytes\\{part="${part}"\\} \\d+`));
    }
    expect(res.body).toMatch(/realty_search_engine_memory_bytes\{part="columns"\} [1-9]/);
    // Sort orders are made on use: none before a search sorted by price, some after.
    expect(res.body).toMatch(/realty_search_engine_memory_bytes\{part="orders"\} 0\n/);
    expect((await server.app.inject({ method: 'GET', url: `${API}/properties/search?sortby=a_price&min_price=1` })).statusCode).toBe(200);
    expect((await metrics()).body).toMatch(/realty_search_engine_memory_bytes\{part="orders"\} [1-9]/);
  });
});

describe('SEARCH_ENGINE=sql', () => {
  it('keeps no index: ready at once, searches answered by the database', async () => {
    const database = await createTestDatabase('sqlite');
    const config = testConfig({ SEARCH_ENGINE: 'sql' });
    const deps = { config, database, jwtSecret: TEST_JWT_SECRET };
    const services = createServices(deps);
    const app = await buildApp(deps, services);
    try {
      await app.ready();
      expect(services.searchIndex).toBeUndefined();
      expect((await app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      const word = uniqueWord();
      const id = await newListing(database.db, { title: `Porch ${word}` });
      const res = await app.inject({ method: 'GET', url: `${API}/properties/search?keyword=${word}` });
      expect(res.json().data.properties.map((p: { id: number }) => p.id)).toEqual([id]);
    } finally {
      await app.close();
      await services.shutdown();
      await database.dispose();
    }
  });
});
