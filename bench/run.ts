/**
 * `npm run bench`: the API suite (api-suite.ts: the hot routes on 100,000 listings) and the search suite
 * (search-suite.ts: searches on 100,000 and 1,000,000 listings, SQLite and PostgreSQL), each against a bare
 * Fastify twin serving the same bytes. `BENCH_SUITE=api` or `BENCH_SUITE=search` runs one of them; by
 * default both run, the API suite first.
 */
import os from 'node:os';
import { runApiSuite } from './api-suite.js';
import { Cleanups, progress } from './harness.js';
import { runSearchSuite } from './search-suite.js';

const SUITES = { api: runApiSuite, search: runSearchSuite } as const;
type SuiteName = keyof typeof SUITES;

const cleanups = new Cleanups();

function suitesToRun(): SuiteName[] {
  const raw = process.env.BENCH_SUITE || 'all';
  if (raw === 'all') return ['api', 'search'];
  if (raw in SUITES) return [raw as SuiteName];
  throw new Error(`BENCH_SUITE must be api, search or all (got "${raw}")`);
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
