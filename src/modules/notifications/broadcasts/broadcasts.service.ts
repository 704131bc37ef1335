import type { Kysely } from 'kysely';
import type { DB, Role, NotificationType } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import * as repository from './broadcasts.repository.js';
import type { Notifier } from '../delivery/notifier.service.js';

export interface BroadcastMessage {
  senderId: number;
  type: NotificationType;
  title: string;
  message: string;
  data: Record<string, unknown>;
  /** Null: every user. */
  role: Role | null;
}

/** Notification rows written per transaction of the fan-out. */
const BATCH_SIZE = 1000;
/** A little less than a tick's worth of work: the job yields, then the scheduler runs it again at once. */
const MAX_BATCHES_PER_RUN = 20;

/**
 * The administrator's notifications to a role or to everyone (docs/api.md 8). The request only queues the
 * broadcast (one row); a background job writes the notifications a batch of users at a time, each batch in
 * one transaction with the broadcast's progress, so a crash resumes after the last batch written and a batch
 * written twice adds nothing (the notifications are keyed by `broadcast:<id>`).
 */
export class Broadcasts {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifier: Notifier,
  ) {}

  /** Queues a broadcast; returns its id and how many users it addresses now. */
  async queue(message: BroadcastMessage, now = new Date()): Promise<{ id: number; recipients: number }> {
    return this.db.transaction().execute(async (trx) => {
      const recipients = await repository.countRecipients(trx, message.role);
      const id = await repository.insertBroadcast(trx, {
        sender_id: message.senderId,
        type: message.type,
        title: message.title,
        message: message.message,
        data: JSON.stringify(message.data),
        role: message.role,
        recipients,
        created_at: nowIso(now),
      });
      return { id, recipients };
    });
  }

  /**
   * Writes the next batches of the oldest queued broadcast; returns 0 when there is more to do (run again at
   * once) and undefined when every broadcast is done.
   */
  async fanOut(now = new Date()): Promise<number | undefined> {
    for (let batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
      const more = await this.fanOutBatch(now);
      if (!more) return (await repository.findQueuedBroadcast(this.db)) ? 0 : undefined;
    }
    return 0;
  }

  /** One batch in one transaction; false when no broadcast is queued. */
  private async fanOutBatch(now: Date): Promise<boolean> {
    const created = await this.db
      .transaction()
      .execute(async (trx) => {
        const broadcast = await repository.findQueuedBroadcast(trx);
        if (!broadcast) return undefined;
        const userIds = await repository.findRecipientsAfter(trx, broadcast.role as Role | null, broadcast.last_user_id, BATCH_SIZE);
        const data = JSON.parse(broadcast.data) as Record<string, unknown>;
        const rows = await this.notifier.announce(
          trx,
          userIds.map((userId) => ({
            userId,
            type: broadcast.type,
            source: `broadcast:${broadcast.id}`,
            text: { title: broadcast.title, message: broadcast.message },
            data,
          })),
          now,
        );
        const last = userIds.at(-1) ?? broadcast.last_user_id;
        const finished = userIds.length < BATCH_SIZE ? nowIso(now) : null;
        // Lost to a concurrent run: throwing rolls this batch back; the other run wrote it.
        if (!(await repository.advanceBroadcast(trx, broadcast.id, broadcast.last_user_id, last, finished))) throw new BatchTaken();
        return rows;
      })
      .catch((error: unknown) => {
        if (error instanceof BatchTaken) return [];
        throw error;
      });
    if (created === undefined) return false;
    this.notifier.publish(created);
    return true;
  }
}

class BatchTaken extends Error {}
