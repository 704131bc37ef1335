import type { Transaction } from 'kysely';
import type { DB, InvoiceStatus } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';

/**
 * Remembers a webhook event as handled, in the transaction that handles it. False when it was handled
 * before (a replay): the primary key refuses the second row, and on PostgreSQL a concurrent delivery of the
 * same event waits here for the first one's transaction and then finds the row.
 */
export async function recordStripeEvent(trx: Transaction<DB>, id: string, type: string, now = new Date()): Promise<boolean> {
  const inserted = await trx
    .insertInto('stripe_events')
    .values({ id, type, received_at: nowIso(now) })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function findInvoiceStatus(trx: Transaction<DB>, id: number): Promise<InvoiceStatus | undefined> {
  const row = await trx.selectFrom('invoices').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status;
}
