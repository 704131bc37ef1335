import type { Insertable, Kysely } from 'kysely';
import type { CheckoutSession, PaymentGateway } from '../../src/adapters/payments/payment-gateway.js';
import { buildApp, createServices } from '../../src/app.js';
import type { DialectName } from '../../src/db/dialect/index.js';
import type { DB, InvoiceItemType, MembershipsTable, PackagesTable, UserRow } from '../../src/db/schema/index.js';
import { createInvoice, type InvoiceRow } from '../../src/modules/payments/invoices/invoice-ledger.repository.js';
import type { MembershipRow } from '../../src/modules/payments/memberships/memberships.repository.js';
import type { PackageRow } from '../../src/modules/payments/packages/packages.mapper.js';
import { TEST_JWT_SECRET, type TestApp, testConfig } from '../helpers/app.js';
import { createTestDatabase } from '../helpers/database.js';
import { unique } from '../helpers/factories.js';

export const API = '/realty-api/v1';
export const DAY_MS = 86_400_000;

export async function newPackage(db: Kysely<DB>, overrides: Partial<Insertable<PackagesTable>> = {}): Promise<PackageRow> {
  const at = new Date().toISOString();
  return db
    .insertInto('packages')
    .values({
      title: unique('Package '),
      price_minor: 1900,
      currency: 'USD',
      tax_rate_bp: 0,
      listings_included: 10,
      featured_included: 2,
      billing_period: 'month',
      billing_frequency: 1,
      created_at: at,
      updated_at: at,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A membership stored as activation would leave it; `overrides` set any column. */
export async function newMembership(
  db: Kysely<DB>,
  user: UserRow,
  pkg: PackageRow,
  overrides: Partial<Insertable<MembershipsTable>> = {},
): Promise<MembershipRow> {
  const at = new Date().toISOString();
  return db
    .insertInto('memberships')
    .values({
      user_id: user.id,
      package_id: pkg.id,
      status: 'active',
      remaining_listings: pkg.listings_included,
      remaining_featured: pkg.featured_included,
      started_at: at,
      expires_at: new Date(Date.now() + 30 * DAY_MS).toISOString(),
      created_at: at,
      updated_at: at,
      ...overrides,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A pending invoice of `user` for an item, as checkout writes it. */
export async function pendingInvoice(
  db: Kysely<DB>,
  user: UserRow,
  item: { type: InvoiceItemType; id: number },
  options: { amountMinor?: number; taxRateBp?: number; recurring?: boolean } = {},
): Promise<InvoiceRow> {
  return db.transaction().execute((trx) =>
    createInvoice(trx, {
      buyer: { id: user.id, name: user.display_name, email: user.email },
      item: { ...item, title: 'An item' },
      amountMinor: options.amountMinor ?? 1900,
      currency: 'USD',
      taxRateBp: options.taxRateBp ?? 0,
      method: 'stripe',
      recurring: options.recurring ?? false,
    }),
  );
}

export async function membershipOf(db: Kysely<DB>, userId: number): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

/** The payloads of the domain events of a type, oldest first. */
export async function eventsOf(db: Kysely<DB>, type: string): Promise<Record<string, unknown>[]> {
  const rows = await db.selectFrom('domain_events').select('payload').where('type', '=', type).orderBy('id').execute();
  return rows.map((row) => JSON.parse(row.payload) as Record<string, unknown>);
}

/** A PaymentGateway that records its calls and fails when told to. */
export class FakeGateway implements PaymentGateway {
  readonly cancelled: string[] = [];
  failing = false;

  async createCheckoutSession(): Promise<CheckoutSession> {
    throw new Error('not used by these tests');
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    if (this.failing) throw new Error('Stripe is down');
    this.cancelled.push(subscriptionId);
  }

  async cancelNow(): Promise<void> {
    throw new Error('not used by these tests');
  }
}

/**
 * The application as buildTestApp builds it, with the memberships service talking to `gateway` (undefined: no
 * payment provider configured).
 */
export async function buildAppWithGateway(
  dialect: DialectName,
  gateway: PaymentGateway | undefined,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const config = testConfig(env);
  const database = await createTestDatabase(dialect);
  const deps = { config, database, jwtSecret: config.jwtSecret ?? TEST_JWT_SECRET, ...(gateway ? { paymentGateway: gateway } : {}) };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  await app.ready();
  return {
    app,
    database,
    services,
    config,
    close: async () => {
      await app.close();
      await services.shutdown();
      await database.dispose();
    },
  };
}
