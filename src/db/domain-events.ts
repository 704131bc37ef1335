import type { Kysely, Transaction } from 'kysely';
import { nowIso } from '../lib/time.js';
import type { DB } from './schema.js';

export type DomainEventType =
  | 'new_lead'
  | 'new_review'
  | 'payment_received'
  | 'membership_activated'
  | 'membership_expiring'
  | 'membership_expired';

/**
 * Records that something happened which users should hear about. Call it with the transaction of the
 * change, so that the event exists exactly when the change does; the notifications module reads pending
 * events (`processed_at` null) in id order and turns them into notifications.
 */
export async function recordEvent(
  db: Kysely<DB> | Transaction<DB>,
  type: DomainEventType,
  payload: Record<string, unknown>,
  now = new Date(),
): Promise<void> {
  await db.insertInto('domain_events').values({ type, payload: JSON.stringify(payload), created_at: nowIso(now) }).execute();
}
