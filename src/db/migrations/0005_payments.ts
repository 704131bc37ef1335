import type { Kysely } from 'kysely';
import { identity } from '../dialect/ddl/columns.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Memberships, payments and invoices (docs/api.md 10). Money is integer minor units (`*_minor`, cents), tax rates
 * basis points (`*_bp`, 20 % = 2,000): no floating-point money anywhere. `integer` holds up to 21 million in
 * a two-decimal currency, far above any package, listing fee or their tax.
 *
 * Invoice numbers `INV-YYYY-NNNNNN` come from `invoice_counters`: one row per year, incremented in the
 * transaction that inserts the invoice, so numbers have neither gaps nor duplicates under concurrency (the
 * row lock orders concurrent checkouts; a rolled-back checkout rolls its increment back too).
 * `stripe_events` remembers every webhook event handled, so a replay changes nothing.
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('packages')
    .addColumn('id', 'integer', identity(db))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('price_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull().defaultTo(0))
    // Null: unlimited.
    .addColumn('listings_included', 'integer')
    .addColumn('featured_included', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('billing_period', 'text', (c) => c.notNull())
    .addColumn('billing_frequency', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('visible', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('popular', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sort_order', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('packages_visible_order_idx').on('packages').columns(['visible', 'sort_order', 'id']).execute();

  await db.schema
    .createTable('memberships')
    .addColumn('id', 'integer', identity(db))
    // One membership per user: buying a package replaces the previous one.
    .addColumn('user_id', 'integer', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('package_id', 'integer', (c) => c.notNull().references('packages.id'))
    .addColumn('status', 'text', (c) => c.notNull())
    // Null: unlimited.
    .addColumn('remaining_listings', 'integer')
    .addColumn('remaining_featured', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('started_at', 'text', (c) => c.notNull())
    // Null: a one-time package that never runs out by date.
    .addColumn('expires_at', 'text')
    .addColumn('auto_renew', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stripe_subscription_id', 'text', (c) => c.unique())
    // When the owner was told the membership is about to expire (once per period).
    .addColumn('expiry_notice_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('memberships_status_expires_idx').on('memberships').columns(['status', 'expires_at']).execute();
  await db.schema.createIndex('memberships_package_idx').on('memberships').column('package_id').execute();

  await db.schema
    .createTable('invoice_counters')
    .addColumn('year', 'integer', (c) => c.primaryKey())
    .addColumn('last_number', 'integer', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('invoices')
    .addColumn('id', 'integer', identity(db))
    .addColumn('number', 'text', (c) => c.notNull().unique())
    .addColumn('buyer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
    // The buyer as they were when invoiced: an invoice is an accounting record.
    .addColumn('buyer_name', 'text', (c) => c.notNull())
    .addColumn('buyer_email', 'text', (c) => c.notNull())
    .addColumn('item_type', 'text', (c) => c.notNull())
    .addColumn('item_id', 'integer', (c) => c.notNull())
    .addColumn('item_title', 'text', (c) => c.notNull())
    .addColumn('amount_minor', 'integer', (c) => c.notNull())
    .addColumn('tax_minor', 'integer', (c) => c.notNull())
    .addColumn('total_minor', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull())
    .addColumn('tax_rate_bp', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('payment_method', 'text', (c) => c.notNull())
    .addColumn('recurring', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('stripe_session_id', 'text', (c) => c.unique())
    // A subscription's renewal invoices are ours too, one per Stripe invoice.
    .addColumn('stripe_invoice_id', 'text', (c) => c.unique())
    .addColumn('stripe_subscription_id', 'text')
    // Deleted by an administrator: kept for accounting, 404 for everyone.
    .addColumn('archived_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('paid_at', 'text')
    .execute();
  await db.schema.createIndex('invoices_buyer_idx').on('invoices').columns(['buyer_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('invoices_created_idx').on('invoices').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('invoices_item_idx').on('invoices').columns(['item_type', 'item_id']).execute();
  await db.schema.createIndex('invoices_subscription_idx').on('invoices').column('stripe_subscription_id').execute();

  await db.schema
    .createTable('stripe_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('received_at', 'text', (c) => c.notNull())
    .execute();
}
