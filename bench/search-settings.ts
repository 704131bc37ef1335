import { positiveInteger } from './harness.js';

/**
 * The search suite's environment:
 * - BENCH_SEARCH_SIZES: listing counts of the datasets, comma-separated (default 100000,1000000); each size is
 *   measured on SQLite and on PostgreSQL;
 * - BENCH_DATABASE_URL: a PostgreSQL server where the bench may create and drop a database of its own
 *   (default postgres://postgres@127.0.0.1:5432/postgres); `none` skips PostgreSQL;
 * - BENCH_DURATION, BENCH_ROUNDS: as in the API suite, but 5 s by default (many datasets and scenarios);
 * - BENCH_SEARCH_REQUESTS: distinct requests each scenario rotates over (default and least 1000);
 * - BENCH_SEARCH_WRITES: writes of the cross-process freshness check (default 20);
 * - BENCH_SEARCH_ENGINE: `memory` or `sql`, passed to the servers as SEARCH_ENGINE (unset: the server's default),
 *   to measure the engine and the SQL search of one build;
 * - BENCH_SEARCH_JSON: the results file (default bench/results/search-latest.json).
 */

const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_SIZES = [100_000, 1_000_000];
const DEFAULT_SEARCH_DURATION_SECONDS = 5;
/** The issue asks for at least this many distinct requests per scenario, so that no cache of whole answers carries it. */
const LEAST_REQUESTS = 1_000;

export interface SearchSettings {
  sizes: number[];
  /** Undefined: PostgreSQL skipped on purpose. */
  postgresAdminUrl: string | undefined;
  durationSeconds: number;
  rounds: number;
  requestsPerScenario: number;
  freshnessWrites: number;
  /** SEARCH_ENGINE of the servers; undefined: their default. */
  searchEngine: 'memory' | 'sql' | undefined;
  jsonPath: string | undefined;
}

export function benchDatabaseUrl(): string {
  return process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function searchSettings(): SearchSettings {
  const adminUrl = benchDatabaseUrl();
  const requestsPerScenario = positiveInteger('BENCH_SEARCH_REQUESTS', LEAST_REQUESTS);
  if (requestsPerScenario < LEAST_REQUESTS) {
    throw new Error(`BENCH_SEARCH_REQUESTS must be at least ${LEAST_REQUESTS} (got ${requestsPerScenario})`);
  }
  return {
    sizes: listingSizes(),
    postgresAdminUrl: adminUrl === 'none' ? undefined : adminUrl,
    durationSeconds: positiveInteger('BENCH_DURATION', DEFAULT_SEARCH_DURATION_SECONDS),
    rounds: positiveInteger('BENCH_ROUNDS', 3),
    requestsPerScenario,
    freshnessWrites: positiveInteger('BENCH_SEARCH_WRITES', 20),
    searchEngine: searchEngine(),
    jsonPath: process.env.BENCH_SEARCH_JSON || undefined,
  };
}

function listingSizes(): number[] {
  const raw = process.env.BENCH_SEARCH_SIZES;
  if (raw === undefined || raw.trim() === '') return DEFAULT_SIZES;
  const sizes = raw.split(',').map((item) => Number(item.trim()));
  if (sizes.some((size) => !Number.isInteger(size) || size < 1 || size > 1_000_000)) {
    throw new Error(`BENCH_SEARCH_SIZES must list whole numbers from 1 to 1,000,000, e.g. 100000,1000000 (got "${raw}")`);
  }
  return [...new Set(sizes)].sort((a, b) => a - b);
}

function searchEngine(): SearchSettings['searchEngine'] {
  const raw = process.env.BENCH_SEARCH_ENGINE;
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'memory' && raw !== 'sql') throw new Error(`BENCH_SEARCH_ENGINE must be memory or sql (got "${raw}")`);
  return raw;
}
