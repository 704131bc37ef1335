import autocannon from 'autocannon';
import { percentile } from './stats.js';

export const CONNECTIONS = 10;
export const WARMUP_SECONDS = 2;

export interface Sample {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/**
 * Loads `url` with autocannon for a warm-up, then for `durationSeconds` of measurement. Latency percentiles
 * come from every response's own time, to the microsecond (autocannon's histogram keeps whole milliseconds).
 * Any error, timeout or non-2xx answer fails the run: its numbers would not describe the route.
 */
export interface RequestShape {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
}

export async function measure(url: string, durationSeconds: number, shape: RequestShape): Promise<Sample> {
  await load(url, WARMUP_SECONDS, shape);
  const latencies: number[] = [];
  const result = await load(url, durationSeconds, shape, latencies);
  const sorted = Float64Array.from(latencies).sort();
  return { requestsPerSecond: result.requests.average, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

async function load(url: string, duration: number, shape: RequestShape, latencies?: number[]): Promise<autocannon.Result> {
  const run = autocannon({ url, connections: CONNECTIONS, duration, method: shape.method, headers: shape.headers });
  if (latencies) run.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  const result = await run;
  if (result.errors + result.timeouts + result.non2xx > 0) {
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx answers`);
  }
  return result;
}
