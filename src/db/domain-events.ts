import { nowIso } from '../lib/time.js';
import { ageSeconds } from './outbox.js';
import type { ListingState } from './schema/index.js';
import type { Executor } from './executor.js';

export type DomainEventType =
  | 'listing_published'
  | 'property_approved'
  | 'property_disapproved'
  | 'property_expired'
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
export async function recordEvent(db: Executor, type: DomainEventType, payload: Record<string, unknown>, now = new Date()): Promise<void> {
  await db
    .insertInto('domain_events')
    .values({ type, payload: JSON.stringify(payload), created_at: nowIso(now) })
    .execute();
}

export interface ListingMove {
  listingId: number;
  /** Null for a listing created in its state. */
  from: ListingState | null;
  to: ListingState;
  reason: string;
}

/**
 * The events of listing state moves, written with the history row of each move: a listing entering
 * `publish` (saved-search alerts), and the approval, disapproval (with the reason) and expiry its owner hears
 * of (docs/api.md 4.3). Only the approve action moves a `pending` or `disapproved` listing to `publish`.
 */
export async function recordListingMoves(db: Executor, moves: readonly ListingMove[], at: string): Promise<void> {
  const events: { type: DomainEventType; payload: string; created_at: string }[] = [];
  const add = (type: DomainEventType, payload: Record<string, unknown>) =>
    events.push({ type, payload: JSON.stringify(payload), created_at: at });
  for (const move of moves) {
    if (move.to === 'publish') {
      add('listing_published', { listing_id: move.listingId });
      if (move.from === 'pending' || move.from === 'disapproved') add('property_approved', { listing_id: move.listingId });
    } else if (move.to === 'disapproved') {
      add('property_disapproved', { listing_id: move.listingId, reason: move.reason });
    } else if (move.to === 'expired') {
      add('property_expired', { listing_id: move.listingId, reason: move.reason });
    }
  }
  if (events.length > 0) await db.insertInto('domain_events').values(events).execute();
}

/**
 * Domain events not yet turned into notifications, and the age in seconds of the oldest: how far behind
 * notifications and saved-search alerts are (metrics).
 */
export async function pendingEventsLag(db: Executor, now = new Date()): Promise<{ pending: number; oldestAgeSeconds: number }> {
  const row = await db
    .selectFrom('domain_events')
    .select((eb) => [eb.fn.countAll<number | string>().as('pending'), eb.fn.min('created_at').as('oldest')])
    .where('processed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return { pending: Number(row.pending), oldestAgeSeconds: ageSeconds(row.oldest, now) };
}

/** Events turned into notifications (the notifications module's batch), in that batch's transaction; each once. */
export async function markEventsProcessed(db: Executor, ids: readonly number[], at: string): Promise<void> {
  if (ids.length === 0) return;
  await db.updateTable('domain_events').set({ processed_at: at }).where('id', 'in', ids).where('processed_at', 'is', null).execute();
}
