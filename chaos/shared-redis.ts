import { setTimeout as sleep } from 'node:timers/promises';
import {
  API,
  type Check,
  deleteRedisKeys,
  expectData,
  figure,
  findRedis,
  ms,
  register,
  request,
  scratchDatabase,
  ServerProcess,
  skip,
  uniqueName,
  verdict,
} from './lib.js';

/**
 * Check 4: two server processes, A and B, on one database (the same SQLite file, or one PostgreSQL
 * database) and one Redis, with a REDIS_KEY_PREFIX of this run's own.
 *
 * - Sessions: sign in on A, use the token on B (so that B caches the session), log out on A: the very next
 *   request with that token on B must be a 401. Three accounts. If B still accepts it, the check polls for
 *   up to 5 s to say how long the revocation took to arrive.
 * - Rate limit: RATE_LIMIT_PER_MINUTE=50; 60 requests to GET /property-types, alternately A and B, from a
 *   source address no other request used (127.0.0.2, a budget of its own): requests 1–50 must be 200 and
 *   51–60 must be 429.
 */

const PER_MINUTE = 50;
const SENT = 60;
const USERS = 3;
const REVOCATION_POLL_MS = 5_000;

export const sharedRedis: Check = {
  name: 'shared-redis',
  title: '4. two processes sharing Redis',
  async run({ target, dir, cleanups }) {
    const redis = await findRedis();
    if ('unreachable' in redis) return skip(`no Redis: ${redis.unreachable}`);
    const prefix = `${uniqueName()}:`;
    cleanups.add(() => deleteRedisKeys(redis.url, prefix));
    const databaseUrl = await scratchDatabase(target, dir, cleanups, 'shared');
    const env = {
      REDIS_URL: redis.url,
      REDIS_KEY_PREFIX: prefix,
      RATE_LIMIT_PER_MINUTE: String(PER_MINUTE),
      AUTH_RATE_LIMIT_PER_MINUTE: '1000',
      SEED_DEMO: 'true',
    };
    // One after the other: A migrates and seeds the new database, B finds it ready.
    const a = await ServerProcess.start(cleanups, { databaseUrl, dir, env, name: 'server-a' });
    await a.waitReady();
    const b = await ServerProcess.start(cleanups, { databaseUrl, dir, env, name: 'server-b' });
    await b.waitReady();
    figure(`A on :${a.port}, B on :${b.port}, ${target.kind} database shared, Redis ${redis.url} with prefix ${prefix}`);

    const problems: string[] = [];

    // Sessions
    const run = uniqueName();
    let refusedAtOnce = 0;
    for (let i = 0; i < USERS; i++) {
      const user = await register(a.port, `${run}_s${i}`, 'buyer');
      const login = await expectData<{ token: string }>({
        port: a.port,
        method: 'POST',
        path: `${API}/auth/login`,
        body: { username: user.email, password: user.password },
      });
      const token = login.token;
      const onB = await request({ port: b.port, method: 'POST', path: `${API}/auth/validate-token`, token });
      if (onB.status !== 200) problems.push(`user ${i}: the new token answered ${onB.status} on B before the logout`);
      await expectData({ port: a.port, method: 'POST', path: `${API}/auth/logout`, token, body: {} });
      const afterOnB = await request({ port: b.port, method: 'POST', path: `${API}/auth/validate-token`, token });
      const afterOnA = await request({ port: a.port, method: 'POST', path: `${API}/auth/validate-token`, token });
      let line = `user ${i}: before logout B ${onB.status}; after logout on A: B ${afterOnB.status}, A ${afterOnA.status}`;
      if (afterOnB.status === 401) refusedAtOnce++;
      else {
        const lag = await revocationLag(b.port, token, `127.0.1.${i + 1}`);
        line += lag === undefined ? `; B still accepts it after ${REVOCATION_POLL_MS / 1000} s` : `; B refused it ${ms(lag)} later`;
        problems.push(`user ${i}: the token still worked on B right after the logout on A (${afterOnB.status})`);
      }
      if (afterOnA.status !== 401) problems.push(`user ${i}: the token still works on A after its logout (${afterOnA.status})`);
      figure(line);
    }

    // Shared rate limit, from an address of its own
    const statuses: number[] = [];
    for (let n = 1; n <= SENT; n++) {
      const server = n % 2 === 1 ? a : b;
      const response = await request({ port: server.port, path: `${API}/property-types`, localAddress: '127.0.0.2' });
      statuses.push(response.status);
    }
    const first429 = statuses.indexOf(429) + 1;
    const ok = statuses.filter((status) => status === 200).length;
    const limited = statuses.filter((status) => status === 429).length;
    figure(
      `rate limit ${PER_MINUTE}/min, ${SENT} requests alternately A and B from 127.0.0.2: ${ok} × 200, ${limited} × 429, ` +
        `first 429 at request #${first429 || 'none'}${first429 ? ` (on ${first429 % 2 === 1 ? 'A' : 'B'})` : ''}`,
    );
    const expected = statuses.every((status, index) => status === (index < PER_MINUTE ? 200 : 429));
    if (!expected) {
      const wrong = statuses
        .map((status, index) => [index + 1, status] as const)
        .filter(([n, status]) => status !== (n <= PER_MINUTE ? 200 : 429));
      problems.push(
        `rate limit not shared as expected: ${wrong
          .slice(0, 5)
          .map(([n, status]) => `#${n} answered ${status}`)
          .join(', ')}${wrong.length > 5 ? ', …' : ''}`,
      );
    }

    await Promise.all([a.stop(), b.stop()]);
    return verdict(
      `logout on A refused on B at once for ${refusedAtOnce}/${USERS} tokens; ${SENT} requests over A+B at ${PER_MINUTE}/min: ` +
        `first 429 at #${first429 || 'none'}`,
      problems,
    );
  },
};

/**
 * Milliseconds until B refuses the token, polling every 110 ms (under the budget of 50 a minute) for up to 5 s;
 * undefined if it never does. From an address of its own (`localAddress`), so that the polls do not spend
 * the budget the rate-limit part counts.
 */
async function revocationLag(port: number, token: string, localAddress: string): Promise<number | undefined> {
  const started = performance.now();
  while (performance.now() - started < REVOCATION_POLL_MS) {
    await sleep(110);
    const response = await request({ port, method: 'POST', path: `${API}/auth/validate-token`, token, localAddress });
    if (response.status === 401) return performance.now() - started;
  }
  return undefined;
}
