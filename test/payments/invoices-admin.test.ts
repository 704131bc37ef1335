import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { addFavorite, newListing } from '../helpers/factories.js';
import { API, type Auth, expectError, invoiceRow, newInvoice, newPackage, signedIn } from './invoices-fixtures.js';

/** Seed 2.2: the user profile the delete-invoice operation answers, field by field with its type. */
const SEED_PROFILE_FIELDS = {
  user_id: 'number',
  email: 'string',
  username: 'string',
  display_name: 'string',
  first_name: 'string',
  last_name: 'string',
  avatar_url: 'string',
  phone: 'string',
  mobile: 'string',
  whatsapp: 'string',
  properties_count: 'string',
  favorites: 'string',
  role: 'string',
} as const;
/** What docs/api.md 3.1 adds to the seed's profile. */
const PROJECT_PROFILE_FIELDS = ['bio', 'website', 'language', 'registered_date', 'agent_id', 'agency_id', 'status'];

describeEachDialect('administering invoices (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let manager: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    admin = (await signedIn(t, 'administrator')).auth;
    manager = (await signedIn(t, 'manager')).auth;
  });
  afterAll(() => t.close());

  const remove = (auth: Auth | undefined, id: number) =>
    t.app.inject({ method: 'DELETE', url: `${API}/users/invoices/${id}`, headers: auth ?? {} });
  const markPaid = (auth: Auth | undefined, id: number, payload?: object) =>
    t.app.inject({ method: 'POST', url: `${API}/users/invoices/${id}/mark-paid`, headers: auth ?? {}, ...(payload ? { payload } : {}) });
  const getOne = (auth: Auth, id: number) => t.app.inject({ method: 'GET', url: `${API}/users/invoices/${id}`, headers: auth });
  const listIds = async (auth: Auth, query = '') => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/users/invoices${query}`, headers: auth });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.invoices as { id: number }[]).map((invoice) => invoice.id);
  };
  /** A bank-transfer invoice for a real package, so that settling it can deliver the package. */
  const bankTransferFor = async (user: UserRow) => {
    const pkg = await newPackage(db);
    return {
      pkg,
      invoice: await newInvoice(db, user, { item: { type: 'package', id: pkg.id, title: pkg.title }, method: 'bank_transfer' }),
    };
  };

  describe('DELETE /users/invoices/{invoice_id}', () => {
    it('archives the invoice and answers the buyer’s profile exactly as seed 4.2 has it', async () => {
      const buyer = await signedIn(t, 'seller');
      const listing = await newListing(db, { author_id: buyer.user.id, status: 'publish' });
      await addFavorite(db, buyer.user.id, listing);
      const invoice = await newInvoice(db, buyer.user);

      const res = await remove(admin, invoice.id);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'success']);
      expect(body.success).toBe(true);
      for (const [field, type] of Object.entries(SEED_PROFILE_FIELDS)) expect(typeof body.data[field], field).toBe(type);
      expect(Object.keys(body.data).sort()).toEqual([...Object.keys(SEED_PROFILE_FIELDS), ...PROJECT_PROFILE_FIELDS].sort());
      expect(body.data).toMatchObject({
        user_id: buyer.user.id,
        email: buyer.user.email,
        username: buyer.user.username,
        role: 'seller',
        properties_count: '1',
        favorites: '1',
      });
      // The same profile GET /users/{id} gives an administrator (and GET /users/me the buyer).
      const profile = await t.app.inject({ method: 'GET', url: `${API}/users/${buyer.user.id}`, headers: admin });
      expect(body.data).toEqual(profile.json().data);
      const me = await t.app.inject({ method: 'GET', url: `${API}/users/me`, headers: buyer.auth });
      expect(body.data).toEqual(me.json().data);

      // Archived: kept for accounting, 404 for everyone, never listed.
      expect((await invoiceRow(db, invoice.id)).archived_at).toEqual(expect.any(String));
      expectError(await getOne(buyer.auth, invoice.id), 404, 'not_found');
      expectError(await getOne(admin, invoice.id), 404, 'not_found');
      expect(await listIds(buyer.auth)).toEqual([]);
      expect(await listIds(admin, `?user_id=${buyer.user.id}`)).toEqual([]);
      expectError(await remove(admin, invoice.id), 404, 'not_found');
    });

    it('answers 404 for an unknown invoice and 400 for a malformed id', async () => {
      expectError(await remove(admin, 999_999), 404, 'not_found');
      expectError(await t.app.inject({ method: 'DELETE', url: `${API}/users/invoices/x`, headers: admin }), 400, 'validation_failed', [
        'invoice_id',
      ]);
    });

    it('is for administrators only: 401 anonymous, 403 for managers and for the buyer themself', async () => {
      const buyer = await signedIn(t);
      const invoice = await newInvoice(db, buyer.user);
      expectError(await remove(undefined, invoice.id), 401, 'unauthorized');
      expectError(await remove(buyer.auth, invoice.id), 403, 'forbidden');
      expectError(await remove(manager, invoice.id), 403, 'forbidden');
      expect((await invoiceRow(db, invoice.id)).archived_at).toBeNull();
      expect((await getOne(buyer.auth, invoice.id)).statusCode).toBe(200);
    });

    it('answers 409 and keeps the invoice when the buyer’s account was deleted (no profile to answer with)', async () => {
      const buyer = await signedIn(t);
      const invoice = await newInvoice(db, buyer.user);
      await db.deleteFrom('users').where('id', '=', buyer.user.id).execute();
      expectError(await remove(admin, invoice.id), 409, 'conflict');
      expect((await invoiceRow(db, invoice.id)).archived_at).toBeNull();
      expect((await getOne(admin, invoice.id)).statusCode).toBe(200);
    });
  });

  describe('POST /users/invoices/{invoice_id}/mark-paid', () => {
    it('settles a pending bank transfer: paid, dated, and its package delivered', async () => {
      const buyer = await signedIn(t);
      const { pkg, invoice } = await bankTransferFor(buyer.user);
      const before = Date.now();
      const res = await markPaid(admin, invoice.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: expect.objectContaining({
          id: invoice.id,
          number: invoice.number,
          status: 'paid',
          payment_method: 'bank_transfer',
          paid_at: expect.any(String),
        }),
        message: 'The invoice was marked paid.',
      });
      expect(Date.parse(res.json().data.paid_at)).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
      expect((await getOne(buyer.auth, invoice.id)).json().data.status).toBe('paid');
      const membership = await db.selectFrom('memberships').selectAll().where('user_id', '=', buyer.user.id).executeTakeFirst();
      expect(membership).toMatchObject({ package_id: pkg.id, status: 'active' });
    });

    it('accepts an empty JSON body and refuses any field in it', async () => {
      const buyer = await signedIn(t);
      const { invoice } = await bankTransferFor(buyer.user);
      expectError(await markPaid(admin, invoice.id, { paid_at: '2020-01-01T00:00:00Z' }), 400, 'validation_failed', ['paid_at']);
      expect((await invoiceRow(db, invoice.id)).status).toBe('pending');
      expect((await markPaid(admin, invoice.id, {})).statusCode).toBe(200);
    });

    it('answers 409 invalid_transition for an invoice that is already paid, or not pending', async () => {
      const buyer = await signedIn(t);
      const { invoice } = await bankTransferFor(buyer.user);
      expect((await markPaid(admin, invoice.id)).statusCode).toBe(200);
      const again = await markPaid(admin, invoice.id);
      expectError(again, 409, 'invalid_transition');
      expect(again.json().message).toBe('This invoice is paid: only a pending invoice can be marked paid.');
      for (const status of ['cancelled', 'refunded'] as const) {
        const other = await newInvoice(db, buyer.user, { status });
        expectError(await markPaid(admin, other.id), 409, 'invalid_transition');
        expect((await invoiceRow(db, other.id)).status).toBe(status);
      }
    });

    it('answers 409 invalid_transition for an invoice not paid by bank transfer', async () => {
      const buyer = await signedIn(t);
      for (const method of ['stripe', 'free'] as const) {
        const invoice = await newInvoice(db, buyer.user, { method });
        const res = await markPaid(admin, invoice.id);
        expectError(res, 409, 'invalid_transition');
        expect(res.json().message).toBe(`Only bank transfers are marked paid by hand; this invoice is paid by ${method}.`);
        expect((await invoiceRow(db, invoice.id)).status).toBe('pending');
      }
    });

    it('settles an invoice once when two administrators mark it paid at the same time', async () => {
      const buyer = await signedIn(t);
      const { invoice } = await bankTransferFor(buyer.user);
      const results = await Promise.all([markPaid(admin, invoice.id), markPaid(admin, invoice.id)]);
      expect(results.map((res) => res.statusCode).sort()).toEqual([200, 409]);
      const events = await db.selectFrom('domain_events').select('payload').where('type', '=', 'payment_received').execute();
      expect(events.filter((event) => JSON.parse(event.payload).invoice_id === invoice.id)).toHaveLength(1);
    });

    it('answers 404 for archived and unknown invoices', async () => {
      const buyer = await signedIn(t);
      const { invoice } = await bankTransferFor(buyer.user);
      expect((await remove(admin, invoice.id)).statusCode).toBe(200);
      expectError(await markPaid(admin, invoice.id), 404, 'not_found');
      expect((await invoiceRow(db, invoice.id)).status).toBe('pending');
      expectError(await markPaid(admin, 999_999), 404, 'not_found');
    });

    it('is for administrators only: 401 anonymous, 403 for managers and the buyer', async () => {
      const buyer = await signedIn(t);
      const { invoice } = await bankTransferFor(buyer.user);
      expectError(await markPaid(undefined, invoice.id), 401, 'unauthorized');
      expectError(await markPaid(buyer.auth, invoice.id), 403, 'forbidden');
      expectError(await markPaid(manager, invoice.id), 403, 'forbidden');
      expect((await invoiceRow(db, invoice.id)).status).toBe('pending');
    });
  });
});
