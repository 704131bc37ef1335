import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import * as repository from './auth.repository.js';

const MAX_FAILURES = 5;
const WINDOW_MS = 15 * 60_000;
const LOCK_MS = 15 * 60_000;

/**
 * docs/api.md 0.6/12: 5 failed logins for one account within 15 minutes lock it for 15 minutes (429 with
 * Retry-After). Counted in the database, so every process shares it, and kept on whatever the rate-limit
 * settings say. Known accounts are counted by id (a username and an e-mail name the same account);
 * unknown names by the name, so that locking tells nothing about which accounts exist.
 */
export class LoginLocks {
  constructor(private readonly db: Kysely<DB>) {}

  static keyFor(login: string, userId: number | undefined): string {
    return userId === undefined ? `login:${login.toLowerCase()}` : `user:${userId}`;
  }

  /** Throws 429 while the key is locked; tells whether failures are on record (a success then clears them). */
  async assertOpen(key: string, now = new Date()): Promise<{ hasFailures: boolean }> {
    const lock = await repository.findLoginLock(this.db, key);
    if (lock?.locked_until && lock.locked_until > nowIso(now)) {
      const seconds = Math.max(1, Math.ceil((Date.parse(lock.locked_until) - now.getTime()) / 1000));
      throw new AppError('rate_limited', 'rate_limited', [], { seconds });
    }
    return { hasFailures: lock !== undefined };
  }

  async recordFailure(key: string, now = new Date()): Promise<void> {
    const failures = await repository.countLoginFailure(this.db, key, nowIso(now), nowIso(new Date(now.getTime() - WINDOW_MS)));
    if (failures >= MAX_FAILURES) await repository.lockLogin(this.db, key, nowIso(new Date(now.getTime() + LOCK_MS)));
  }

  async clear(keys: readonly string[]): Promise<void> {
    await repository.clearLoginLocks(this.db, keys);
  }
}
