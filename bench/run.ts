/**
 * `npm run bench`: the API suite (api-suite.ts: the hot routes on 100,000 listings) and the search suite
 * (search-suite.ts: searches on 100,000 and 1,000,000 listings, SQLite and PostgreSQL), each against a bare
 * Fastify twin serving the same bytes, then the alerts suite (alerts-suite.ts: saved-search alerts, one newly
 * published listing against 100,000 saved searches, beside in-process baselines; BENCH_ALERTS_SEARCHES,
 * BENCH_ALERTS_LISTINGS, BENCH_ALERTS_SAMPLES, BENCH_ALERTS_JSON), and the broadcast suite (broadcast-suite.ts: an
 * administrator's notification to 100,000 users, queued and fanned out; BENCH_BROADCAST_USERS,
 * BENCH_BROADCAST_ROUNDS, BENCH_BROADCAST_JSON), and the bulk suite (bulk-suite.ts: the rate of the bulk write
 * path of `seed --properties`, fresh and live; BENCH_BULK_LISTINGS, BENCH_BULK_ROUNDS, BENCH_BULK_JSON), and the
 * exchange suite (exchange-suite.ts: `realty-api import` of a 100,000-listing CSV feed and the CSV and Kyero
 * exports, time and memory, and the rate of the pictures job; BENCH_EXCHANGE_LISTINGS, BENCH_EXCHANGE_BASE,
 * BENCH_EXCHANGE_PICTURES, BENCH_EXCHANGE_ROUNDS, BENCH_EXCHANGE_JSON), and the website suite (site-suite.ts: the
 * home, listing and results pages and a sitemap shard on 100,000 listings, each rotating over 1,000 distinct
 * requests; BENCH_SITE_REQUESTS, BENCH_SITE_SCENARIOS, BENCH_SITE_JSON), and the portal suite (portal-suite.ts: a portal's repeated pull of a
 * 300-listing feed, and /health beside 60 pulls; BENCH_PORTAL_LISTINGS, BENCH_PORTAL_JSON), and the WordPress suite
 * (wxr-suite.ts: `realty-api import --format wxr` of a Houzez export of 100,000 properties on SQLite;
 * BENCH_WXR_LISTINGS, BENCH_WXR_ROUNDS, BENCH_WXR_JSON). `BENCH_SUITE=api`, `search`, `alerts`, `broadcast`, `bulk`,
 * `exchange`, `site`, `portal` or `wxr` runs one of them; by default (`all`) all nine run, in that order.
 * `BENCH_SUITE=webhooks` (webhooks-suite.ts: listing updates fanned out to webhook endpoints on a local receiver;
 * BENCH_WEBHOOK_UPDATES, BENCH_WEBHOOK_ENDPOINTS, BENCH_WEBHOOK_JSON) runs only when named.
 */
import os from 'node:os';
import { runAlertsSuite } from './alerts-suite.js';
import { runApiSuite } from './api-suite.js';
import { runBroadcastSuite } from './broadcast-suite.js';
import { runBulkSuite } from './bulk-suite.js';
import { runExchangeSuite } from './exchange-suite.js';
import { Cleanups, progress } from './harness.js';
import { runPortalSuite } from './portal-suite.js';
import { runSearchSuite } from './search-suite.js';
import { runSiteSuite } from './site-suite.js';
import { runWebhooksSuite } from './webhooks-suite.js';
import { runWxrSuite } from './wxr-suite.js';

const SUITES = {
  api: runApiSuite,
  search: runSearchSuite,
  alerts: runAlertsSuite,
  broadcast: runBroadcastSuite,
  bulk: runBulkSuite,
  exchange: runExchangeSuite,
  site: runSiteSuite,
  portal: runPortalSuite,
  wxr: runWxrSuite,
  webhooks: runWebhooksSuite,
} as const;
type SuiteName = keyof typeof SUITES;

const cleanups = new Cleanups();

function suitesToRun(): SuiteName[] {
  const raw = process.env.BENCH_SUITE || 'all';
  if (raw === 'all') return ['api', 'search', 'alerts', 'broadcast', 'bulk', 'exchange', 'site', 'portal', 'wxr'];
  if (raw in SUITES) return [raw as SuiteName];
  throw new Error(`BENCH_SUITE must be api, search, alerts, broadcast, bulk, exchange, site, portal, wxr, webhooks or all (got "${raw}")`);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping the servers`);
    void cleanups.run().finally(() => process.exit(128 + os.constants.signals[signal]));
  });
}

try {
  for (const suite of suitesToRun()) {
    await SUITES[suite](cleanups);
    await cleanups.run();
  }
} catch (error) {
  console.error('bench failed:', error);
  process.exitCode = 1;
} finally {
  await cleanups.run();
}
