import { positiveInteger } from './harness.js';

/**
 * The search suite's environment:
 * - BENCH_SEARCH_SIZES: listing counts of the SQLite datasets, comma-separated (default 100000,1000000);
 *   PostgreSQL gets one dataset, of the smallest of them;
 * - BENCH_DATABASE_URL: a PostgreSQL server where the bench may create and drop a database of its own
 *   (default postgres://postgres@127.0.0.1:5432/postgres); `none` skips PostgreSQL;
 * - BENCH_DURATION, BENCH_ROUNDS: as in the API suite, but 5 s by default (three datasets of six scenarios);
 * - BENCH_SEARCH_JSON: the results file (default bench/results/search-latest.json).
 */

export const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_SIZES = [100_000, 1_000_000];
const DEFAULT_SEARCH_DURATION_SECONDS = 5;

export interface SearchSettings {
  sqliteSizes: number[];
  /** Undefined: PostgreSQL skipped on purpose. */
  postgres: { adminUrl: string; size: number } | undefined;
  durationSeconds: number;
  rounds: number;
  jsonPath: string | undefined;
}

export function benchDatabaseUrl(): string {
  return process.env.BENCH_DATABASE_URL || DEFAULT_DATABASE_URL;
}

export function searchSettings(): SearchSettings {
  const sqliteSizes = listingSizes();
  const adminUrl = benchDatabaseUrl();
  return {
    sqliteSizes,
    postgres: adminUrl === 'none' ? undefined : { adminUrl, size: Math.min(...sqliteSizes) },
    durationSeconds: positiveInteger('BENCH_DURATION', DEFAULT_SEARCH_DURATION_SECONDS),
    rounds: positiveInteger('BENCH_ROUNDS', 3),
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
