import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import { percentile } from './stats.js';

export const CONNECTIONS = 10;
export const WARMUP_SECONDS = 2;

export interface Sample {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export interface RequestShape {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
}

export interface MeasureOptions {
  /** Seconds one request may take before autocannon counts it as a timeout (default 10, autocannon's own). */
  timeoutSeconds?: number;
  /**
   * A route of the server under test that reads the database: when given, the warm-up and the measurement
   * each start once it answers fast (waitUntilIdle).
   */
  idleUrl?: string;
  /** Concurrent connections (default CONNECTIONS). */
  connections?: number;
  /** The one status every answer must have, when not a 2xx (304 for a revalidating request). */
  status?: number;
  /**
   * Distinct requests to rotate over instead of repeating `url`'s path: each run goes on where the last one
   * left off, its connections spread evenly over the list.
   */
  rotation?: Rotation;
}

/**
 * Paths (query strings included) that runs of autocannon go through in turn. Connection k of a run of C starts
 * k/C of the way round from `next`, so that each path comes back only after about the whole list has been sent
 * (all connections starting at the first path would send each one C times within a moment); `next` moves on
 * by what each connection sent, so that the measurement does not repeat what its warm-up just asked.
 */
export class Rotation {
  next = 0;

  constructor(readonly paths: readonly string[]) {
    if (paths.length === 0) throw new Error('a rotation of no paths');
  }

  /** The sequence of connection `index` of `connections`, starting where the list goes on. */
  requestsFor(index: number, connections: number, shape: RequestShape): autocannon.Request[] {
    const count = this.paths.length;
    const start = (this.next + Math.floor((index * count) / connections)) % count;
    return Array.from({ length: count }, (_, k) => ({
      path: this.paths[(start + k) % count]!,
      method: shape.method,
      headers: shape.headers,
    }));
  }

  /** After a run of `connections` that got `responses` answers. */
  advance(responses: number, connections: number): void {
    this.next = (this.next + Math.ceil(responses / connections)) % this.paths.length;
  }
}

const DEFAULT_TIMEOUT_SECONDS = 10;

/**
 * Loads `url` with autocannon for a warm-up, then for `durationSeconds` of measurement. Latency percentiles
 * come from every response's own time, to the microsecond (autocannon's histogram keeps whole milliseconds).
 * Any error, timeout or non-2xx answer fails the run: its numbers would not describe the route; so does a
 * measurement without a single answer.
 */
export async function measure(url: string, durationSeconds: number, shape: RequestShape, options: MeasureOptions = {}): Promise<Sample> {
  const timeout = options.timeoutSeconds ?? DEFAULT_TIMEOUT_SECONDS;
  const run = { connections: options.connections ?? CONNECTIONS, rotation: options.rotation, status: options.status };
  if (options.idleUrl) await waitUntilIdle(options.idleUrl);
  await load(url, WARMUP_SECONDS, shape, timeout, run);
  if (options.idleUrl) await waitUntilIdle(options.idleUrl);
  const latencies: number[] = [];
  const result = await load(url, durationSeconds, shape, timeout, run, latencies);
  if (latencies.length === 0) throw new Error(`${url}: no answer within the ${durationSeconds} s of measurement`);
  const sorted = Float64Array.from(latencies).sort();
  return { requestsPerSecond: result.requests.average, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

async function load(
  url: string,
  duration: number,
  shape: RequestShape,
  timeout: number,
  { connections, rotation, status }: { connections: number; rotation: Rotation | undefined; status: number | undefined },
  latencies?: number[],
): Promise<autocannon.Result> {
  let clients = 0;
  let responses = 0;
  let unexpected = 0;
  const run = autocannon({
    url,
    connections,
    duration,
    timeout,
    method: shape.method,
    headers: shape.headers,
    ...(rotation && {
      requests: rotation.requestsFor(0, connections, shape),
      setupClient: (client: autocannon.Client) => client.setRequests(rotation.requestsFor(clients++, connections, shape)),
    }),
  });
  run.on('response', (_client, answered, _bytes, ms) => {
    responses++;
    if (status !== undefined && answered !== status) unexpected++;
    latencies?.push(ms);
  });
  const result = await run;
  rotation?.advance(responses, connections);
  const wrong = status === undefined ? result.non2xx : unexpected;
  if (result.errors + result.timeouts + wrong > 0) {
    const what = status === undefined ? 'non-2xx' : `other than ${status}`;
    throw new Error(`${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${wrong} answers ${what}`);
  }
  return result;
}

/** An answer this fast, twice in a row, means the server has no earlier work left. */
const IDLE_ANSWER_MS = 50;
const IDLE_PAUSE_MS = 250;
const IDLE_TIMEOUT_MS = 10 * 60_000;

/**
 * Waits until `url` answers within 50 ms twice in a row. When a measurement ends, the requests still
 * queued at a slow route keep the server (or its database) busy for as long again, and would slow whatever
 * is measured next; a route that reads the database waits behind them on either database. Each check sends
 * two requests back to back and times the second: after a pause, the first answer on an idle virtual machine
 * can take 30–60 ms just to wake it (seen on the 2-core machines), which alone never counted as idle.
 */
export async function waitUntilIdle(url: string): Promise<void> {
  const deadline = Date.now() + IDLE_TIMEOUT_MS;
  for (let fastInARow = 0; fastInARow < 2;) {
    await answerMs(url);
    fastInARow = (await answerMs(url)) < IDLE_ANSWER_MS ? fastInARow + 1 : 0;
    if (Date.now() > deadline) throw new Error(`${url} still answers slowly after ${IDLE_TIMEOUT_MS / 60_000} minutes`);
    await sleep(IDLE_PAUSE_MS);
  }
}

async function answerMs(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url, { signal: AbortSignal.timeout(IDLE_TIMEOUT_MS) });
  await response.arrayBuffer();
  return performance.now() - started;
}
