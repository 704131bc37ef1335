import type { Kysely } from 'kysely';
import { requeueAllDead, requeueDead } from '../../../db/outbox.js';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import { pageWindow, paginationOf } from '../../../lib/paging.js';
import { nowIso, toApiTimestamp } from '../../../lib/time.js';
import * as repository from './deliveries.repository.js';
import type {
  DeliveriesQueryInput,
  DeliveryListRecord,
  DeliveryRecord,
  RetriedDeliveriesRecord,
  RetryDeadInput,
} from './deliveries.schemas.js';

/**
 * The administrator's view of the outbox (jobs/outbox.ts): the e-mail, push and payment messages the worker
 * sends, above all the `dead` ones it gave up on, and putting one of those back in the queue.
 */
export class DeliveriesService {
  constructor(private readonly db: Kysely<DB>) {}

  async list(query: DeliveriesQueryInput): Promise<DeliveryListRecord> {
    const window = pageWindow(query);
    const filter: repository.DeliveryFilter = {
      status: query.status ?? 'dead',
      ...(query.channel !== undefined ? { channel: query.channel } : {}),
    };
    const [rows, total] = await Promise.all([
      repository.findDeliveries(this.db, filter, { limit: window.perPage, offset: window.offset }),
      repository.countDeliveries(this.db, filter),
    ]);
    return { deliveries: rows.map(toDelivery), pagination: paginationOf(total, window) };
  }

  /**
   * A dead message goes back to `pending` with no attempts, due now: the worker sends it on its next run
   * with the full number of attempts again. Its idempotency key stays, so a receiver that did get an
   * earlier attempt can drop the repeat. Unknown → 404; not dead → 409 `invalid_transition`.
   */
  async retry(id: number, now = new Date()): Promise<DeliveryRecord> {
    const requeued = await requeueDead(this.db, id, nowIso(now));
    const row = await repository.findDelivery(this.db, id);
    if (!row) throw AppError.notFound();
    if (!requeued) throw new AppError('invalid_transition', 'notification_delivery_not_dead', [], { status: row.status });
    return toDelivery(row);
  }

  /**
   * `retry` for every dead message, or every dead one of a channel, in one statement (so one transaction):
   * each goes back to `pending` with no attempts, due now, keeping its idempotency key. Unbounded, since a
   * single update holds no rows in memory; a message that is not dead is left alone, and of two such
   * requests racing each message moves once.
   */
  async retryAll(filter: RetryDeadInput, now = new Date()): Promise<RetriedDeliveriesRecord> {
    const retried = await requeueAllDead(this.db, filter.channel !== undefined ? { channel: filter.channel } : {}, nowIso(now));
    return { retried };
  }
}

function toDelivery(row: repository.DeliveryRow): DeliveryRecord {
  return {
    id: row.id,
    channel: row.channel,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    idempotency_key: row.idempotency_key,
    created_at: toApiTimestamp(row.created_at),
    available_at: toApiTimestamp(row.available_at),
    sent_at: row.sent_at === null ? null : toApiTimestamp(row.sent_at),
  };
}
