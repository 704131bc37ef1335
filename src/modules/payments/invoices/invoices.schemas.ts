import { type Static, type TSchema, Type } from 'typebox';
import type { InvoiceItemType, InvoiceStatus, PaymentMethod } from '../../../db/schema/index.js';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../../lib/paging.js';

const INT4_MAX = 2_147_483_647;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const INVOICE_STATUSES = ['pending', 'paid', 'cancelled', 'refunded'] as const satisfies readonly InvoiceStatus[];
export const INVOICE_ITEM_TYPES = ['package', 'listing', 'featured'] as const satisfies readonly InvoiceItemType[];
export const PAYMENT_METHODS = ['stripe', 'bank_transfer', 'free'] as const satisfies readonly PaymentMethod[];

/** Who reads every user's invoices (docs/api.md 3.2); others read their own. */
export const INVOICE_READERS = ['administrator', 'manager'] as const;

/** An invoice (docs/api.md 10): an accounting record, so buyer and item are as they were when invoiced. */
export const Invoice = Type.Object(
  {
    id: Type.Integer(),
    number: Type.String({ description: '`INV-YYYY-NNNNNN`: sequential per year, without gaps' }),
    buyer: Type.Object(
      {
        id: Nullable(Type.Integer({ description: 'null once the buyer’s account was deleted' })),
        display_name: Type.String(),
        email: Type.String(),
      },
      { description: 'As invoiced' },
    ),
    item: Type.Object({
      type: Type.Enum([...INVOICE_ITEM_TYPES]),
      id: Type.Integer({ description: 'The package or listing (it may have been deleted since)' }),
      title: Type.String({ description: 'As invoiced' }),
    }),
    amount: Type.Number({ description: 'Before tax, in major units of `currency`' }),
    tax: Type.Number({ description: '`amount` × `tax_rate`, rounded half up to the currency’s smallest unit' }),
    tax_rate: Type.Number({ description: 'The percentage applied (20 = 20 %)' }),
    total: Type.Number({ description: '`amount` + `tax`' }),
    currency: Type.String({ description: 'ISO 4217' }),
    status: Type.Enum([...INVOICE_STATUSES]),
    payment_method: Type.Enum([...PAYMENT_METHODS]),
    recurring: Type.Boolean({ description: 'Paid by a subscription that renews' }),
    created_at: Type.String({ description: 'ISO 8601 UTC' }),
    paid_at: Nullable(Type.String({ description: 'ISO 8601 UTC; null until paid' })),
  },
  { $id: 'Invoice', title: 'Invoice' },
);
export type InvoiceRecord = Static<typeof Invoice>;

export const InvoiceIdParams = Type.Object(
  { invoice_id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) },
  { additionalProperties: false },
);

const Day = (description: string) => Type.String({ format: 'date', description: `YYYY-MM-DD (UTC), inclusive: ${description}` });

export const InvoicesQuery = Type.Object(
  {
    ...PageQueryFields,
    status: Type.Optional(Type.Enum([...INVOICE_STATUSES])),
    start_date: Type.Optional(Day('invoices created on or after this day')),
    end_date: Type.Optional(Day('invoices created on or before this day; not before `start_date`')),
    user_id: Type.Optional(
      Type.Integer({ minimum: 1, maximum: INT4_MAX, description: 'Administrators and managers: one buyer’s invoices. Others → 400' }),
    ),
  },
  { additionalProperties: false },
);
export type InvoicesInput = Static<typeof InvoicesQuery>;

export const InvoiceList = Type.Object({ invoices: Type.Array(Type.Ref('Invoice')), pagination: Pagination });
export interface InvoiceListRecord {
  invoices: InvoiceRecord[];
  pagination: PaginationRecord;
}
