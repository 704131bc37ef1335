import { describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../src/modules/accounts/password-hasher.service.js';
import { DEFAULT_PASSWORD } from '../helpers/factories.js';

/**
 * Event-loop turns (setImmediate callbacks) that run while `work` is pending. Work done on the calling thread
 * has settled before the first turn, which is all it gets (1). Work on libuv's thread pool settles in a poll
 * phase, which comes after the check phase of the turn that started it, so it gets at least 2, whatever the
 * machine's load: no clock is read.
 */
async function turnsWhile(work: Promise<unknown>): Promise<number> {
  let settled = false;
  void work.finally(() => (settled = true));
  let turns = 0;
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    turns++;
  }
  await work;
  return turns;
}

// argon2id must run on libuv's thread pool: a burst of logins must not stall other requests (docs/api.md 2).
describe('password hashing and the event loop', () => {
  const hasher = new PasswordHasher();

  it('tells work on the calling thread from work on the pool', async () => {
    expect(await turnsWhile(Promise.resolve(busyFor(20)))).toBe(1);
  });

  it('hashes and verifies off the event loop, for known and unknown accounts alike', async () => {
    expect(await turnsWhile(hasher.hash(DEFAULT_PASSWORD))).toBeGreaterThanOrEqual(2);
    const stored = await hasher.hash(DEFAULT_PASSWORD);
    expect(await turnsWhile(hasher.verify(stored, 'a wrong password'))).toBeGreaterThanOrEqual(2);
    await hasher.verifyAgainstNothing('warm up the dummy hash');
    expect(await turnsWhile(hasher.verifyAgainstNothing('a wrong password'))).toBeGreaterThanOrEqual(2);
  });
});

/** Keeps the calling thread busy for about `ms`, as a hash computed on it would. */
function busyFor(ms: number): number {
  let spins = 0;
  for (const end = performance.now() + ms; performance.now() < end;) spins++;
  return spins;
}
