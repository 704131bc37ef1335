import type { Role } from '../../db/schema/index.js';

export interface SessionCaller {
  user_id: number;
  role: Role;
  status: 'active' | 'suspended';
  expires_at: string;
  revoked_at: string | null;
}

/**
 * Tells a process whether any session may have been revoked since it cached one. Two ways (revocations.service.ts):
 * a stamp in the database that every revocation moves, read per request where that read is free (the
 * embedded database), or messages pushed through Redis, where the stamp is a local counter of them.
 */
export interface RevocationSignal {
  /** False while revocations could be missed (e.g. the subscription is down): bypass the cache. */
  isTrustworthy(): boolean;
  /** Changes whenever any session was revoked anywhere. */
  stamp(): string | Promise<string>;
}

const MAX_ENTRIES = 10_000;
/** An upper bound on trusting a cached session, whatever the signal says. */
const MAX_AGE_MS = 60_000;

interface Entry<T> {
  caller: T;
  cachedAt: number;
}

/**
 * Sessions this process has verified, so that most authenticated requests skip the database. Any revocation
 * anywhere empties it (revocations are rare next to requests; emptying is simpler and safer than evicting).
 * Machine clients' credentials are cached the same way, under the same signal (modules/api-clients).
 */
export class SessionCache<T = SessionCaller> {
  private readonly entries = new Map<string, Entry<T>>();
  private seenStamp: string | undefined;

  constructor(private readonly signal: RevocationSignal) {}

  /** The cached session, or undefined, with the stamp under which a session read now may be cached. */
  async lookup(sessionId: string): Promise<{ caller: T | undefined; stamp: string | undefined }> {
    if (!this.signal.isTrustworthy()) return { caller: undefined, stamp: undefined };
    const stamp = await this.signal.stamp();
    if (stamp !== this.seenStamp) {
      this.entries.clear();
      this.seenStamp = stamp;
      return { caller: undefined, stamp };
    }
    const entry = this.entries.get(sessionId);
    if (entry && Date.now() - entry.cachedAt <= MAX_AGE_MS) return { caller: entry.caller, stamp };
    if (entry) this.entries.delete(sessionId);
    return { caller: undefined, stamp };
  }

  /** Remembers a session read from the database, unless a revocation was seen since `stamp` was taken. */
  remember(sessionId: string, caller: T, stamp: string | undefined): void {
    if (stamp === undefined || stamp !== this.seenStamp) return;
    if (this.entries.size >= MAX_ENTRIES) {
      const oldest = this.entries.keys().next().value; // insertion order
      if (oldest !== undefined) this.entries.delete(oldest);
    }
    this.entries.set(sessionId, { caller, cachedAt: Date.now() });
  }
}
