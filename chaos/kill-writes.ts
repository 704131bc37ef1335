import { setTimeout as sleep } from 'node:timers/promises';
import {
  API,
  type Check,
  count,
  expectData,
  figure,
  message,
  positiveInteger,
  register,
  request,
  scratchDatabase,
  ServerProcess,
  type SignedIn,
  uniqueName,
  verdict,
} from './lib.js';

/**
 * Check 1: kill -9 under concurrent writes. 20 signed-in sellers create listings through the API as fast as
 * they can; after a random 1.5–3 s the server gets SIGKILL, mid-write. It is started again on the same
 * database and every listing whose creation was acknowledged (201 received) is read back by its owner and
 * compared with what was sent. Three rounds; each round checks every acknowledged listing so far.
 */

interface Write {
  owner: SignedIn;
  id: number;
  title: string;
  description: string;
  price: number;
}

/** Rate limits off: 20 writers from one address would otherwise meet the per-IP budget. */
const ENV = { RATE_LIMIT_ENABLED: 'false' };

export const killWrites: Check = {
  name: 'kill-writes',
  title: '1. kill -9 under concurrent writes',
  async run({ target, dir, cleanups }) {
    const writers = positiveInteger('CHAOS_WRITERS', 20);
    const rounds = positiveInteger('CHAOS_KILL_ROUNDS', 3);
    const databaseUrl = await scratchDatabase(target, dir, cleanups);
    const options = { databaseUrl, dir, env: ENV };

    let server = await ServerProcess.start(cleanups, { ...options, name: 'writes-0' });
    await server.waitReady();
    const run = uniqueName();
    const users: SignedIn[] = [];
    for (let i = 0; i < writers; i++) users.push(await register(server.port, `${run}_w${i}`));

    const acknowledged: Write[] = [];
    const problems: string[] = [];
    let totalUnanswered = 0;
    let lastIntact = 0;
    for (let round = 1; round <= rounds; round++) {
      let killed = false;
      let sequence = 0;
      const roundWrites: Write[] = [];
      let unanswered = 0;
      let otherStatus = 0;
      let inFlight = 0;
      const port = server.port;
      const writer = async (owner: SignedIn, index: number) => {
        while (!killed) {
          const n = ++sequence;
          const body = {
            title: `Chaos r${round} w${index} n${n}`,
            description: `Written by writer ${index} in round ${round}, number ${n}, run ${run}.`,
            price: 100_000 + n,
          };
          inFlight++;
          try {
            const response = await request({
              port,
              method: 'POST',
              path: `${API}/properties`,
              token: owner.token,
              body,
              timeoutMs: 20_000,
            });
            if (response.status === 201) {
              const id = (JSON.parse(response.text) as { data: { id: number } }).data.id;
              roundWrites.push({ owner, id, ...body });
            } else {
              otherStatus++;
              if (otherStatus <= 3) figure(`round ${round}: a write answered ${response.status}: ${response.text.slice(0, 200)}`);
            }
          } catch {
            unanswered++; // refused or cut by the kill: not acknowledged, so nothing is promised
            if (!killed) await sleep(10);
          } finally {
            inFlight--;
          }
        }
      };
      const writing = users.map((user, index) => writer(user, index));
      const killAfterMs = 1_500 + Math.random() * 1_500;
      await sleep(killAfterMs);
      const inFlightAtKill = inFlight;
      killed = true; // no new writes; those in flight are cut by the kill
      await server.kill();
      await Promise.all(writing);
      acknowledged.push(...roundWrites);
      totalUnanswered += unanswered;

      server = await ServerProcess.start(cleanups, { ...options, name: `writes-${round}` });
      await server.waitReady();
      const check = await readBack(server.port, acknowledged);
      lastIntact = check.intact;
      const stored = await storedThisRound(server.port, users, round);
      figure(
        `round ${round}: SIGKILL after ${(killAfterMs / 1000).toFixed(1)} s with ${inFlightAtKill} writes in flight; ` +
          `acknowledged this round ${count(roundWrites.length)}, unanswered ${unanswered}, other answers ${otherStatus}, ` +
          `stored this round ${count(stored)} (${count(stored - roundWrites.length)} of them unacknowledged); ` +
          `after restart: acknowledged so far ${count(acknowledged.length)}, found intact ${count(check.intact)}` +
          (check.missing.length + check.changed.length > 0 ? `, missing ${check.missing.length}, changed ${check.changed.length}` : ''),
      );
      if (roundWrites.length === 0) problems.push(`round ${round}: no write was acknowledged before the kill`);
      if (otherStatus > 0) problems.push(`round ${round}: ${otherStatus} writes answered with a status other than 201`);
      for (const miss of check.missing.slice(0, 5)) problems.push(`round ${round}: acknowledged listing ${miss} not found`);
      for (const change of check.changed.slice(0, 5)) problems.push(`round ${round}: listing ${change}`);
      if (check.missing.length > 5 || check.changed.length > 5) problems.push(`round ${round}: and more`);
    }
    await server.stop();
    return verdict(
      `${rounds} rounds of ${writers} writers: acknowledged ${count(acknowledged.length)}, found intact ${count(lastIntact)} (unanswered at the kills: ${totalUnanswered})`,
      problems,
    );
  },
};

/** Listings of this round in the database, acknowledged or not: each writer's own, by their title's prefix. */
async function storedThisRound(port: number, users: readonly SignedIn[], round: number): Promise<number> {
  let total = 0;
  for (const [index, user] of users.entries()) {
    const keyword = encodeURIComponent(`Chaos r${round} w${index} n`);
    const data = await expectData<{ pagination: { total_records: number } }>({
      port,
      path: `${API}/users/my-properties?keyword=${keyword}&per_page=1`,
      token: user.token,
    });
    total += data.pagination.total_records;
  }
  return total;
}

/** Reads every acknowledged listing back as its owner, ten at a time, and compares it with what was sent. */
async function readBack(port: number, writes: readonly Write[]): Promise<{ intact: number; missing: number[]; changed: string[] }> {
  let intact = 0;
  const missing: number[] = [];
  const changed: string[] = [];
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < writes.length; i = next++) {
      const write = writes[i]!;
      let response;
      try {
        response = await request({ port, path: `${API}/properties/${write.id}`, token: write.owner.token });
      } catch (error) {
        changed.push(`${write.id}: could not be read (${message(error)})`);
        continue;
      }
      if (response.status === 404) {
        missing.push(write.id);
        continue;
      }
      if (response.status !== 200) {
        changed.push(`${write.id}: GET answered ${response.status}`);
        continue;
      }
      const data = (JSON.parse(response.text) as { data: { title: string; description: string; price: number; author?: { id: number } } })
        .data;
      const same =
        data.title === write.title &&
        data.description === write.description &&
        data.price === write.price &&
        data.author?.id === write.owner.userId;
      if (same) intact++;
      else changed.push(`${write.id}: reads back different (${JSON.stringify({ title: data.title, price: data.price })})`);
    }
  };
  await Promise.all(Array.from({ length: 10 }, reader));
  return { intact, missing, changed };
}
