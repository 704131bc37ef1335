import { execFile } from 'node:child_process';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { promisify } from 'node:util';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import {
  API,
  type Check,
  type Cleanups,
  count,
  expectData,
  figure,
  ms,
  positiveInteger,
  register,
  request,
  ROOT,
  scratchDatabase,
  ServerProcess,
  type SignedIn,
  uniqueName,
  verdict,
} from './lib.js';

/**
 * Check 7: kill -9 of the process delivering webhooks, under a stream of listing writes. Writers (signed-in
 * sellers) create listings and retitle them through the API as fast as they can; one endpoint takes every listing
 * event, and a receiver in this process records every request in arrival order (answering each after 400 ms, so
 * that a kill finds deliveries in flight). After a random 1.5–3 s the
 * server (which derives the events and delivers them: the only process) gets SIGKILL; it is started again on the
 * same database and the next round writes. After the last round the server drains (no change left to derive,
 * no delivery pending), and the arrivals are held to the database:
 * - no event lost: every event the follower derived (`webhook_events`) arrived, and each listing's last arrival
 *   carries the title the database holds (coalescing may merge writes, never drop the last one);
 *   every acknowledged creation arrived as `listing.created`; the follower reached the change log's head;
 * - none reordered: for each listing, arrivals' sequence numbers never go down in arrival order (repeats of a
 *   delivery whose answer the kill cut are allowed: at least once, and before the listing's next event only);
 * - every arrival is signed with the endpoint's secret.
 */

const ENV = { RATE_LIMIT_ENABLED: 'false', WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_MS: '100' };
const ADMIN_PASSWORD = 'chaos webhook administrator';
const RECEIVER_DELAY_MS = 400;

interface Arrival {
  id: string;
  type: string;
  sequence: number;
  listingId: number;
  title: string | null;
  signed: boolean;
}

export const webhookKill: Check = {
  name: 'webhook-kill',
  title: '7. kill -9 of the webhook deliverer under listing writes',
  async run({ target, dir, cleanups }) {
    const writers = positiveInteger('CHAOS_WEBHOOK_WRITERS', 8);
    const rounds = positiveInteger('CHAOS_KILL_ROUNDS', 3);
    const databaseUrl = await scratchDatabase(target, dir, cleanups);
    const options = { databaseUrl, dir, env: ENV };
    const receiver = await startReceiver(cleanups);

    let server = await ServerProcess.start(cleanups, { ...options, name: 'webhooks-0' });
    await server.waitReady();
    const run = uniqueName();
    const adminToken = await administrator(server.port, databaseUrl, dir, `${run}_admin`);
    const endpoint = await expectData<{ id: number; secret: string }>(
      {
        port: server.port,
        method: 'POST',
        path: `${API}/webhooks`,
        token: adminToken,
        body: { url: `${receiver.base}/hook`, events: ['listing.created', 'listing.updated', 'listing.state_changed', 'listing.deleted'] },
      },
      201,
    );
    receiver.secret = endpoint.secret;
    const users: SignedIn[] = [];
    for (let i = 0; i < writers; i++) users.push(await register(server.port, `${run}_w${i}`));
    // The follower must have taken the endpoint in (its position at the head) before the first write.
    await until(async () => (await followerLag(databaseUrl)) === 0, 30_000, 'the follower to start');

    /** Each acknowledged listing's last acknowledged title. */
    const titles = new Map<number, string>();
    const problems: string[] = [];
    let acknowledgedWrites = 0;
    let unanswered = 0;
    for (let round = 1; round <= rounds; round++) {
      let killed = false;
      let n = 0;
      const port = server.port;
      const write = async (owner: SignedIn, method: 'POST' | 'PUT', pathName: string, title: string) => {
        try {
          const response = await request({
            port,
            method,
            path: `${API}${pathName}`,
            token: owner.token,
            body: { title, price: 100_000 },
            timeoutMs: 20_000,
          });
          if (response.status === 200 || response.status === 201) return (JSON.parse(response.text) as { data: { id: number } }).data.id;
          if (!killed) problems.push(`round ${round}: ${method} ${pathName} answered ${response.status}: ${response.text.slice(0, 120)}`);
        } catch {
          unanswered++; // cut by the kill: not acknowledged, nothing promised
        }
        return undefined;
      };
      const writer = async (owner: SignedIn, index: number) => {
        while (!killed) {
          const first = `Hook r${round} w${index} n${++n}`;
          const id = await write(owner, 'POST', '/properties', first);
          if (id === undefined) continue;
          titles.set(id, first);
          acknowledgedWrites++;
          for (let edit = 1; edit <= 2 && !killed; edit++) {
            const retitled = `${first} edit ${edit}`;
            if ((await write(owner, 'PUT', `/properties/${id}`, retitled)) === undefined) break;
            titles.set(id, retitled);
            acknowledgedWrites++;
          }
        }
      };
      const writing = users.map((user, index) => writer(user, index));
      const killAfterMs = 1_500 + Math.random() * 1_500;
      await sleep(killAfterMs);
      const arrivedAtKill = receiver.arrivals.length;
      const inFlightAtKill = receiver.inFlight;
      killed = true;
      await server.kill();
      await Promise.all(writing);
      figure(
        `round ${round}: SIGKILL after ${(killAfterMs / 1000).toFixed(1)} s; acknowledged writes so far ${count(acknowledgedWrites)}, ` +
          `arrivals so far ${count(arrivedAtKill)}, deliveries in flight at the kill ${inFlightAtKill}`,
      );
      server = await ServerProcess.start(cleanups, { ...options, name: `webhooks-${round}` });
      await server.waitReady();
    }

    const drainStarted = performance.now();
    await until(
      async () => (await followerLag(databaseUrl)) === 0 && (await pendingDeliveries(databaseUrl)) === 0,
      180_000,
      'the deliveries to drain',
    );
    const drainMs = performance.now() - drainStarted;
    await server.stop();

    const events = await derivedEvents(databaseUrl);
    const arrivals = receiver.arrivals;
    const arrivedIds = new Set(arrivals.map((arrival) => arrival.id));
    const lost = events.filter((event) => !arrivedIds.has(event));
    const repeats = arrivals.length - arrivedIds.size;
    const byListing = new Map<number, Arrival[]>();
    for (const arrival of arrivals) byListing.set(arrival.listingId, [...(byListing.get(arrival.listingId) ?? []), arrival]);
    const reordered: string[] = [];
    for (const [listingId, list] of byListing) {
      for (let i = 1; i < list.length; i++) {
        if (list[i]!.sequence < list[i - 1]!.sequence) {
          reordered.push(`listing ${listingId}: ${list[i - 1]!.sequence} then ${list[i]!.sequence}`);
          break;
        }
      }
    }
    const staleTitle: string[] = [];
    const notCreated: number[] = [];
    // The database is the truth: a write the kill cut may have committed after its last acknowledged one.
    const stored = await storedTitles(databaseUrl);
    for (const [listingId, acknowledged] of titles) {
      const title = stored.get(listingId) ?? `(gone; last acknowledged "${acknowledged}")`;
      const list = byListing.get(listingId) ?? [];
      if (!list.some((arrival) => arrival.type === 'listing.created')) notCreated.push(listingId);
      const last = list[list.length - 1];
      if (last?.title !== title) staleTitle.push(`listing ${listingId}: last arrival "${last?.title ?? 'none'}", stored "${title}"`);
    }
    const unsigned = arrivals.filter((arrival) => !arrival.signed).length;
    figure(
      `after the restart: drained in ${ms(drainMs)}; events derived ${count(events.length)}, arrivals ${count(arrivals.length)} ` +
        `(${count(repeats)} repeats of a delivery whose answer a kill cut), listings ${count(titles.size)}, writes cut by the kills ${unanswered}`,
    );
    if (acknowledgedWrites === 0) problems.push('no write was acknowledged');
    if (lost.length > 0) problems.push(`${lost.length} derived events never arrived (e.g. ${lost.slice(0, 3).join(', ')})`);
    if (reordered.length > 0)
      problems.push(`${reordered.length} listings' events arrived out of order (${reordered.slice(0, 3).join('; ')})`);
    if (notCreated.length > 0)
      problems.push(
        `${notCreated.length} acknowledged listings never arrived as listing.created (e.g. ${notCreated.slice(0, 3).join(', ')})`,
      );
    if (staleTitle.length > 0)
      problems.push(`${staleTitle.length} listings' last arrival is not their last write (${staleTitle.slice(0, 3).join('; ')})`);
    if (unsigned > 0) problems.push(`${unsigned} arrivals without a valid signature`);
    return verdict(
      `${rounds} kills under ${writers} writers: ${count(acknowledgedWrites)} acknowledged writes, ${count(events.length)} events, ` +
        `all arrived, in order per listing (${count(repeats)} repeats)`,
      problems.slice(0, 8),
    );
  },
};

/** A receiver on 127.0.0.1 that answers 200 to everything and records each request, in arrival order. */
async function startReceiver(cleanups: Cleanups) {
  const state = { secret: '', arrivals: [] as Arrival[], base: '', inFlight: 0 };
  const server = http.createServer((req, res) => {
    state.inFlight++;
    res.on('close', () => state.inFlight--);
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        const parsed = JSON.parse(body) as {
          id: string;
          type: string;
          sequence: number;
          data: { id: number; record: { title: string } | null };
        };
        state.arrivals.push({
          id: parsed.id,
          type: parsed.type,
          sequence: parsed.sequence,
          listingId: parsed.data.id,
          title: parsed.data.record?.title ?? null,
          signed: signed(state.secret, req.headers, body),
        });
      } catch {
        // not an event: counted nowhere
      }
      // A receiver that takes a while: the kill then finds deliveries in flight, whose answers it cuts.
      setTimeout(() => res.end('ok'), RECEIVER_DELAY_MS);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.add(() => new Promise<void>((resolve) => server.close(() => resolve())));
  state.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return state;
}

/** The Standard Webhooks check of docs/webhooks.md. */
function signed(secret: string, headers: http.IncomingHttpHeaders, body: string): boolean {
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key)
    .update(`${String(headers['webhook-id'])}.${String(headers['webhook-timestamp'])}.${body}`)
    .digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((part) => {
      const given = Buffer.from(part.slice('v1,'.length), 'base64');
      return part.startsWith('v1,') && given.length === expected.length && timingSafeEqual(given, expected);
    });
}

/** An administrator made by the CLI (`create-admin`), signed in. */
async function administrator(port: number, databaseUrl: string, dir: string, username: string): Promise<string> {
  await promisify(execFile)(
    process.execPath,
    ['dist/main.js', 'create-admin', '--email', `${username}@chaos.example`, '--password', ADMIN_PASSWORD, '--username', username],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? dir,
        DATABASE_URL: databaseUrl,
        JWT_SECRET: 'chaos-create-admin-secret-0123456789-abcdef',
        DATA_DIR: path.join(dir, 'data'),
        UPLOAD_DIR: path.join(dir, 'uploads'),
        LOG_LEVEL: 'warn',
      },
    },
  );
  const data = await expectData<{ token: string }>({
    port,
    method: 'POST',
    path: `${API}/auth/login`,
    body: { username, password: ADMIN_PASSWORD },
  });
  return data.token;
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await condition())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(200);
  }
}

// The database read directly (the change log has no route): the same SQL on both.

async function rows<T>(databaseUrl: string, text: string): Promise<T[]> {
  if (databaseUrl.startsWith('sqlite:')) {
    const db = new SQLite(databaseUrl.slice('sqlite:'.length), { readonly: true, fileMustExist: true });
    try {
      return db.prepare(text).all() as T[];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}

/** How many committed changes the webhook follower has not derived yet (null before it started). */
async function followerLag(databaseUrl: string): Promise<number | null> {
  const [row] = await rows<{ position: string | number | null; head: string | number | null }>(
    databaseUrl,
    `select (select position from webhook_follower where name = 'change-log') as position,
            (select max(seq) from change_log) as head`,
  );
  if (!row || row.position === null) return null;
  return Number(row.head ?? 0) - Number(row.position);
}

async function pendingDeliveries(databaseUrl: string): Promise<number> {
  const [row] = await rows<{ n: string | number }>(databaseUrl, `select count(*) as n from webhook_deliveries where status = 'pending'`);
  return Number(row?.n ?? 0);
}

async function storedTitles(databaseUrl: string): Promise<Map<number, string>> {
  return new Map(
    (await rows<{ id: number; title: string }>(databaseUrl, `select id, title from listings`)).map((row) => [row.id, row.title]),
  );
}

async function derivedEvents(databaseUrl: string): Promise<string[]> {
  return (await rows<{ public_id: string }>(databaseUrl, `select public_id from webhook_events order by seq, id`)).map(
    (row) => row.public_id,
  );
}
