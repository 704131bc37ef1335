import { basisPointsToPercent, fromMinor } from '../../../lib/money.js';
import { toApiTimestamp } from '../../../lib/time.js';
import type { InvoiceRow } from './invoice-ledger.repository.js';
import type { InvoiceRecord } from './invoices.schemas.js';

/** The invoice record (docs/api.md 10): money in major units, the buyer and item as they were invoiced. */
export function toInvoice(row: InvoiceRow): InvoiceRecord {
  return {
    id: row.id,
    number: row.number,
    buyer: { id: row.buyer_id, display_name: row.buyer_name, email: row.buyer_email },
    item: { type: row.item_type, id: row.item_id, title: row.item_title },
    amount: fromMinor(row.amount_minor, row.currency),
    tax: fromMinor(row.tax_minor, row.currency),
    tax_rate: basisPointsToPercent(row.tax_rate_bp),
    total: fromMinor(row.total_minor, row.currency),
    currency: row.currency,
    status: row.status,
    payment_method: row.payment_method,
    recurring: row.recurring === 1,
    created_at: toApiTimestamp(row.created_at),
    paid_at: row.paid_at === null ? null : toApiTimestamp(row.paid_at),
  };
}
