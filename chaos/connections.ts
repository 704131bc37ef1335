import autocannon from 'autocannon';
import {
  API,
  type Check,
  count,
  expectData,
  figure,
  median,
  ms,
  percentile,
  positiveInteger,
  request,
  scratchDatabase,
  ServerProcess,
  verdict,
} from './lib.js';

/**
 * Check 2: 1,000 concurrent keep-alive connections for 20 s against GET /realty-api/v1/property-types (the
 * demo taxonomy; rate limits off, or the per-IP budget would answer 429), with autocannon in this process.
 * Every request must get a 2xx: no connection error, timeout (10 s) or other status. Prints req/s and the
 * latency percentiles of every answer.
 */

const ROUTE = `${API}/property-types`;

export const connections: Check = {
  name: 'connections',
  title: '2. 1,000 concurrent connections',
  async run({ target, dir, cleanups }) {
    const connectionCount = positiveInteger('CHAOS_CONNECTIONS', 1_000);
    const seconds = positiveInteger('CHAOS_LOAD_SECONDS', 20);
    const databaseUrl = await scratchDatabase(target, dir, cleanups);
    const server = await ServerProcess.start(cleanups, { databaseUrl, dir, env: { RATE_LIMIT_ENABLED: 'false', SEED_DEMO: 'true' } });
    await server.waitReady();
    const types = await expectData<{ property_types: unknown[] }>({ port: server.port, path: ROUTE });
    if (types.property_types.length === 0) throw new Error(`${ROUTE} lists no property types: the demo taxonomy is missing`);

    // A short warm-up with fewer connections, so that the figures are not those of a cold process.
    await load(`${server.url}${ROUTE}`, 100, 3);
    const result = await load(`${server.url}${ROUTE}`, connectionCount, seconds);
    const health = await request({ port: server.port, path: '/health' }).then(
      (response) => response.status,
      () => 0,
    );
    const exit = await server.stop();

    figure(`${count(connectionCount)} connections × ${seconds} s on ${ROUTE} (${types.property_types.length} terms)`);
    figure(`${count(result.answers)} answers, ${count(result.requestsPerSecond)} req/s (autocannon's average of per-second counts)`);
    figure(`latency p50 ${ms(result.p50)}, p99 ${ms(result.p99)}, max ${ms(result.max)}`);
    figure(
      `errors ${result.errors}, timeouts ${result.timeouts}, non-2xx ${result.non2xx}, connection resets ${result.resets}` +
        (result.errorKinds.size > 0 ? ` (${[...result.errorKinds].map(([kind, n]) => `${kind} × ${n}`).join(', ')})` : ''),
    );
    figure(`afterwards: /health ${health || 'no answer'}; SIGTERM: the server stopped with ${exit}`);
    if (exit !== 'exit 0' || result.errors + result.timeouts + result.non2xx > 0)
      figure(`the server's log:${server.logTail(30) || ' empty'}`);

    const problems: string[] = [];
    if (result.errors + result.timeouts + result.non2xx > 0) {
      problems.push(`${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
    }
    if (result.answers === 0) problems.push('no answer at all');
    if (health !== 200) problems.push(`/health answered ${health || 'nothing'} after the load`);
    if (exit !== 'exit 0') problems.push(`the server did not stop cleanly after the load (${exit})`);
    return verdict(
      `${count(connectionCount)} connections: ${count(result.requestsPerSecond)} req/s, p99 ${ms(result.p99)}, ` +
        `${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
      problems,
    );
  },
};

interface LoadResult {
  answers: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  resets: number;
  errorKinds: Map<string, number>;
}

/** The parts of autocannon's result and events that bench/autocannon.d.ts leaves out. */
interface MoreResult {
  resets?: number;
}
interface MoreEvents {
  on(event: 'reqError', listener: (error: Error & { code?: string }) => void): unknown;
}

async function load(url: string, connectionCount: number, seconds: number): Promise<LoadResult> {
  const latencies: number[] = [];
  const errorKinds = new Map<string, number>();
  const run = autocannon({ url, connections: connectionCount, duration: seconds, timeout: 10 });
  run.on('response', (_client, status, _bytes, responseMs) => {
    if (status >= 200 && status < 300) latencies.push(responseMs);
  });
  (run as unknown as MoreEvents).on('reqError', (error) => {
    const kind = error.code ?? error.message;
    errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
  });
  const result = await run;
  return {
    answers: latencies.length,
    requestsPerSecond: result.requests.average,
    p50: median(latencies),
    p99: percentile(latencies, 99),
    max: latencies.reduce((a, b) => Math.max(a, b), 0),
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    resets: (result as MoreResult).resets ?? 0,
    errorKinds,
  };
}
