import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer } from '../helpers/factories.js';
import { API, type Auth, expectError, newInvoice, newPackage, signedIn } from './invoices-fixtures.js';

/** A valid create body: 99.90 USD + 20 % a year, 10 listings, 2 featured. */
const aPackage = (overrides: Record<string, unknown> = {}) => ({
  title: 'Gold',
  description: 'For busy agents',
  price: 99.9,
  tax_rate: 20,
  listings_included: 10,
  featured_included: 2,
  billing_period: 'year',
  ...overrides,
});

describeEachDialect('packages (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let admin: Auth;
  let manager: Auth;
  let buyer: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    admin = (await signedIn(t, 'administrator')).auth;
    manager = (await signedIn(t, 'manager')).auth;
    buyer = (await signedIn(t, 'agent')).auth;
  });
  afterAll(() => t.close());

  const list = (auth: Auth = {}, query = '') => t.app.inject({ method: 'GET', url: `${API}/payments/packages${query}`, headers: auth });
  const getOne = (id: number, auth: Auth = {}) => t.app.inject({ method: 'GET', url: `${API}/payments/packages/${id}`, headers: auth });
  const create = (payload: unknown, auth: Auth = admin) =>
    t.app.inject({ method: 'POST', url: `${API}/payments/packages`, headers: auth, payload: payload as object });
  const update = (id: number, payload: unknown, auth: Auth = admin) =>
    t.app.inject({ method: 'PUT', url: `${API}/payments/packages/${id}`, headers: auth, payload: payload as object });
  const remove = (id: number, auth: Auth = admin) =>
    t.app.inject({ method: 'DELETE', url: `${API}/payments/packages/${id}`, headers: auth });
  const created = async (overrides: Record<string, unknown> = {}) => {
    const res = await create(aPackage(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data as { id: number } & Record<string, unknown>;
  };

  describe('GET /payments/packages and /payments/packages/{id}', () => {
    it('answers an empty catalogue', async () => {
      // The first test of the file: nothing has been created yet.
      const res = await list();
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { packages: [], total_packages: 0 } });
    });

    it('lists visible packages by `order`, then id, to anyone; hidden ones are left out', async () => {
      const third = await newPackage(db, { sort_order: 5 });
      const first = await newPackage(db, { sort_order: -1 });
      const second = await newPackage(db, { sort_order: 5 });
      const hidden = await newPackage(db, { sort_order: 0, visible: 0 });
      const res = await list(buyer);
      expect(res.statusCode).toBe(200);
      const ids = (res.json().data.packages as { id: number }[]).map((p) => p.id);
      expect(res.json().data.total_packages).toBe(ids.length);
      // Ties on `order` are broken by id: the one created first comes first.
      expect(ids.filter((id) => [first.id, second.id, third.id, hidden.id].includes(id))).toEqual([first.id, third.id, second.id]);
      expect(res.json().data.packages.find((p: { id: number }) => p.id === first.id)).toEqual({
        id: first.id,
        title: first.title,
        description: '',
        price: 19,
        currency: 'USD',
        tax_rate: 0,
        total_price: 19,
        formatted_price: '$19 / month',
        listings_included: 10,
        featured_included: 2,
        billing_period: 'month',
        billing_frequency: 1,
        visible: true,
        popular: false,
        order: -1,
      });
      expect((await list()).json()).toEqual(res.json());
    });

    it('lets administrators include hidden packages; anyone else asking → 400', async () => {
      const hidden = await newPackage(db, { visible: 0 });
      const withHidden = await list(admin, '?include_hidden=true');
      expect(withHidden.statusCode).toBe(200);
      expect(withHidden.json().data.packages).toContainEqual(expect.objectContaining({ id: hidden.id, visible: false }));
      expect(withHidden.json().data.total_packages).toBe(withHidden.json().data.packages.length);
      expect((await list(admin)).json().data.packages.map((p: { id: number }) => p.id)).not.toContain(hidden.id);
      expectError(await list(buyer, '?include_hidden=true'), 400, 'validation_failed', ['include_hidden']);
      expectError(await list(manager, '?include_hidden=true'), 400, 'validation_failed', ['include_hidden']);
      expectError(await list({}, '?include_hidden=true'), 400, 'validation_failed', ['include_hidden']);
    });

    it('answers one package to anyone; a hidden one is 404 except for administrators', async () => {
      const shown = await newPackage(db, { popular: 1, tax_rate_bp: 2000 });
      const res = await getOne(shown.id);
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ id: shown.id, popular: true, total_price: 22.8, formatted_price: '$22.80 / month' });

      const hidden = await newPackage(db, { visible: 0 });
      expectError(await getOne(hidden.id), 404, 'not_found');
      expectError(await getOne(hidden.id, buyer), 404, 'not_found');
      expectError(await getOne(hidden.id, manager), 404, 'not_found');
      const forAdmin = await getOne(hidden.id, admin);
      expect(forAdmin.statusCode).toBe(200);
      expect(forAdmin.json().data).toMatchObject({ id: hidden.id, visible: false });
    });

    it('answers 404 for unknown ids, 400 for malformed ones and unknown parameters, 401 for a bad token', async () => {
      expectError(await getOne(999_999), 404, 'not_found');
      expectError(await t.app.inject({ method: 'GET', url: `${API}/payments/packages/abc` }), 400, 'validation_failed');
      expectError(await t.app.inject({ method: 'GET', url: `${API}/payments/packages/0` }), 400, 'validation_failed');
      expectError(await list({}, '?page=2'), 400, 'validation_failed', ['page']);
      expectError(await list(bearer('not.a.token')), 401, 'invalid_token');
    });
  });

  describe('POST /payments/packages', () => {
    it('creates a package and answers 201 with the record, money in major units', async () => {
      const res = await create(aPackage());
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toEqual({
        success: true,
        data: {
          id: expect.any(Number),
          title: 'Gold',
          description: 'For busy agents',
          price: 99.9,
          currency: 'USD',
          tax_rate: 20,
          total_price: 119.88,
          formatted_price: '$119.88 / year',
          listings_included: 10,
          featured_included: 2,
          billing_period: 'year',
          billing_frequency: 1,
          visible: true,
          popular: false,
          order: 0,
        },
      });
      const row = await db.selectFrom('packages').selectAll().where('id', '=', res.json().data.id).executeTakeFirstOrThrow();
      expect(row).toMatchObject({ price_minor: 9990, tax_rate_bp: 2000, currency: 'USD' });
    });

    it('applies the defaults, upper-cases the currency and strips HTML from the plain-text fields', async () => {
      const res = await create({
        title: '  <b>Starter</b> ',
        description: '<script>x()</script>Just <em>one</em> listing',
        price: 0,
        currency: 'eur',
        listings_included: null,
        billing_period: 'one_time',
      });
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().data).toMatchObject({
        title: 'Starter',
        description: 'x()Just one listing',
        price: 0,
        currency: 'EUR',
        tax_rate: 0,
        total_price: 0,
        formatted_price: '€0',
        listings_included: null,
        featured_included: 0,
        billing_period: 'one_time',
        billing_frequency: 1,
        visible: true,
        popular: false,
        order: 0,
      });
    });

    it('takes every currency’s own precision: JPY without decimals, KWD and BHD with three', async () => {
      const yen = await created({ price: 1500, currency: 'JPY', tax_rate: 10, billing_period: 'month', billing_frequency: 3 });
      expect(yen).toMatchObject({ price: 1500, total_price: 1650, formatted_price: '¥1,650 / 3 months' });
      const dinar = await created({ price: 1.234, currency: 'KWD', tax_rate: 0, billing_period: 'week' });
      // Intl writes a no-break space after a currency code.
      expect(dinar).toMatchObject({ price: 1.234, total_price: 1.234, formatted_price: 'KWD\u00a01.234 / week' });
      const bahrain = await created({ price: 10, currency: 'BHD', tax_rate: 7.5, billing_period: 'day', billing_frequency: 1 });
      expect(bahrain).toMatchObject({ price: 10, total_price: 10.75, formatted_price: 'BHD\u00a010.750 / day' });
      // Tax rounds half up to the smallest unit: 19.99 × 7.5 % = 1.49925 → 1.50.
      expect(await created({ price: 19.99, tax_rate: 7.5, billing_period: 'month' })).toMatchObject({
        total_price: 21.49,
        formatted_price: '$21.49 / month',
      });
    });

    it('refuses prices with more decimals than the currency has, naming the field', async () => {
      expectError(await create(aPackage({ price: 9.999 })), 400, 'validation_failed', ['price']);
      expectError(await create(aPackage({ price: 1500.5, currency: 'JPY' })), 400, 'validation_failed', ['price']);
      expectError(await create(aPackage({ price: 1.2345, currency: 'KWD' })), 400, 'validation_failed', ['price']);
      expectError(await create(aPackage({ price: -1 })), 400, 'validation_failed', ['price']);
      expectError(await create(aPackage({ price: '9.99' })), 400, 'validation_failed', ['price']);
      // Price plus tax must fit the invoices' integer columns.
      expectError(await create(aPackage({ price: 21_474_836.47, tax_rate: 1 })), 400, 'validation_failed', ['price']);
    });

    it('refuses out-of-range or over-precise tax rates, unknown currencies and bad rhythms', async () => {
      expectError(await create(aPackage({ tax_rate: 101 })), 400, 'validation_failed', ['tax_rate']);
      expectError(await create(aPackage({ tax_rate: -1 })), 400, 'validation_failed', ['tax_rate']);
      expectError(await create(aPackage({ tax_rate: 7.125 })), 400, 'validation_failed', ['tax_rate']);
      expectError(await create(aPackage({ currency: 'XYZ' })), 400, 'validation_failed', ['currency']);
      expectError(await create(aPackage({ currency: 'US' })), 400, 'validation_failed', ['currency']);
      expectError(await create(aPackage({ billing_period: 'one_time', billing_frequency: 2 })), 400, 'validation_failed', [
        'billing_frequency',
      ]);
      expectError(await create(aPackage({ billing_frequency: 366 })), 400, 'validation_failed', ['billing_frequency']);
      expectError(await create(aPackage({ billing_frequency: 0 })), 400, 'validation_failed', ['billing_frequency']);
      expectError(await create(aPackage({ billing_period: 'fortnight' })), 400, 'validation_failed', ['billing_period']);
    });

    it('lists every offending field at once', async () => {
      const res = await create(aPackage({ price: 9.999, tax_rate: 7.125, billing_period: 'one_time', billing_frequency: 12 }));
      expectError(res, 400, 'validation_failed', ['billing_frequency', 'price', 'tax_rate']);
      expect(res.json().errors).toContainEqual({ field: 'price', message: 'must have at most 2 decimals in USD' });
    });

    it('refuses missing, blank and out-of-range fields', async () => {
      const { title: _title, ...withoutTitle } = aPackage();
      expectError(await create(withoutTitle), 400, 'validation_failed', ['title']);
      const { listings_included: _listings, ...withoutListings } = aPackage();
      expectError(await create(withoutListings), 400, 'validation_failed', ['listings_included']);
      expectError(await create(aPackage({ title: '<p></p>' })), 400, 'validation_failed', ['title']);
      expectError(await create(aPackage({ title: 'x'.repeat(201) })), 400, 'validation_failed', ['title']);
      expectError(await create(aPackage({ description: 'x'.repeat(5001) })), 400, 'validation_failed', ['description']);
      expectError(await create(aPackage({ listings_included: -1 })), 400, 'validation_failed', ['listings_included']);
      expectError(await create(aPackage({ featured_included: 1.5 })), 400, 'validation_failed', ['featured_included']);
      expectError(await create(aPackage({ order: 'first' })), 400, 'validation_failed', ['order']);
      expectError(await create(aPackage({ visible: 'yes' })), 400, 'validation_failed', ['visible']);
    });

    it('refuses unknown fields and fields no one may set (mass assignment)', async () => {
      expectError(await create(aPackage({ colour: 'gold' })), 400, 'validation_failed', ['colour']);
      expectError(await create(aPackage({ id: 1 })), 400, 'validation_failed', ['id']);
      expectError(await create(aPackage({ price_minor: 1 })), 400, 'validation_failed', ['price_minor']);
      expectError(await create(aPackage({ total_price: 1 })), 400, 'validation_failed', ['total_price']);
      expectError(await create(aPackage({ created_at: '2020-01-01T00:00:00Z' })), 400, 'validation_failed', ['created_at']);
    });

    it('is for administrators only: 401 anonymous, 403 for everyone else', async () => {
      expectError(await create(aPackage(), {}), 401, 'unauthorized');
      expectError(await create(aPackage(), bearer('not.a.token')), 401, 'invalid_token');
      expectError(await create(aPackage(), buyer), 403, 'forbidden');
      expectError(await create(aPackage(), manager), 403, 'forbidden');
    });
  });

  describe('PUT /payments/packages/{id}', () => {
    it('changes only the fields sent', async () => {
      const pkg = await created();
      const res = await update(pkg.id, { title: 'Platinum', popular: true, order: 3, listings_included: null });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { ...pkg, title: 'Platinum', popular: true, order: 3, listings_included: null } });
      expect((await getOne(pkg.id)).json().data).toEqual(res.json().data);
    });

    it('checks the package as it will be: a one-time package needs frequency 1', async () => {
      const pkg = await created({ billing_period: 'month', billing_frequency: 3 });
      expectError(await update(pkg.id, { billing_period: 'one_time' }), 400, 'validation_failed', ['billing_frequency']);
      expectError(await update(pkg.id, { billing_frequency: 2, billing_period: 'one_time' }), 400, 'validation_failed', [
        'billing_frequency',
      ]);
      const fixed = await update(pkg.id, { billing_period: 'one_time', billing_frequency: 1 });
      expect(fixed.statusCode, fixed.body).toBe(200);
      expect(fixed.json().data).toMatchObject({ billing_period: 'one_time', billing_frequency: 1, formatted_price: '$119.88' });
      expectError(await update(pkg.id, { billing_frequency: 2 }), 400, 'validation_failed', ['billing_frequency']);
    });

    it('keeps the amount when only the currency changes, which must then suit its decimals', async () => {
      const pkg = await created({ price: 19.99, tax_rate: 0 });
      expectError(await update(pkg.id, { currency: 'JPY' }), 400, 'validation_failed', ['price']);
      const kwd = await update(pkg.id, { currency: 'kwd' });
      expect(kwd.statusCode, kwd.body).toBe(200);
      expect(kwd.json().data).toMatchObject({ price: 19.99, currency: 'KWD', formatted_price: 'KWD\u00a019.990 / year' });
      const yen = await update(pkg.id, { currency: 'JPY', price: 2000 });
      expect(yen.json().data).toMatchObject({ price: 2000, currency: 'JPY', formatted_price: '¥2,000 / year' });
      expectError(await update(pkg.id, { price: 0.5 }), 400, 'validation_failed', ['price']);
    });

    it('validates like creation and refuses unknown fields', async () => {
      const pkg = await created();
      expectError(await update(pkg.id, { tax_rate: 101 }), 400, 'validation_failed', ['tax_rate']);
      expectError(await update(pkg.id, { price: 1.001 }), 400, 'validation_failed', ['price']);
      expectError(await update(pkg.id, { title: '   ' }), 400, 'validation_failed', ['title']);
      expectError(await update(pkg.id, { currency: 'ABC' }), 400, 'validation_failed', ['currency']);
      expectError(await update(pkg.id, { id: 5 }), 400, 'validation_failed', ['id']);
      expectError(await update(pkg.id, { sort_order: 5 }), 400, 'validation_failed', ['sort_order']);
      expect((await getOne(pkg.id)).json().data).toEqual(pkg);
    });

    it('answers 404 for an unknown package and is for administrators only', async () => {
      expectError(await update(999_999, { title: 'x' }), 404, 'not_found');
      const pkg = await created();
      expectError(await update(pkg.id, { title: 'x' }, {}), 401, 'unauthorized');
      expectError(await update(pkg.id, { title: 'x' }, buyer), 403, 'forbidden');
      expectError(await update(pkg.id, { title: 'x' }, manager), 403, 'forbidden');
      expect((await getOne(pkg.id)).json().data.title).toBe('Gold');
    });
  });

  describe('DELETE /payments/packages/{id}', () => {
    it('deletes a package nothing refers to', async () => {
      const pkg = await created();
      const res = await remove(pkg.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ success: true, data: { id: pkg.id, deleted: true }, message: 'The package was deleted.' });
      expectError(await getOne(pkg.id, admin), 404, 'not_found');
      expectError(await remove(pkg.id), 404, 'not_found');
    });

    it('hides a package an invoice refers to, instead of deleting it', async () => {
      const pkg = await created();
      const { user } = await signedIn(t);
      await newInvoice(db, user, { item: { type: 'package', id: pkg.id } });
      const res = await remove(pkg.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { id: pkg.id, deleted: false, hidden: true } });
      expectError(await getOne(pkg.id), 404, 'not_found');
      expect((await getOne(pkg.id, admin)).json().data).toEqual({ ...pkg, visible: false });
      expect((await list()).json().data.packages.map((p: { id: number }) => p.id)).not.toContain(pkg.id);
    });

    it('hides a package a membership refers to', async () => {
      const pkg = await created();
      const { user } = await signedIn(t);
      const at = new Date().toISOString();
      await db
        .insertInto('memberships')
        .values({
          user_id: user.id,
          package_id: pkg.id,
          status: 'expired',
          remaining_listings: 0,
          started_at: at,
          created_at: at,
          updated_at: at,
        })
        .execute();
      expect((await remove(pkg.id)).json().data).toEqual({ id: pkg.id, deleted: false, hidden: true });
      expect(await db.selectFrom('packages').select('visible').where('id', '=', pkg.id).executeTakeFirst()).toEqual({ visible: 0 });
    });

    it('does not count a listing invoice with the same id as use of the package', async () => {
      const pkg = await created();
      const { user } = await signedIn(t);
      await newInvoice(db, user, { item: { type: 'listing', id: pkg.id } });
      expect((await remove(pkg.id)).json().data).toEqual({ id: pkg.id, deleted: true });
    });

    it('is for administrators only and answers 404 for unknown ids', async () => {
      const pkg = await created();
      expectError(await remove(pkg.id, {}), 401, 'unauthorized');
      expectError(await remove(pkg.id, buyer), 403, 'forbidden');
      expectError(await remove(pkg.id, manager), 403, 'forbidden');
      expect((await getOne(pkg.id)).statusCode).toBe(200);
      expectError(await remove(999_999), 404, 'not_found');
    });
  });
});
