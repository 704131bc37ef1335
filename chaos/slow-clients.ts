import http from 'node:http';
import net from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Check,
  count,
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
 * Check 3: slow clients (slowloris). 500 sockets each send a request's headers one byte a second, never
 * finishing them, while a normal client times GET /health: sequentially, alternating a fresh connection and
 * one kept alive. Its p99 is measured first without the slow sockets (baseline), then with them, and must
 * stay under max(100 ms, 5 × baseline). Then every slow socket must be closed by the server after its
 * headers timeout (15 s, src/app.ts): none before 14 s, all within 15 s + Node's connectionsCheckingInterval
 * (30 s: the timeout is enforced by a sweep that runs that often) + 5 s of slack.
 */

const HEADERS_TIMEOUT_MS = 15_000;
/** Node's http.Server checks headersTimeout on a sweep this often (its `connectionsCheckingInterval` default). */
const CHECKING_INTERVAL_MS = 30_000;
const CLOSE_DEADLINE_MS = HEADERS_TIMEOUT_MS + CHECKING_INTERVAL_MS + 5_000;
const EARLIEST_CLOSE_MS = HEADERS_TIMEOUT_MS - 1_000;
/** The normal client's window with the slow sockets open: it ends before their headers timeout. */
const WINDOW_MS = 10_000;

export const slowClients: Check = {
  name: 'slow-clients',
  title: '3. slow clients (slowloris)',
  async run({ target, dir, cleanups }) {
    const socketCount = positiveInteger('CHAOS_SLOW_SOCKETS', 500);
    const databaseUrl = await scratchDatabase(target, dir, cleanups);
    const server = await ServerProcess.start(cleanups, { databaseUrl, dir, env: { RATE_LIMIT_ENABLED: 'false' } });
    await server.waitReady();

    await timeHealth(server.port, 2_000); // warm-up
    const baseline = await timeHealth(server.port, WINDOW_MS);

    const slow = openSlowSockets(server.port, socketCount);
    cleanups.add(() => slow.destroy());
    await slow.connected;
    const connectedAt = performance.now();
    const during = await timeHealth(server.port, Math.min(WINDOW_MS, EARLIEST_CLOSE_MS - 2_000));
    const openAfterWindow = slow.openCount();
    const closes = await slow.allClosed(CLOSE_DEADLINE_MS - (performance.now() - connectedAt));
    const after = await timeHealth(server.port, 2_000);
    await server.stop();

    const limit = Math.max(100, 5 * baseline.all.p99);
    figure(`normal client, GET /health, no slow clients: ${describe(baseline)}`);
    figure(`normal client with ${count(socketCount)} slow-header sockets open:  ${describe(during)}`);
    figure(`normal client after the slow sockets were closed: ${describe(after)}`);
    figure(`p99 limit with slow clients: max(100 ms, 5 × baseline p99) = ${ms(limit)}`);
    const closedTimes = closes.map((close) => close.afterMs).filter((afterMs): afterMs is number => afterMs !== undefined);
    const by408 = closes.filter((close) => close.firstLine.startsWith('HTTP/1.1 408')).length;
    figure(
      `slow sockets: ${count(socketCount)} connected, ${openAfterWindow} still open after the normal client's window; ` +
        `closed by the server ${closedTimes.length}/${socketCount} (${by408} with 408 Request Timeout), ` +
        `after median ${ms(median(closedTimes))}, min ${ms(Math.min(...closedTimes))}, max ${ms(Math.max(...closedTimes))} ` +
        `(headersTimeout ${HEADERS_TIMEOUT_MS / 1000} s, swept every ${CHECKING_INTERVAL_MS / 1000} s)`,
    );

    const problems: string[] = [];
    if (during.failures > 0) problems.push(`${during.failures} normal requests failed with slow clients`);
    if (during.all.p99 > limit) problems.push(`p99 with slow clients ${ms(during.all.p99)} > ${ms(limit)}`);
    const stillOpen = socketCount - closedTimes.length;
    if (stillOpen > 0) problems.push(`${stillOpen} slow sockets still open ${CLOSE_DEADLINE_MS / 1000} s after connecting`);
    const early = closedTimes.filter((afterMs) => afterMs < EARLIEST_CLOSE_MS).length;
    if (early > 0) problems.push(`${early} slow sockets closed before ${EARLIEST_CLOSE_MS / 1000} s`);
    return verdict(
      `normal p99 ${ms(during.all.p99)} with ${count(socketCount)} slow sockets (${ms(baseline.all.p99)} without); ` +
        `slow sockets closed ${closedTimes.length}/${socketCount}, after ${ms(Math.min(...closedTimes))}–${ms(Math.max(...closedTimes))}`,
      problems,
    );
  },
};

interface Timings {
  p50: number;
  p99: number;
  n: number;
}

interface HealthTimings {
  fresh: Timings;
  keptAlive: Timings;
  all: Timings;
  failures: number;
}

function describe(timings: HealthTimings): string {
  const one = (label: string, t: Timings) => `${label} p50 ${ms(t.p50)} p99 ${ms(t.p99)} (n=${t.n})`;
  return `${one('all', timings.all)}; ${one('new connection', timings.fresh)}; ${one('kept alive', timings.keptAlive)}${
    timings.failures ? `; ${timings.failures} failed` : ''
  }`;
}

/** GET /health back to back for `durationMs`, alternating a new connection and a kept-alive one. */
async function timeHealth(port: number, durationMs: number): Promise<HealthTimings> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const fresh: number[] = [];
  const keptAlive: number[] = [];
  let failures = 0;
  const end = performance.now() + durationMs;
  try {
    for (let i = 0; performance.now() < end; i++) {
      const reuse = i % 2 === 1;
      try {
        const response = await request({ port, path: '/health', agent: reuse ? agent : false, timeoutMs: 10_000 });
        if (response.status === 200) (reuse ? keptAlive : fresh).push(response.ms);
        else failures++;
      } catch {
        failures++;
      }
      await sleep(5);
    }
  } finally {
    agent.destroy();
  }
  const stats = (values: number[]): Timings => ({ p50: median(values), p99: percentile(values, 99), n: values.length });
  return { fresh: stats(fresh), keptAlive: stats(keptAlive), all: stats([...fresh, ...keptAlive]), failures };
}

interface Close {
  /** Milliseconds from connecting to the server closing the socket; undefined if still open or closed by us. */
  afterMs: number | undefined;
  firstLine: string;
}

/**
 * `n` sockets, each sending an endless header block one byte a second (staggered). A socket closed by the
 * server records when, and the first line of what it was sent (Node answers 408 on a headers timeout).
 */
function openSlowSockets(port: number, n: number) {
  const header = `GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: chaos-slowloris\r\nX-Slow: ${'s'.repeat(4_000)}`;
  const sockets: net.Socket[] = [];
  const closes: Close[] = [];
  const closed: Promise<void>[] = [];
  const connected: Promise<void>[] = [];
  let destroyed = false;
  for (let i = 0; i < n; i++) {
    const socket = net.connect(port, '127.0.0.1');
    sockets.push(socket);
    const close: Close = { afterMs: undefined, firstLine: '' };
    closes.push(close);
    let connectedAt = 0;
    let received = '';
    let sent = 0;
    let timer: NodeJS.Timeout | undefined;
    const drip = () => {
      if (socket.destroyed || sent >= header.length) return;
      socket.write(header[sent++]!);
      timer = setTimeout(drip, 1_000);
    };
    connected.push(
      new Promise((resolve, reject) => {
        socket.once('connect', () => {
          connectedAt = performance.now();
          timer = setTimeout(drip, Math.floor((i / n) * 1_000)); // spread the writes over each second
          resolve();
        });
        socket.once('error', reject);
      }),
    );
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    closed.push(
      new Promise((resolve) => {
        socket.on('error', () => {}); // a reset is a close too
        socket.once('close', () => {
          clearTimeout(timer);
          if (!destroyed) close.afterMs = performance.now() - connectedAt;
          close.firstLine = received.split('\r\n')[0] ?? '';
          resolve();
        });
      }),
    );
  }
  return {
    connected: Promise.all(connected).then(() => undefined),
    openCount: () => sockets.filter((socket) => !socket.destroyed).length,
    /** Waits until every socket is closed, or `timeoutMs`; returns the closes as recorded so far. */
    async allClosed(timeoutMs: number): Promise<Close[]> {
      await Promise.race([Promise.all(closed), sleep(Math.max(0, timeoutMs))]);
      return closes.map((close) => ({ ...close }));
    },
    destroy() {
      destroyed = true;
      for (const socket of sockets) socket.destroy();
    },
  };
}
