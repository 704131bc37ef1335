import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer } from '../helpers/factories.js';
import { pagination } from '../helpers/expectations.js';
import { API, type Auth, expectError, newInvoice, signedIn } from './invoices-fixtures.js';

describeEachDialect('reading invoices (%s)', (dialect) => {
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

  const list = (auth: Auth | undefined, query = '') =>
    t.app.inject({ method: 'GET', url: `${API}/users/invoices${query}`, headers: auth ?? {} });
  const getOne = (auth: Auth | undefined, id: number) =>
    t.app.inject({ method: 'GET', url: `${API}/users/invoices/${id}`, headers: auth ?? {} });
  const idsOf = (res: LightMyRequestResponse) => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data.invoices as { id: number }[]).map((invoice) => invoice.id);
  };
  /** A buyer with invoices of their own, signed in. */
  const aBuyer = async (): Promise<{ user: UserRow; auth: Auth }> => signedIn(t, 'seller');

  describe('GET /users/invoices', () => {
    it('answers 401 without a token or with an invalid one', async () => {
      expectError(await list(undefined), 401, 'unauthorized');
      expectError(await list(bearer('not.a.token')), 401, 'invalid_token');
    });

    it('answers an empty page to a user without invoices', async () => {
      const { auth } = await aBuyer();
      const res = await list(auth);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { invoices: [], pagination: pagination(0, 1, 10) } });
    });

    it('answers the caller’s invoices as records, money in major units, and never another user’s', async () => {
      const mine = await aBuyer();
      const theirs = await aBuyer();
      const invoice = await newInvoice(db, mine.user, {
        item: { type: 'package', id: 7, title: 'Gold' },
        amountMinor: 1999,
        taxRateBp: 750,
        method: 'stripe',
        recurring: true,
        at: new Date('2026-03-04T05:06:07.890Z'),
      });
      const other = await newInvoice(db, theirs.user);
      const res = await list(mine.auth);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        data: {
          invoices: [
            {
              id: invoice.id,
              number: invoice.number,
              buyer: { id: mine.user.id, display_name: mine.user.display_name, email: mine.user.email },
              item: { type: 'package', id: 7, title: 'Gold' },
              amount: 19.99,
              tax: 1.5,
              tax_rate: 7.5,
              total: 21.49,
              currency: 'USD',
              status: 'pending',
              payment_method: 'stripe',
              recurring: true,
              created_at: '2026-03-04T05:06:07Z',
              paid_at: null,
            },
          ],
          pagination: pagination(1, 1, 10),
        },
      });
      expect(invoice.number).toMatch(/^INV-2026-\d{6}$/);
      expect(idsOf(await list(theirs.auth))).toEqual([other.id]);
    });

    it('shows administrators and managers everyone’s invoices, and lets them narrow to one buyer', async () => {
      const a = await aBuyer();
      const b = await aBuyer();
      const aInvoice = await newInvoice(db, a.user);
      const bInvoice = await newInvoice(db, b.user);
      for (const staff of [admin, manager]) {
        const all = idsOf(await list(staff, '?per_page=100'));
        expect(all).toEqual(expect.arrayContaining([aInvoice.id, bInvoice.id]));
        expect(idsOf(await list(staff, `?user_id=${a.user.id}`))).toEqual([aInvoice.id]);
        expect(idsOf(await list(staff, `?user_id=${b.user.id}`))).toEqual([bInvoice.id]);
        expect(idsOf(await list(staff, '?user_id=999999'))).toEqual([]);
      }
    });

    it('refuses `user_id` from anyone but administrators and managers (400 naming it), even their own id', async () => {
      const a = await aBuyer();
      const b = await aBuyer();
      await newInvoice(db, b.user);
      expectError(await list(a.auth, `?user_id=${b.user.id}`), 400, 'validation_failed', ['user_id']);
      expectError(await list(a.auth, `?user_id=${a.user.id}`), 400, 'validation_failed', ['user_id']);
    });

    it('filters by status', async () => {
      const { user, auth } = await aBuyer();
      const pending = await newInvoice(db, user);
      const paid = await newInvoice(db, user, { status: 'paid' });
      const refunded = await newInvoice(db, user, { status: 'refunded' });
      expect(idsOf(await list(auth, '?status=pending'))).toEqual([pending.id]);
      expect(idsOf(await list(auth, '?status=paid'))).toEqual([paid.id]);
      expect(idsOf(await list(auth, '?status=refunded'))).toEqual([refunded.id]);
      expect(idsOf(await list(auth, '?status=cancelled'))).toEqual([]);
      expectError(await list(auth, '?status=unpaid'), 400, 'validation_failed', ['status']);
    });

    it('filters by UTC creation day, both ends inclusive', async () => {
      const { user, auth } = await aBuyer();
      const at = (iso: string) => newInvoice(db, user, { at: new Date(iso) });
      const before = await at('2026-01-31T23:59:59.999Z');
      const firstMoment = await at('2026-02-01T00:00:00.000Z');
      const middle = await at('2026-02-15T12:00:00.000Z');
      const lastMoment = await at('2026-02-28T23:59:59.999Z');
      const after = await at('2026-03-01T00:00:00.000Z');

      expect(idsOf(await list(auth, '?start_date=2026-02-01&end_date=2026-02-28'))).toEqual([lastMoment.id, middle.id, firstMoment.id]);
      expect(idsOf(await list(auth, '?start_date=2026-02-28'))).toEqual([after.id, lastMoment.id]);
      expect(idsOf(await list(auth, '?end_date=2026-02-01'))).toEqual([firstMoment.id, before.id]);
      expect(idsOf(await list(auth, '?start_date=2026-02-15&end_date=2026-02-15'))).toEqual([middle.id]);
      expect(idsOf(await list(auth, '?start_date=2026-03-01&end_date=2026-03-01'))).toEqual([after.id]);
    });

    it('refuses malformed dates and an end before the start', async () => {
      const { auth } = await aBuyer();
      expectError(await list(auth, '?start_date=2026-02-30'), 400, 'validation_failed', ['start_date']);
      expectError(await list(auth, '?end_date=2026-1-5'), 400, 'validation_failed', ['end_date']);
      expectError(await list(auth, '?start_date=2026-02-01T00:00:00Z'), 400, 'validation_failed', ['start_date']);
      expectError(await list(auth, '?start_date=2026-02-02&end_date=2026-02-01'), 400, 'validation_failed', ['end_date']);
    });

    it('pages newest first, ties on the creation time broken by id, with true figures past the last page', async () => {
      const { user, auth } = await aBuyer();
      const ids: number[] = [];
      for (let day = 1; day <= 10; day++)
        ids.push((await newInvoice(db, user, { at: new Date(`2026-04-${String(day).padStart(2, '0')}T10:00:00Z`) })).id);
      // Two invoices of the same moment, newer than the rest: the higher id first.
      const sameMoment = new Date('2026-05-01T00:00:00Z');
      const older = await newInvoice(db, user, { at: sameMoment });
      const newer = await newInvoice(db, user, { at: sameMoment });
      const newestFirst = [newer.id, older.id, ...ids.reverse()];

      const first = await list(auth, '?per_page=5');
      expect(idsOf(first)).toEqual(newestFirst.slice(0, 5));
      expect(first.json().data.pagination).toEqual(pagination(12, 1, 5));
      expect(idsOf(await list(auth, '?per_page=5&page=2'))).toEqual(newestFirst.slice(5, 10));
      const last = await list(auth, '?per_page=5&paged=3');
      expect(idsOf(last)).toEqual(newestFirst.slice(10));
      expect(last.json().data.pagination).toEqual(pagination(12, 3, 5));
      const past = await list(auth, '?per_page=5&page=4');
      expect(idsOf(past)).toEqual([]);
      expect(past.json().data.pagination).toEqual(pagination(12, 4, 5));
      expectError(await list(auth, '?per_page=101'), 400, 'validation_failed', ['per_page']);
      expectError(await list(auth, '?page=0'), 400, 'validation_failed', ['page']);
    });

    it('never lists archived invoices, to their buyer or to the staff', async () => {
      const { user, auth } = await aBuyer();
      const kept = await newInvoice(db, user);
      const archived = await newInvoice(db, user);
      await db.updateTable('invoices').set({ archived_at: new Date().toISOString() }).where('id', '=', archived.id).execute();
      expect(idsOf(await list(auth))).toEqual([kept.id]);
      expect(idsOf(await list(admin, `?user_id=${user.id}`))).toEqual([kept.id]);
      expect((await list(auth)).json().data.pagination.total_records).toBe(1);
    });

    it('refuses unknown parameters', async () => {
      const { auth } = await aBuyer();
      expectError(await list(auth, '?buyer_id=1'), 400, 'validation_failed', ['buyer_id']);
    });
  });

  describe('GET /users/invoices/{invoice_id}', () => {
    it('answers the invoice to its buyer, administrators and managers', async () => {
      const { user, auth } = await aBuyer();
      const invoice = await newInvoice(db, user, { status: 'paid', at: new Date('2026-06-01T08:00:00Z') });
      for (const reader of [auth, admin, manager]) {
        const res = await getOne(reader, invoice.id);
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json()).toEqual({
          success: true,
          data: expect.objectContaining({
            id: invoice.id,
            number: invoice.number,
            status: 'paid',
            paid_at: '2026-06-01T08:00:00Z',
            amount: 10,
            tax: 2,
            total: 12,
          }),
        });
      }
    });

    it('answers 404 for another user’s invoice, exactly as for an unknown one (no enumeration)', async () => {
      const owner = await aBuyer();
      const stranger = await signedIn(t, 'agency');
      const invoice = await newInvoice(db, owner.user);
      const foreign = await getOne(stranger.auth, invoice.id);
      const unknown = await getOne(stranger.auth, 999_999);
      expectError(foreign, 404, 'not_found');
      expectError(unknown, 404, 'not_found');
      expect(foreign.json().message).toBe(unknown.json().message);
    });

    it('answers 404 for an archived invoice, to everyone', async () => {
      const { user, auth } = await aBuyer();
      const invoice = await newInvoice(db, user);
      await db.updateTable('invoices').set({ archived_at: new Date().toISOString() }).where('id', '=', invoice.id).execute();
      for (const reader of [auth, admin, manager]) expectError(await getOne(reader, invoice.id), 404, 'not_found');
    });

    it('keeps the buyer as invoiced once the account is deleted (id null), for the staff', async () => {
      const { user } = await aBuyer();
      const invoice = await newInvoice(db, user);
      await db.deleteFrom('users').where('id', '=', user.id).execute();
      const res = await getOne(admin, invoice.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.buyer).toEqual({ id: null, display_name: user.display_name, email: user.email });
    });

    it('answers 401 without a token and 400 for a malformed id', async () => {
      expectError(await getOne(undefined, 1), 401, 'unauthorized');
      const { auth } = await aBuyer();
      expectError(await t.app.inject({ method: 'GET', url: `${API}/users/invoices/abc`, headers: auth }), 400, 'validation_failed', [
        'invoice_id',
      ]);
    });
  });
});
