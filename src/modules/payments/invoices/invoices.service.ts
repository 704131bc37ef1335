import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import { pageWindow, paginationOf } from '../../../lib/paging.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { nowIso } from '../../../lib/time.js';
import type { ProfilesService, UserProfileRecord } from '../../users/index.js';
import type { Fulfilment } from '../checkout/fulfilment.service.js';
import type { InvoiceRow } from './invoice-ledger.repository.js';
import { toInvoice } from './invoices.mapper.js';
import * as repository from './invoices.repository.js';
import { INVOICE_READERS, type InvoiceListRecord, type InvoiceRecord, type InvoicesInput } from './invoices.schemas.js';

type ProfileReader = Pick<ProfilesService, 'profileFor'>;
type Settler = Pick<Fulfilment, 'settle'>;

/**
 * Invoices as their buyers and the staff read them (docs/api.md 3.2), the administrator's archiving, and the
 * manual settling of bank transfers. Invoices are written by checkout through the ledger (invoice-ledger.repository.ts).
 */
export class InvoicesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly profiles: ProfileReader,
    private readonly fulfilment: Settler,
  ) {}

  /**
   * The caller's invoices, or everyone's for administrators and managers (who may narrow them to one buyer
   * with `user_id`; anyone else sending it gets a 400). Newest first; archived invoices never appear.
   */
  async listInvoices(caller: AuthUser, query: InvoicesInput): Promise<InvoiceListRecord> {
    if (query.user_id !== undefined && !isInvoiceReader(caller)) throw AppError.invalidField('user_id', 'payments_rule_staff_only');
    if (query.start_date !== undefined && query.end_date !== undefined && query.end_date < query.start_date) {
      throw AppError.invalidField('end_date', 'invoice_rule_end_before_start');
    }
    const buyerId = isInvoiceReader(caller) ? query.user_id : caller.id;
    const window = pageWindow(query);
    const page = await repository.findInvoicePage(
      this.db,
      {
        ...(buyerId !== undefined ? { buyerId } : {}),
        ...(query.status !== undefined ? { status: query.status } : {}),
        ...(query.start_date !== undefined ? { from: startOfDay(query.start_date) } : {}),
        ...(query.end_date !== undefined ? { until: startOfNextDay(query.end_date) } : {}),
      },
      window,
    );
    return { invoices: page.rows.map(toInvoice), pagination: paginationOf(page.total, window) };
  }

  /** One invoice for its buyer, administrators and managers; 404 for anyone else and once archived. */
  async getInvoice(caller: AuthUser, id: number): Promise<InvoiceRecord> {
    const row = await repository.findInvoice(this.db, id);
    if (!row || !(isInvoiceReader(caller) || row.buyer_id === caller.id)) throw AppError.notFound();
    return toInvoice(row);
  }

  /**
   * The invoices among `ids` that exist and are not archived, as an administrator reads them, by id: what the
   * outbound webhooks send as `invoice.paid`.
   */
  async recordsOf(ids: readonly number[]): Promise<Map<number, InvoiceRecord>> {
    return new Map((await repository.findInvoices(this.db, ids)).map((row) => [row.id, toInvoice(row)]));
  }

  /**
   * Archives an invoice (kept for accounting, hidden from everyone) and answers with its buyer's profile, as
   * the Houzez plugin did. An invoice whose buyer deleted their account has no profile to answer with: it stays as
   * it is and the answer is 409 `conflict` (the route is administrator-only; the route checks the role).
   */
  async archiveInvoice(caller: AuthUser, id: number): Promise<UserProfileRecord> {
    const row = await repository.findInvoice(this.db, id);
    if (!row) throw AppError.notFound();
    const buyer = await this.buyerProfile(caller, row);
    if (!(await repository.archiveInvoice(this.db, id, nowIso()))) throw AppError.notFound();
    return buyer;
  }

  /**
   * An administrator confirms that a bank transfer arrived: the pending invoice is settled (marked paid and
   * its item delivered) in one transaction. Any other state or method → 409 `invalid_transition`.
   */
  async markPaid(id: number): Promise<InvoiceRecord> {
    assertSettlesByHand(await this.existingInvoice(id));
    const settled = await this.db.transaction().execute((trx) => this.fulfilment.settle(trx, id, { paidAt: new Date() }));
    if (settled) return toInvoice(settled);
    // Another request settled, cancelled or archived it between the check and the update.
    assertSettlesByHand(await this.existingInvoice(id));
    throw new AppError('conflict');
  }

  private async existingInvoice(id: number): Promise<InvoiceRow> {
    const row = await repository.findInvoice(this.db, id);
    if (!row) throw AppError.notFound();
    return row;
  }

  /** The buyer's full profile (an administrator reads it); 409 when the account was deleted. */
  private async buyerProfile(caller: AuthUser, row: InvoiceRow): Promise<UserProfileRecord> {
    if (row.buyer_id === null) throw new AppError('conflict', 'invoice_buyer_deleted');
    try {
      // An administrator is always given the full profile (ProfilesService.profileFor).
      return (await this.profiles.profileFor(caller, row.buyer_id)) as UserProfileRecord;
    } catch (error) {
      // Deleted since the invoice was read (the delete sets buyer_id to null).
      if (error instanceof AppError && error.code === 'not_found') throw new AppError('conflict', 'invoice_buyer_deleted');
      throw error;
    }
  }
}

function isInvoiceReader(caller: AuthUser): boolean {
  return (INVOICE_READERS as readonly string[]).includes(caller.role);
}

/** Only a pending bank transfer is settled by hand: card payments settle through Stripe, free items at once. */
function assertSettlesByHand(row: InvoiceRow): void {
  if (row.payment_method !== 'bank_transfer') {
    throw new AppError('invalid_transition', 'invoice_not_bank_transfer', [], { method: row.payment_method });
  }
  if (row.status !== 'pending') throw new AppError('invalid_transition', 'invoice_not_pending', [], { status: row.status });
}

/** The first stored timestamp of a UTC day (`2026-01-31` → `2026-01-31T00:00:00.000Z`). */
function startOfDay(day: string): string {
  return `${day}T00:00:00.000Z`;
}

/** The first stored timestamp after a UTC day: the bound that makes `end_date` inclusive. */
function startOfNextDay(day: string): string {
  const next = new Date(startOfDay(day));
  next.setUTCDate(next.getUTCDate() + 1);
  return nowIso(next);
}
