import type { InvoiceItemType } from '../../../db/schema/index.js';
import { nowIso } from '../../../lib/time.js';
import type { Executor } from '../../../db/executor.js';

/** Checkout storage beyond what the invoice ledger writes (docs/api.md 10). */

/** Whether a paid, not archived invoice exists for the item (a listing fee is paid once). */
export async function hasPaidInvoice(db: Executor, itemType: InvoiceItemType, itemId: number): Promise<boolean> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('item_type', '=', itemType)
    .where('item_id', '=', itemId)
    .where('status', '=', 'paid')
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return row !== undefined;
}

/** Remembers the Stripe Checkout Session that collects the invoice's payment. */
export async function recordCheckoutSession(db: Executor, invoiceId: number, sessionId: string, now = new Date()): Promise<void> {
  await db
    .updateTable('invoices')
    .set({ stripe_session_id: sessionId, updated_at: nowIso(now) })
    .where('id', '=', invoiceId)
    .execute();
}
