import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { createInvoice, type NewInvoice } from '../../src/modules/payments/invoices/invoice-ledger.repository.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';

/** Thrown to roll a checkout back on purpose. */
class RolledBack extends Error {}

const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
const numbersOf = (year: number, ...counts: number[]) => counts.map((n) => `INV-${year}-${String(n).padStart(6, '0')}`);

describeEachDialect('invoice numbers (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  let buyer: UserRow;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    buyer = await newUser(db);
  });
  afterAll(() => database.dispose());

  const anInvoice = (): NewInvoice => ({
    buyer: { id: buyer.id, name: buyer.display_name, email: buyer.email },
    item: { type: 'listing', id: 1, title: 'A listing fee' },
    amountMinor: 1000,
    currency: 'USD',
    taxRateBp: 2000,
    method: 'bank_transfer',
    recurring: false,
  });
  /** A checkout of its own transaction that writes an invoice and then commits, or rolls back when asked. */
  const checkout = (at: Date, rollBack = false) =>
    db.transaction().execute(async (trx) => {
      const invoice = await createInvoice(trx, anInvoice(), at);
      if (rollBack) throw new RolledBack();
      return invoice;
    });
  const storedNumbers = async (year: number) =>
    (await db.selectFrom('invoices').select('number').where('number', 'like', `INV-${year}-%`).orderBy('number').execute()).map(
      (row) => row.number,
    );

  it('gives 20 concurrent checkouts the numbers 1 to 20 of the year, without gaps or duplicates', async () => {
    const at = new Date('2031-06-15T12:00:00Z');
    const invoices = await Promise.all(range(1, 20).map(() => checkout(at)));
    expect(invoices.map((invoice) => invoice.number).sort()).toEqual(numbersOf(2031, ...range(1, 20)));
    expect(new Set(invoices.map((invoice) => invoice.id)).size).toBe(20);
    expect(await storedNumbers(2031)).toEqual(numbersOf(2031, ...range(1, 20)));
  });

  it('gives a rolled-back checkout’s number to the next one', async () => {
    const at = new Date('2032-03-01T00:00:00Z');
    await expect(checkout(at, true)).rejects.toBeInstanceOf(RolledBack);
    expect(await storedNumbers(2032)).toEqual([]);
    expect((await checkout(at)).number).toBe('INV-2032-000001');
    await expect(checkout(at, true)).rejects.toBeInstanceOf(RolledBack);
    expect((await checkout(at)).number).toBe('INV-2032-000002');
  });

  it('leaves no gap when concurrent checkouts roll back among committed ones', async () => {
    const at = new Date('2033-09-09T09:09:09Z');
    const outcomes = await Promise.allSettled(range(1, 20).map((i) => checkout(at, i % 3 === 0)));
    expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toHaveLength(6);
    expect(await storedNumbers(2033)).toEqual(numbersOf(2033, ...range(1, 14)));
  });

  it('starts every year at 000001 and keeps each year’s sequence apart', async () => {
    expect((await checkout(new Date('2034-12-31T23:59:59.999Z'))).number).toBe('INV-2034-000001');
    expect((await checkout(new Date('2035-01-01T00:00:00.000Z'))).number).toBe('INV-2035-000001');
    expect((await checkout(new Date('2034-12-31T10:00:00Z'))).number).toBe('INV-2034-000002');
    expect((await checkout(new Date('2035-02-01T00:00:00Z'))).number).toBe('INV-2035-000002');
  });

  it('computes amounts in integer minor units: tax rounded half up, total = amount + tax', async () => {
    const invoice = await db
      .transaction()
      .execute((trx) => createInvoice(trx, { ...anInvoice(), amountMinor: 1999, taxRateBp: 750 }, new Date('2036-01-01T00:00:00Z')));
    expect(invoice).toMatchObject({ amount_minor: 1999, tax_minor: 150, total_minor: 2149, tax_rate_bp: 750, status: 'pending' });
  });
});
