import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer } from '../helpers/factories.js';
import { API, expectError, signedIn } from './invoices-fixtures.js';

describeEachDialect('GET /payments/settings (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const settings = (app: TestApp['app'], query = '', headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: `${API}/payments/settings${query}`, headers });

  it('answers the defaults to anyone: free mode, bank transfer only, nothing to pay', async () => {
    const res = await settings(t.app);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: { mode: 'free', currency: 'USD', methods: ['bank_transfer'], listing_price: 0, featured_price: 0, tax_rate: 0 },
    });
    const { auth } = await signedIn(t);
    expect((await settings(t.app, '', auth)).json()).toEqual(res.json());
  });

  it('shows the configured mode, prices in major units, the tax rate as a percentage, and Stripe when it is set up', async () => {
    const configured = await buildTestApp(dialect, {
      PAYMENT_MODE: 'per_listing',
      LISTING_PRICE: '4.99',
      FEATURED_PRICE: '10',
      TAX_RATE: '7.5',
      STRIPE_SECRET_KEY: 'sk_test_123',
    });
    try {
      expect((await settings(configured.app)).json().data).toEqual({
        mode: 'per_listing',
        currency: 'USD',
        methods: ['bank_transfer', 'stripe'],
        listing_price: 4.99,
        featured_price: 10,
        tax_rate: 7.5,
      });
    } finally {
      await configured.close();
    }
  });

  it('uses the default currency’s precision (JPY has no decimals)', async () => {
    const yen = await buildTestApp(dialect, {
      PAYMENT_MODE: 'membership',
      DEFAULT_CURRENCY: 'jpy',
      LISTING_PRICE: '500',
      FEATURED_PRICE: '1200',
    });
    try {
      expect((await settings(yen.app)).json().data).toEqual({
        mode: 'membership',
        currency: 'JPY',
        methods: ['bank_transfer'],
        listing_price: 500,
        featured_price: 1200,
        tax_rate: 0,
      });
    } finally {
      await yen.close();
    }
  });

  it('refuses unknown parameters (but takes `lang`) and bad tokens', async () => {
    expectError(await settings(t.app, '?mode=free'), 400, 'validation_failed', ['mode']);
    expect((await settings(t.app, '?lang=fr')).statusCode).toBe(200);
    expectError(await settings(t.app, '', bearer('not.a.token')), 401, 'invalid_token');
  });
});
