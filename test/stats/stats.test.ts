import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, InvoiceStatus, ListingState, Role } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECTS, describeEachDialect } from '../helpers/database.js';
import { errorBody } from '../helpers/expectations.js';
import { type Auth, newListing, newSignedInUser, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const DAY_MS = 86_400_000;
const NOT_READERS = ['agency', 'agent', 'owner', 'seller', 'buyer'] as const satisfies readonly Role[];
const ROUTES = ['/stats/listings', '/stats/activity', '/stats/revenue'];

/** The UTC day `offset` days from `now`'s, `YYYY-MM-DD`. */
const dayOf = (now: Date, offset = 0) => new Date(now.getTime() + offset * DAY_MS).toISOString().slice(0, 10);

async function newLead(db: Kysely<DB>, createdAt: string): Promise<void> {
  await db
    .insertInto('leads')
    .values({ target_type: 'agent', name: 'Sender', email: 'sender@example.test', message: 'Hello', created_at: createdAt })
    .execute();
}

interface InvoiceSpec {
  currency: string;
  amountMinor: number;
  taxMinor?: number;
  status?: InvoiceStatus;
  paidAt?: string | null;
  createdAt?: string;
  archived?: boolean;
}

/** An invoice row as the ledger writes them, paid at `paidAt` unless `status` says else. */
async function newInvoiceRow(db: Kysely<DB>, spec: InvoiceSpec): Promise<void> {
  const status = spec.status ?? 'paid';
  const createdAt = spec.createdAt ?? spec.paidAt ?? new Date().toISOString();
  const tax = spec.taxMinor ?? 0;
  await db
    .insertInto('invoices')
    .values({
      number: unique('INV-'),
      buyer_id: null,
      buyer_name: 'Buyer',
      buyer_email: 'buyer@example.test',
      item_type: 'listing',
      item_id: 1,
      item_title: 'A listing',
      amount_minor: spec.amountMinor,
      tax_minor: tax,
      total_minor: spec.amountMinor + tax,
      currency: spec.currency,
      tax_rate_bp: 0,
      status,
      payment_method: 'bank_transfer',
      created_at: createdAt,
      updated_at: createdAt,
      paid_at: spec.paidAt === undefined ? (status === 'paid' || status === 'refunded' ? createdAt : null) : spec.paidAt,
      archived_at: spec.archived ? createdAt : null,
    })
    .execute();
}

describeEachDialect('dashboard figures (%s)', (dialect) => {
  let t: TestApp;
  let adminAuth: Auth;
  let managerAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    adminAuth = (await newSignedInUser(t, { role: 'administrator' })).auth;
    managerAuth = (await newSignedInUser(t, { role: 'manager' })).auth;
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const get = (url: string, auth: Auth | null = adminAuth) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth ?? {} });

  describe('who may read them', () => {
    it('administrators and managers; 401 without a token, 403 for every other role', async () => {
      for (const url of ROUTES) {
        expect((await get(url)).statusCode, url).toBe(200);
        expect((await get(url, managerAuth)).statusCode, url).toBe(200);
        expect((await get(url, null)).json(), url).toEqual(errorBody('unauthorized'));
        expect((await get(url, { authorization: 'Bearer not.a.token' })).statusCode, url).toBe(401);
      }
      for (const role of NOT_READERS) {
        const { auth } = await newSignedInUser(t, { role });
        for (const url of ROUTES) {
          const res = await get(url, auth);
          expect(res.statusCode, `${role} ${url}`).toBe(403);
          expect(res.json()).toEqual(errorBody('forbidden'));
        }
      }
    });

    it('refuses unknown parameters and values out of range with 400 naming them', async () => {
      for (const [url, field] of [
        ['/stats/listings?days=3', 'days'],
        ['/stats/activity?days=0', 'days'],
        ['/stats/activity?days=367', 'days'],
        ['/stats/activity?days=1.5', 'days'],
        ['/stats/activity?days=week', 'days'],
        ['/stats/activity?months=2', 'months'],
        ['/stats/revenue?months=0', 'months'],
        ['/stats/revenue?months=121', 'months'],
        ['/stats/revenue?currency=USD', 'currency'],
      ] as const) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().code).toBe('validation_failed');
        expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      expect((await get('/stats/activity?days=366')).json().data.days).toHaveLength(366);
      expect((await get('/stats/revenue?months=120')).json().data.currencies).toEqual(expect.any(Array));
    });
  });

  describe('GET /stats/listings', () => {
    it('counts listings per state, every state present, zeros included', async () => {
      const before = (await get('/stats/listings')).json().data;
      const made: ListingState[] = ['publish', 'publish', 'pending', 'sold', 'draft', 'publish'];
      for (const status of made) await newListing(db(), { status });
      const res = await get('/stats/listings', managerAuth);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      expect(Object.keys(data.states)).toEqual(['draft', 'pending', 'publish', 'on_hold', 'disapproved', 'expired', 'sold']);
      expect(data.states).toEqual({
        draft: before.states.draft + 1,
        pending: before.states.pending + 1,
        publish: before.states.publish + 3,
        on_hold: before.states.on_hold,
        disapproved: before.states.disapproved,
        expired: before.states.expired,
        sold: before.states.sold + 1,
      });
      expect(data.total).toBe(before.total + made.length);
      expect(data.total).toBe(Object.values(data.states as Record<string, number>).reduce((a, b) => a + b, 0));
    });
  });

  describe('GET /stats/activity', () => {
    it('answers every day of the default 30, oldest first, ending today, zeros where nothing happened', async () => {
      const res = await get('/stats/activity');
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      const now = new Date();
      expect(data.to).toBe(dayOf(now));
      expect(data.from).toBe(dayOf(now, -29));
      expect(data.days).toHaveLength(30);
      expect(data.days.map((d: { date: string }) => d.date)).toEqual(Array.from({ length: 30 }, (_, i) => dayOf(now, i - 29)));
      for (const day of data.days) expect(day).toEqual({ date: day.date, listings: expect.any(Number), leads: expect.any(Number) });
    });

    it('counts new listings (whatever their state) and new leads per UTC day, within the window only', async () => {
      const now = new Date();
      const today = dayOf(now);
      const before = (await get('/stats/activity?days=7')).json().data;
      const at = (offset: number, time: string) => `${dayOf(now, offset)}T${time}Z`;
      await newListing(db(), { status: 'draft', created_at: at(0, '00:00:00.000') });
      await newListing(db(), { status: 'publish', created_at: at(-2, '23:59:59.999') });
      await newListing(db(), { status: 'sold', created_at: at(-2, '08:00:00.000') });
      await newListing(db(), { status: 'pending', created_at: at(-6, '00:00:00.000') }); // the window's first instant
      await newListing(db(), { status: 'publish', created_at: at(-7, '23:59:59.999') }); // just before it
      await newLead(db(), at(-1, '12:00:00.000'));
      await newLead(db(), at(-2, '00:00:00.000'));
      await newLead(db(), at(-30, '12:00:00.000'));

      const res = await get('/stats/activity?days=7');
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      expect(data.to).toBe(today);
      expect(data.from).toBe(dayOf(now, -6));
      const added = (data.days as { date: string; listings: number; leads: number }[]).map((day, i) => ({
        date: day.date,
        listings: day.listings - before.days[i].listings,
        leads: day.leads - before.days[i].leads,
      }));
      expect(added).toEqual([
        { date: dayOf(now, -6), listings: 1, leads: 0 },
        { date: dayOf(now, -5), listings: 0, leads: 0 },
        { date: dayOf(now, -4), listings: 0, leads: 0 },
        { date: dayOf(now, -3), listings: 0, leads: 0 },
        { date: dayOf(now, -2), listings: 2, leads: 1 },
        { date: dayOf(now, -1), listings: 0, leads: 1 },
        { date: today, listings: 1, leads: 0 },
      ]);
      expect(data.totals).toEqual({
        listings: before.totals.listings + 4,
        leads: before.totals.leads + 2,
      });
      const one = (await get('/stats/activity?days=1')).json().data;
      expect(one).toMatchObject({ from: today, to: today });
      expect(one.days).toEqual([data.days.at(-1)]);
    });

    it('fills any window by the calendar: month ends, leap days, year ends', async () => {
      const window = await t.services.stats.dailyActivity({ days: 3 }, new Date('2032-03-01T05:00:00.000Z'));
      expect(window.days.map((day) => day.date)).toEqual(['2032-02-28', '2032-02-29', '2032-03-01']);
      const newYear = await t.services.stats.dailyActivity({ days: 2 }, new Date('2033-01-01T23:59:59.999Z'));
      expect(newYear).toMatchObject({ from: '2032-12-31', to: '2033-01-01' });
    });
  });

  describe('GET /stats/revenue', () => {
    it('sums paid invoices per month and currency, never converting, every month present', async () => {
      // In the future of any real clock, so that the HTTP answers of this file (windows ending today) never see them.
      const now = new Date('2031-03-15T12:00:00.000Z');
      await newInvoiceRow(db(), { currency: 'USD', amountMinor: 1000, taxMinor: 200, paidAt: '2031-03-01T00:00:00.000Z' });
      await newInvoiceRow(db(), { currency: 'USD', amountMinor: 1999, taxMinor: 0, paidAt: '2031-03-15T11:00:00.000Z' });
      await newInvoiceRow(db(), { currency: 'USD', amountMinor: 500, paidAt: '2031-01-31T23:59:59.999Z' });
      // Paid this month although created last year: the month of payment counts.
      await newInvoiceRow(db(), {
        currency: 'EUR',
        amountMinor: 2500,
        taxMinor: 500,
        paidAt: '2031-03-02T10:00:00.000Z',
        createdAt: '2030-12-30T10:00:00.000Z',
      });
      await newInvoiceRow(db(), { currency: 'EUR', amountMinor: 100, paidAt: '2030-04-30T10:00:00.000Z', archived: true }); // archived: still revenue
      await newInvoiceRow(db(), { currency: 'JPY', amountMinor: 5000, taxMinor: 500, paidAt: '2031-02-10T10:00:00.000Z' });
      // Not revenue: unpaid, cancelled, refunded, or outside the window.
      await newInvoiceRow(db(), { currency: 'USD', amountMinor: 7000, status: 'pending', createdAt: '2031-03-03T10:00:00.000Z' });
      await newInvoiceRow(db(), { currency: 'USD', amountMinor: 7000, status: 'cancelled', createdAt: '2031-03-03T10:00:00.000Z' });
      await newInvoiceRow(db(), { currency: 'GBP', amountMinor: 7000, status: 'refunded', createdAt: '2031-03-03T10:00:00.000Z' });
      await newInvoiceRow(db(), { currency: 'USD', amountMinor: 7000, paidAt: '2030-03-31T23:59:59.999Z' });
      await newInvoiceRow(db(), { currency: 'USD', amountMinor: 7000, paidAt: '2031-04-01T00:00:00.000Z' });

      const revenue = await t.services.stats.revenue({}, now);
      const months = [
        '2030-04',
        '2030-05',
        '2030-06',
        '2030-07',
        '2030-08',
        '2030-09',
        '2030-10',
        '2030-11',
        '2030-12',
        '2031-01',
        '2031-02',
        '2031-03',
      ];
      expect(revenue.from).toBe('2030-04');
      expect(revenue.to).toBe('2031-03');
      expect(revenue.currencies.map((c) => c.currency)).toEqual(['EUR', 'JPY', 'USD']);
      const zero = { invoices: 0, amount: 0, tax: 0, total: 0 };
      const series = (values: Record<string, typeof zero>) => months.map((month) => ({ month, ...(values[month] ?? zero) }));
      expect(revenue.currencies).toEqual([
        {
          currency: 'EUR',
          invoices: 2,
          amount: 26,
          tax: 5,
          total: 31,
          months: series({
            '2030-04': { invoices: 1, amount: 1, tax: 0, total: 1 },
            '2031-03': { invoices: 1, amount: 25, tax: 5, total: 30 },
          }),
        },
        {
          currency: 'JPY',
          invoices: 1,
          amount: 5000,
          tax: 500,
          total: 5500,
          months: series({ '2031-02': { invoices: 1, amount: 5000, tax: 500, total: 5500 } }),
        },
        {
          currency: 'USD',
          invoices: 3,
          amount: 34.99,
          tax: 2,
          total: 36.99,
          months: series({
            '2031-01': { invoices: 1, amount: 5, tax: 0, total: 5 },
            '2031-03': { invoices: 2, amount: 29.99, tax: 2, total: 31.99 },
          }),
        },
      ]);

      // A longer window reaches the earlier payment; a shorter one crosses the year back.
      const thirteen = await t.services.stats.revenue({ months: 13 }, now);
      expect(thirteen.from).toBe('2030-03');
      expect(thirteen.currencies.find((c) => c.currency === 'USD')!.months[0]).toEqual({
        month: '2030-03',
        invoices: 1,
        amount: 70,
        tax: 0,
        total: 70,
      });
      const three = await t.services.stats.revenue({ months: 3 }, now);
      expect(three).toMatchObject({ from: '2031-01', to: '2031-03' });
      expect(three.currencies.map((c) => [c.currency, c.invoices])).toEqual([
        ['EUR', 1],
        ['JPY', 1],
        ['USD', 3],
      ]);
    });

    it('answers this month’s paid invoices over HTTP, and no currency when nothing was paid', async () => {
      const now = new Date();
      const month = now.toISOString().slice(0, 7);
      const currency = 'CHF'; // used by no other test of this file
      const before = (await get('/stats/revenue?months=1')).json().data;
      expect(before).toMatchObject({ from: month, to: month });
      expect(before.currencies.find((c: { currency: string }) => c.currency === currency)).toBeUndefined();
      await newInvoiceRow(db(), { currency, amountMinor: 1050, taxMinor: 210, paidAt: now.toISOString() });
      const res = await get('/stats/revenue', managerAuth);
      expect(res.statusCode, res.body).toBe(200);
      const { data } = res.json();
      expect(data.to).toBe(month);
      const chf = data.currencies.find((c: { currency: string }) => c.currency === currency);
      expect(chf).toMatchObject({ invoices: 1, amount: 10.5, tax: 2.1, total: 12.6 });
      expect(chf.months).toHaveLength(12);
      expect(chf.months.at(-1)).toEqual({ month, invoices: 1, amount: 10.5, tax: 2.1, total: 12.6 });
      expect(chf.months.slice(0, -1).every((m: { invoices: number }) => m.invoices === 0)).toBe(true);
    });
  });
});

describe.runIf(DIALECTS.length > 1)('dashboard figures are the same on SQLite and PostgreSQL', () => {
  const apps: TestApp[] = [];

  beforeAll(async () => {
    for (const dialect of DIALECTS) apps.push(await buildTestApp(dialect));
  });
  afterAll(async () => {
    for (const app of apps) await app.close();
  });

  it('answers identical figures for identical data', async () => {
    const now = new Date('2030-01-02T03:04:05.678Z');
    const answers = [];
    for (const t of apps) {
      const db = t.database.db;
      const states: ListingState[] = ['draft', 'pending', 'publish', 'on_hold', 'disapproved', 'expired', 'sold'];
      for (let i = 0; i < 40; i++) {
        // Every half day back from today's midnight, on it or a millisecond before: the days' edges, in and out of the window.
        const at = new Date(Date.UTC(2030, 0, 2) - (i * DAY_MS) / 2 - (i % 3 === 0 ? 0 : 1));
        await newListing(db, { status: states[i % states.length]!, created_at: at.toISOString() });
        if (i % 2 === 0) await newLead(db, at.toISOString());
        await newInvoiceRow(db, {
          currency: ['USD', 'EUR', 'JPY', 'KWD'][i % 4]!,
          amountMinor: 1000 + i * 37,
          taxMinor: i * 3,
          status: i % 5 === 0 ? 'refunded' : 'paid',
          paidAt: new Date(now.getTime() - i * 11 * DAY_MS).toISOString(),
        });
      }
      answers.push({
        listings: await t.services.stats.listingStates(),
        activity: await t.services.stats.dailyActivity({ days: 15 }, now),
        revenue: await t.services.stats.revenue({ months: 15 }, now),
      });
    }
    expect(answers[0]!.activity.totals.listings).toBeGreaterThan(0);
    expect(answers[0]!.activity.totals.listings).toBeLessThan(40); // the window left some out
    expect(answers[0]!.revenue.currencies).toHaveLength(4);
    for (const answer of answers.slice(1)) expect(answer).toEqual(answers[0]);
  });
});
