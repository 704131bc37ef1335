import type { LightMyRequestResponse } from 'fastify';
import type { Insertable, Kysely } from 'kysely';
import { expect } from 'vitest';
import type { DB, InvoicesTable, MembershipsTable, PackagesTable, Role, UserRow } from '../../src/db/schema/index.js';
import type { TestApp } from '../helpers/app.js';
import { newSignedInUser, unique } from '../helpers/factories.js';

// Memberships, packages and invoices are inserted as rows: the routes that sell them belong to other modules.

export const API = '/realty-api/v1';
export type Auth = Record<string, string>;

const DAY_MS = 86_400_000;
export const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString();

/** A signed-in user of the given role. */
export function signedIn(t: TestApp, role: Role): Promise<{ user: UserRow; auth: Auth }> {
  return newSignedInUser(t, { role });
}

async function newPackage(db: Kysely<DB>, overrides: Partial<Insertable<PackagesTable>> = {}): Promise<number> {
  const now = new Date().toISOString();
  const row = await db
    .insertInto('packages')
    .values({
      title: unique('Package '),
      price_minor: 1999,
      currency: 'USD',
      listings_included: 10,
      featured_included: 2,
      billing_period: 'month',
      created_at: now,
      updated_at: now,
      ...overrides,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** An active membership of a fresh package, running for 30 more days unless `overrides` say else. */
export async function newMembership(db: Kysely<DB>, userId: number, overrides: Partial<Insertable<MembershipsTable>> = {}): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('memberships')
    .values({
      user_id: userId,
      package_id: overrides.package_id ?? (await newPackage(db)),
      status: 'active',
      remaining_listings: 10,
      remaining_featured: 2,
      started_at: now,
      expires_at: inDays(30),
      created_at: now,
      updated_at: now,
      ...overrides,
    })
    .execute();
}

/** The membership's credits as stored, for checking what was spent. */
export async function creditsOf(
  db: Kysely<DB>,
  userId: number,
): Promise<{ remaining_listings: number | null; remaining_featured: number }> {
  return db
    .selectFrom('memberships')
    .select(['remaining_listings', 'remaining_featured'])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

/** A `listing` (or other item) invoice of the buyer, paid unless `overrides` say else. */
export async function newInvoice(
  db: Kysely<DB>,
  buyer: UserRow,
  itemId: number,
  overrides: Partial<Insertable<InvoicesTable>> = {},
): Promise<void> {
  const now = new Date().toISOString();
  await db
    .insertInto('invoices')
    .values({
      number: unique('INV-TEST-'),
      buyer_id: buyer.id,
      buyer_name: buyer.display_name,
      buyer_email: buyer.email,
      item_type: 'listing',
      item_id: itemId,
      item_title: 'A listing',
      amount_minor: 1000,
      tax_minor: 0,
      total_minor: 1000,
      currency: 'USD',
      tax_rate_bp: 0,
      status: 'paid',
      payment_method: 'bank_transfer',
      created_at: now,
      updated_at: now,
      paid_at: now,
      ...overrides,
    })
    .execute();
}

export async function listingCount(db: Kysely<DB>, authorId: number): Promise<number> {
  const row = await db
    .selectFrom('listings')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('author_id', '=', authorId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function listingRow(db: Kysely<DB>, id: number) {
  return db.selectFrom('listings').select(['status', 'featured', 'title']).where('id', '=', id).executeTakeFirstOrThrow();
}

/** Checks an error answer: status, code and the exact (English unless asked) message, and no field list. */
export function expectError(res: LightMyRequestResponse, status: number, code: string, message?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual({ success: false, code, message: message ?? expect.any(String), request_id: expect.any(String) });
}

export const MESSAGES = {
  noMembership: 'This needs an active membership package. Buy or renew one, then try again.',
  noListingCredits: 'Your membership package has no listing credits left. Renew or upgrade it to list more properties.',
  noFeaturedCredits: 'Your membership package has no featured credits left. Renew or upgrade it to feature more listings.',
  feeUnpaid: 'This listing’s fee is not paid yet. Pay it through checkout (item “listing”), then submit the listing.',
  featuredByCheckout: 'Featuring a listing is bought through checkout (item “featured”).',
};
