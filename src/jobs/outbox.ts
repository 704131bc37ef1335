import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB, OutboxRow } from '../db/schema/index.js';
import type { ChannelSender } from '../db/outbox.js';
import { nowIso } from '../lib/time.js';
import * as repository from './outbox.repository.js';

export interface OutboxWorkerOptions {
  /** How long a claimed message stays invisible to other workers before it is retried (a crashed sender). */
  leaseMs?: number;
  maxAttempts?: number;
  batchSize?: number;
}

/**
 * Sends outbox messages at least once. A message is claimed by moving its `available_at` past a lease with
 * a conditional update, so any number of processes can run workers without sending a message twice at the
 * same time; a worker that dies mid-send leaves the message to be claimed again when the lease runs out.
 * Failures back off exponentially; after `maxAttempts` the message is `dead` and stays for inspection.
 */
export class OutboxWorker {
  private readonly leaseMs: number;
  private readonly maxAttempts: number;
  private readonly batchSize: number;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly senders: Readonly<Record<string, ChannelSender>>,
    private readonly log: FastifyBaseLogger,
    options: OutboxWorkerOptions = {},
  ) {
    this.leaseMs = options.leaseMs ?? 60_000;
    this.maxAttempts = options.maxAttempts ?? 8;
    this.batchSize = options.batchSize ?? 20;
  }

  /** Claims and sends the due messages once; returns how many were sent. */
  async runOnce(now = new Date()): Promise<number> {
    return (await this.sendBatch(now)).sent;
  }

  /**
   * The scheduler's run: batches until the due messages are sent or `budgetMs` has passed; 0 (run again at
   * once) when some may be left.
   */
  async runScheduled(now = new Date(), budgetMs = 2000): Promise<number | undefined> {
    const started = Date.now();
    for (;;) {
      const elapsed = Date.now() - started;
      if ((await this.sendBatch(new Date(now.getTime() + elapsed))).claimed < this.batchSize) return undefined;
      if (Date.now() - started >= budgetMs) return 0;
    }
  }

  private async sendBatch(now: Date): Promise<{ claimed: number; sent: number }> {
    const claimed = await this.claimDue(now);
    let sent = 0;
    for (const message of claimed) {
      if (await this.deliver(message)) sent++;
    }
    return { claimed: claimed.length, sent };
  }

  private async claimDue(now: Date): Promise<OutboxRow[]> {
    const due = await repository.findDueMessages(this.db, nowIso(now), this.batchSize);
    const leaseUntil = nowIso(new Date(now.getTime() + this.leaseMs));
    const claimed: OutboxRow[] = [];
    for (const row of due) {
      if (await repository.claimMessage(this.db, row, leaseUntil))
        claimed.push({ ...row, attempts: row.attempts + 1, available_at: leaseUntil });
    }
    return claimed;
  }

  private async deliver(message: OutboxRow): Promise<boolean> {
    const sender = this.senders[message.channel];
    try {
      if (!sender) throw new Error(`no sender for channel ${message.channel}`);
      const kept = await sender(JSON.parse(message.payload), message);
      await repository.markSent(this.db, message.id, JSON.stringify(kept ?? {}), nowIso());
      return true;
    } catch (error) {
      const dead = message.attempts >= this.maxAttempts;
      const reason = error instanceof Error ? error.message : String(error);
      this.log.warn({ outboxId: message.id, channel: message.channel, attempts: message.attempts, dead, reason }, 'outbox send failed');
      await repository.markFailed(this.db, message.id, {
        dead,
        retryAt: nowIso(new Date(Date.now() + backoffMs(message.attempts))),
        error: reason.slice(0, 1000),
      });
      return false;
    }
  }
}

/** 30 s, 1 min, 2 min, … capped at 1 hour, with jitter so that retries of a burst spread out. */
function backoffMs(attempts: number): number {
  const base = Math.min(3_600_000, 30_000 * 2 ** Math.max(0, attempts - 1));
  return base + (randomBytes(2).readUInt16BE() / 65_535) * base * 0.2;
}
