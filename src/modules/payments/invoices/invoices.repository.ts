import type { InvoiceStatus } from '../../../db/schema/index.js';
import type { PageWindow } from '../../../lib/paging.js';
import type { InvoiceRow } from './invoice-ledger.repository.js';
import type { Executor } from '../../../db/executor.js';

/** Invoice reads and archiving (docs/api.md 3.2); invoices are written by the ledger (invoice-ledger.repository.ts). */

export interface InvoiceFilter {
  buyerId?: number;
  status?: InvoiceStatus;
  /** Stored timestamps (ISO 8601 UTC, which sort as text): created at or after `from`, strictly before `until`. */
  from?: string;
  until?: string;
}

/**
 * One page of the invoices that are not archived, newest first (created_at, then id, descending), and their
 * total. A buyer's invoices walk invoices_buyer_idx (buyer_id, created_at, id); all of them invoices_created_idx.
 */
export async function findInvoicePage(
  db: Executor,
  filter: InvoiceFilter,
  window: PageWindow,
): Promise<{ rows: InvoiceRow[]; total: number }> {
  let query = db.selectFrom('invoices').where('archived_at', 'is', null);
  if (filter.buyerId !== undefined) query = query.where('buyer_id', '=', filter.buyerId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('created_at', '>=', filter.from);
  if (filter.until !== undefined) query = query.where('created_at', '<', filter.until);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(window.perPage).offset(window.offset).execute(),
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** An invoice that is not archived (archived invoices are 404 for everyone, docs/api.md 12). */
export async function findInvoice(db: Executor, id: number): Promise<InvoiceRow | undefined> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).where('archived_at', 'is', null).executeTakeFirst();
}

/** The invoices among `ids` that exist and are not archived. */
export async function findInvoices(db: Executor, ids: readonly number[]): Promise<InvoiceRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('invoices').selectAll().where('id', 'in', ids).where('archived_at', 'is', null).execute();
}

/** Archives an invoice that is not archived yet; false when another request archived it first. */
export async function archiveInvoice(db: Executor, id: number, at: string): Promise<boolean> {
  const result = await db
    .updateTable('invoices')
    .set({ archived_at: at, updated_at: at })
    .where('id', '=', id)
    .where('archived_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
