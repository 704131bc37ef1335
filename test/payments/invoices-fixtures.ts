import type { LightMyRequestResponse } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB, InvoiceItemType, InvoiceStatus, PackagesTable, PaymentMethod, Role, UserRow } from '../../src/db/schema/index.js';
import { createInvoice, type InvoiceRow } from '../../src/modules/payments/invoices/invoice-ledger.repository.js';
import type { PackageRow } from '../../src/modules/payments/packages/packages.mapper.js';
import type { TestApp } from '../helpers/app.js';
import { newSignedInUser, unique } from '../helpers/factories.js';

export const API = '/realty-api/v1';
export type Auth = Record<string, string>;

/** A new user of the role, signed in. */
export function signedIn(t: TestApp, role: Role = 'buyer'): Promise<{ user: UserRow; auth: Auth }> {
  return newSignedInUser(t, { role });
}

/** A package stored directly (19.00 USD a month, 10 listings, 2 featured); `overrides` set any column. */
export async function newPackage(db: Kysely<DB>, overrides: Partial<Insertable<PackagesTable>> = {}): Promise<PackageRow> {
  const at = new Date().toISOString();
  return db
    .insertInto('packages')
    .values({
      title: unique('Package '),
      price_minor: 1900,
      currency: 'USD',
      listings_included: 10,
      featured_included: 2,
      billing_period: 'month',
      created_at: at,
      updated_at: at,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface InvoiceOptions {
  item?: { type: InvoiceItemType; id: number; title?: string };
  amountMinor?: number;
  taxRateBp?: number;
  currency?: string;
  method?: PaymentMethod;
  recurring?: boolean;
  /** When the invoice is created (and so its number's year). */
  at?: Date;
  /** Moved there after creation, as checkout, Stripe or a refund would. */
  status?: InvoiceStatus;
}

/** An invoice of `buyer` written through the ledger, as checkout does (bank transfer of 10.00 USD + 20 % by default). */
export async function newInvoice(db: Kysely<DB>, buyer: UserRow, options: InvoiceOptions = {}): Promise<InvoiceRow> {
  const item = options.item ?? { type: 'listing', id: 1 };
  const row = await db.transaction().execute((trx) =>
    createInvoice(
      trx,
      {
        buyer: { id: buyer.id, name: buyer.display_name, email: buyer.email },
        item: { type: item.type, id: item.id, title: item.title ?? 'An item' },
        amountMinor: options.amountMinor ?? 1000,
        currency: options.currency ?? 'USD',
        taxRateBp: options.taxRateBp ?? 2000,
        method: options.method ?? 'bank_transfer',
        recurring: options.recurring ?? false,
      },
      options.at,
    ),
  );
  if (!options.status || options.status === 'pending') return row;
  return db
    .updateTable('invoices')
    .set({ status: options.status, ...(options.status === 'paid' ? { paid_at: row.created_at } : {}) })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function invoiceRow(db: Kysely<DB>, id: number): Promise<InvoiceRow> {
  return db.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
}

/** The error body of docs/api.md 0.2, with the fields a 400 names when given. */
export function expectError(res: LightMyRequestResponse, status: number, code: string, fields?: string[]): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ success: false, code, message: expect.any(String), request_id: expect.any(String) });
  if (fields) expect((res.json().errors as { field: string }[]).map((error) => error.field).sort()).toEqual([...fields].sort());
}
