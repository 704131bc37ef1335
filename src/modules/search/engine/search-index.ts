import { changeLogHead } from '../../../db/change-log.js';
import type { MetricGauge } from '../../../lib/metric-gauge.js';
import type { Platform } from '../../module.js';
import { ordersMemory } from './engine-orders.js';
import { IndexFeed } from './index-feed.service.js';
import { IndexFollower } from './index-follower.service.js';

/** The search index of one process: the feed that keeps it, and what the module gives the application of it. */
export interface SearchIndex {
  feed: IndexFeed;
  /** `/ready`: built (and, in an application nobody started, built now). */
  isReady(): Promise<boolean>;
  gauges: readonly MetricGauge[];
  /** Begins the build (`serve`, before the application is built; not awaited: `/ready` answers 503 until it ends). */
  prepare(): void;
  /** Follows the other processes' changes (`serve`), after beginning the build if `prepare` did not. */
  start(): void;
  stop(): Promise<void>;
}

/** The Redis channel of the positions processes announce, under REDIS_KEY_PREFIX. */
export const SEARCH_INDEX_CHANNEL = 'search-index';

/** The in-process search index when SEARCH_ENGINE is `memory` (the default); undefined when it is `sql`. */
export function createSearchIndex({ config, database, redis, log }: Platform): SearchIndex | undefined {
  if (config.search.engine !== 'memory') return undefined;
  const { db, localWrites } = database;
  const feed = new IndexFeed(db, localWrites, log, database.readerConfig ? { reader: database.readerConfig } : {});
  const follower = new IndexFollower(feed, db, localWrites, log, {
    pollMs: config.search.enginePollMs,
    ...(redis ? { redis: { client: redis, channel: `${config.redisKeyPrefix}${SEARCH_INDEX_CHANNEL}` } } : {}),
  });
  let started = false;
  const prepare = () => {
    if (started) return;
    started = true;
    // A failed build is tried again by the follower's next look at the log.
    feed.build().catch((error: unknown) => log.error({ err: error }, 'search index build failed; retrying'));
  };
  return {
    feed,
    async isReady() {
      if (feed.built) return true;
      // Started: the build is on its way, and a load balancer must not wait for it. Not started (the tests'
      // applications): build now, as the first search would.
      if (started) return false;
      try {
        await feed.fresh();
        return true;
      } catch (error) {
        log.warn({ err: error }, 'search index build failed');
        return false;
      }
    },
    gauges: searchIndexGauges(feed, () => changeLogHead(db)),
    prepare,
    start() {
      prepare();
      follower.start();
    },
    async stop() {
      await follower.stop();
      feed.close();
    },
  };
}

function searchIndexGauges(feed: IndexFeed, head: () => Promise<number>): MetricGauge[] {
  const built = <T>(value: () => T) => (feed.built ? value() : undefined);
  return [
    {
      name: 'realty_search_engine_listings',
      help: 'Listings in the in-process search index',
      read: () => built(() => feed.index.size),
    },
    {
      name: 'realty_search_engine_memory_bytes',
      help: 'Memory of the in-process search index by part: columns, postings (terms, agents, cells), keyword, orders (made on use)',
      labelNames: ['part'],
      read: () =>
        built(() => {
          const memory = { ...feed.index.memory(), orders: ordersMemory(feed.index) };
          return (['columns', 'postings', 'keyword', 'orders'] as const).map((part) => ({ labels: { part }, value: memory[part] }));
        }),
    },
    {
      name: 'realty_search_engine_change_log_position',
      help: 'Number of the last change-log change the search index holds',
      read: () => built(() => feed.position),
    },
    {
      name: 'realty_search_engine_change_log_lag',
      help: 'Changes committed but not yet in the search index (change-log head minus the index position)',
      read: async () => (feed.built ? Math.max(0, (await head()) - feed.position) : undefined),
    },
    {
      name: 'realty_search_engine_build_seconds',
      help: 'Duration of the last build of the search index',
      read: () => built(() => feed.buildMs / 1000),
    },
  ];
}
