import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('loadConfig', () => {
  it('gives the documented defaults for an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      publicUrl: 'http://127.0.0.1:3000',
      apiPrefix: '',
      database: { kind: 'sqlite', path: path.resolve('data/realty.db') },
      databaseIsDefault: true,
      seedDemo: 'auto',
      jwtSecret: undefined,
      accessTokenTtlSeconds: 3600,
      rateLimit: { enabled: true, perMinute: 600, authPerMinute: 10 },
      bodyLimitBytes: 1024 * 1024,
      trustProxy: false,
      corsOrigins: '*',
      logLevel: 'info',
    });
  });

  it('reads PostgreSQL, a prefix, lists and booleans', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/realty',
      API_PREFIX: '/wp-json/',
      CORS_ORIGINS: 'https://a.example, https://b.example',
      RATE_LIMIT_ENABLED: 'false',
      SEED_DEMO: 'yes',
      PUBLIC_URL: 'https://realty.example/',
    });
    expect(config.database).toEqual({ kind: 'postgres', url: 'postgres://u@db:5432/realty' });
    expect(config.apiPrefix).toBe('/wp-json');
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.rateLimit.enabled).toBe(false);
    expect(config.seedDemo).toBe(true);
    expect(config.publicUrl).toBe('https://realty.example');
    expect(config.databaseIsDefault).toBe(false);
  });

  it('lists every bad variable at once', () => {
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        JWT_SECRET: 'short',
        LOG_LEVEL: 'loud',
        ADMIN_EMAIL: 'a@b.c',
        RATE_LIMIT_ENABLED: 'maybe',
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'LOG_LEVEL', 'ADMIN_PASSWORD', 'RATE_LIMIT_ENABLED']) {
        expect(problems).toContain(name);
      }
    }
  });

  it('reads the console settings; the reset page and the payment return pages follow whether the console is served', () => {
    const defaults = loadConfig({ PORT: '4000' });
    expect(defaults.console).toMatchObject({
      enabled: true,
      tileUrl: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      tileAttribution: '© OpenStreetMap contributors',
    });
    expect(defaults.console.dir).toMatch(/console[\\/]dist$/);
    const off = loadConfig({ PORT: '4000', CONSOLE_ENABLED: 'false', CONSOLE_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png' });
    expect(defaults.payments).toMatchObject({
      successUrl: 'http://127.0.0.1:4000/console/membership?payment=success',
      cancelUrl: 'http://127.0.0.1:4000/console/membership?payment=cancelled',
    });
    expect(off.console.enabled).toBe(false);
    expect(off.resetPasswordUrl).toBe('http://127.0.0.1:4000/reset-password');
    expect(off.payments.successUrl).toBe('http://127.0.0.1:4000/payment?payment=success');
    expect(off.console.tileUrl).toBe('https://{s}.tiles.example.org/{z}/{x}/{y}.png');
    for (const [name, value] of [
      ['CONSOLE_ENABLED', 'maybe'],
      ['CONSOLE_TILE_URL', 'https://tiles.example.org/tile.png'],
      ['CONSOLE_TILE_URL', 'javascript:alert(1)//{z}{x}{y}'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });

  it('reads the website settings; a headless start sends reset mail to the console', () => {
    expect(loadConfig({ PORT: '4000' }).site).toEqual({
      enabled: true,
      sharedMaxAgeSeconds: 60,
      staleWhileRevalidateSeconds: 600,
      pageCacheBytes: 32 * 1024 * 1024,
      sitemapCacheBytes: 32 * 1024 * 1024,
    });
    const headless = loadConfig({ PORT: '4000', SITE_ENABLED: 'false', SITE_PAGE_CACHE_MB: '0', SITE_SITEMAP_CACHE_MB: '0' });
    expect(headless.site).toMatchObject({ enabled: false, pageCacheBytes: 0, sitemapCacheBytes: 0 });
    expect(headless.resetPasswordUrl).toBe('http://127.0.0.1:4000/console/reset-password');
    for (const [name, value] of [
      ['SITE_ENABLED', 'sometimes'],
      ['SITE_SHARED_MAX_AGE', '-1'],
      ['SITE_PAGE_CACHE_MB', 'lots'],
      ['SITE_SITEMAP_CACHE_MB', '5000'],
    ] as const) {
      expect(() => loadConfig({ [name]: value }), `${name}=${value}`).toThrow(name);
    }
  });

  it('reads the accounts, mail, social and upload settings', () => {
    const defaults = loadConfig({ PORT: '4000' });
    expect(defaults).toMatchObject({
      registrationEnabled: true,
      // The website serves the reset page by default (buyers have no console).
      resetPasswordUrl: 'http://127.0.0.1:4000/reset-password',
      mail: { smtpUrl: undefined, from: 'realty-api <no-reply@localhost>' },
      social: { google: { clientIds: [] }, facebook: { appId: undefined, graphUrl: 'https://graph.facebook.com' } },
      uploads: { maxFileBytes: 10 * 1024 * 1024, maxFiles: 20, maxImagePixels: 40_000_000 },
      s3: undefined,
    });
    const set = loadConfig({
      REGISTRATION_ENABLED: 'false',
      GOOGLE_CLIENT_IDS: ' web.apps , ios.apps ,',
      FACEBOOK_APP_ID: '123',
      FACEBOOK_APP_SECRET: 'shh',
      FACEBOOK_GRAPH_URL: 'http://127.0.0.1:9/graph/',
      S3_BUCKET: 'media',
      S3_ENDPOINT: 'http://127.0.0.1:9000/',
      IMAGE_MAX_MEGAPIXELS: '12',
    });
    expect(set.registrationEnabled).toBe(false);
    expect(set.social.google.clientIds).toEqual(['web.apps', 'ios.apps']);
    expect(set.social.facebook).toEqual({ appId: '123', appSecret: 'shh', graphUrl: 'http://127.0.0.1:9/graph' });
    expect(set.s3).toMatchObject({
      bucket: 'media',
      region: 'us-east-1',
      endpoint: 'http://127.0.0.1:9000',
      publicUrl: 'http://127.0.0.1:9000/media',
    });
    expect(set.uploads.maxImagePixels).toBe(12_000_000);
    expect(loadConfig({ S3_BUCKET: 'media', S3_REGION: 'eu-west-3' }).s3?.publicUrl).toBe('https://media.s3.eu-west-3.amazonaws.com');
  });

  it('refuses half-configured providers and bad upload limits', () => {
    try {
      loadConfig({
        FACEBOOK_APP_ID: '123',
        UPLOAD_MAX_FILES: '0',
        RESET_PASSWORD_URL: 'javascript:alert(1)',
        S3_BUCKET: 'b',
        S3_ENDPOINT: 'ftp://x',
      });
      expect.unreachable();
    } catch (error) {
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['FACEBOOK_APP_SECRET', 'UPLOAD_MAX_FILES', 'RESET_PASSWORD_URL', 'S3_ENDPOINT']) expect(problems).toContain(name);
    }
  });

  it('logs readable lines on a terminal and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(loadConfig({}, true).logFormat).toBe('pretty');
    expect(loadConfig({}, false).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }, true).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/LOG_FORMAT must be one of auto, pretty, json/);
  });

  it('is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.rateLimit)).toBe(true);
  });

  it('reads the listing settings, with the documented defaults', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://realty.example' }).listings).toEqual({
      requireApproval: true,
      editRequiresApproval: false,
      defaultCurrency: 'USD',
      ttlDays: undefined,
      urlTemplate: 'https://realty.example/property/{slug}',
      flushIntervalMs: 5000,
    });
    const config = loadConfig({
      REQUIRE_APPROVAL: 'false',
      EDIT_REQUIRES_APPROVAL: 'true',
      DEFAULT_CURRENCY: 'eur',
      LISTING_TTL_DAYS: '30',
      LISTING_URL_TEMPLATE: 'https://homes.example/l/{id}-{slug}',
      LISTING_FLUSH_MS: '1000',
    });
    expect(config.listings).toEqual({
      requireApproval: false,
      editRequiresApproval: true,
      defaultCurrency: 'EUR',
      ttlDays: 30,
      urlTemplate: 'https://homes.example/l/{id}-{slug}',
      flushIntervalMs: 1000,
    });
  });

  it('reads the search engine settings: the in-memory engine by default, `sql` to turn it off', () => {
    expect(loadConfig({}).search).toEqual({ engine: 'memory', enginePollMs: 250 });
    expect(loadConfig({ SEARCH_ENGINE: 'sql', SEARCH_ENGINE_POLL_MS: '500' }).search).toEqual({ engine: 'sql', enginePollMs: 500 });
    expect(() => loadConfig({ SEARCH_ENGINE: 'elastic', SEARCH_ENGINE_POLL_MS: '5' })).toThrow(
      /SEARCH_ENGINE must be memory or sql \(got "elastic"\)[\s\S]*SEARCH_ENGINE_POLL_MS must be an integer from 10 to 60000/,
    );
  });

  it('reads the payment settings as integer minor units and basis points', () => {
    const { payments } = loadConfig({
      PAYMENT_MODE: 'membership',
      DEFAULT_CURRENCY: 'kwd',
      LISTING_PRICE: '12.345',
      FEATURED_PRICE: '5',
      TAX_RATE: '7.5',
      STRIPE_SECRET_KEY: 'sk_test_x',
      STRIPE_API_BASE: 'http://127.0.0.1:12111/',
    });
    expect(payments).toMatchObject({
      mode: 'membership',
      currency: 'KWD',
      listingPriceMinor: 12_345,
      featuredPriceMinor: 5_000,
      taxRateBp: 750,
    });
    expect(payments.stripe).toEqual({ secretKey: 'sk_test_x', webhookSecret: undefined, apiBase: 'http://127.0.0.1:12111' });
    expect(loadConfig({}).payments).toMatchObject({ mode: 'free', listingPriceMinor: 0, taxRateBp: 0, stripe: undefined });
  });

  it('refuses a bad payment mode, an amount with more decimals than the currency, and a tax rate over 100', () => {
    const load = () => loadConfig({ PAYMENT_MODE: 'paid', LISTING_PRICE: '1.999', FEATURED_PRICE: '-1', TAX_RATE: '101' });
    expect(load).toThrow(ConfigError);
    for (const name of ['PAYMENT_MODE', 'LISTING_PRICE', 'FEATURED_PRICE', 'TAX_RATE']) expect(load).toThrow(name);
  });

  it('refuses a malformed currency, listing URL template or TTL, naming each', () => {
    const load = () => loadConfig({ DEFAULT_CURRENCY: 'dollars', LISTING_URL_TEMPLATE: 'https://x.example/p', LISTING_TTL_DAYS: '0' });
    expect(load).toThrow(ConfigError);
    for (const name of ['DEFAULT_CURRENCY', 'LISTING_URL_TEMPLATE', 'LISTING_TTL_DAYS']) expect(load).toThrow(name);
  });

  describe('push (FCM)', () => {
    const pem = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const dir = mkdtempSync(path.join(tmpdir(), 'realty-config-'));
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const accountFile = (fields: Record<string, unknown>) => {
      const file = path.join(dir, `account-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(file, JSON.stringify({ type: 'service_account', ...fields }));
      return file;
    };

    it('is off without FCM settings, and reads the three variables with the default endpoints', () => {
      expect(loadConfig({}).push).toEqual({ fcm: undefined });
      const config = loadConfig({
        FCM_PROJECT_ID: 'realty-prod',
        FCM_CLIENT_EMAIL: 'push@realty-prod.iam.gserviceaccount.com',
        // One-line form, as .env files and CI secrets hold it.
        FCM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
      });
      expect(config.push.fcm).toEqual({
        projectId: 'realty-prod',
        clientEmail: 'push@realty-prod.iam.gserviceaccount.com',
        privateKey: pem.trim(),
        tokenUrl: 'https://oauth2.googleapis.com/token',
        apiUrl: 'https://fcm.googleapis.com',
      });
      expect(Object.isFrozen(config.push.fcm)).toBe(true);
    });

    it('reads a service-account file, with variables beside it winning, and custom endpoints', () => {
      const file = accountFile({ project_id: 'from-file', client_email: 'file@x.iam.gserviceaccount.com', private_key: pem });
      expect(loadConfig({ FCM_SERVICE_ACCOUNT_FILE: file }).push.fcm).toMatchObject({
        projectId: 'from-file',
        clientEmail: 'file@x.iam.gserviceaccount.com',
        privateKey: pem.trim(),
      });
      const config = loadConfig({
        FCM_SERVICE_ACCOUNT_FILE: file,
        FCM_PROJECT_ID: 'other-project',
        FCM_TOKEN_URL: 'http://127.0.0.1:9/token',
        FCM_API_URL: 'http://127.0.0.1:9/',
      });
      expect(config.push.fcm).toMatchObject({
        projectId: 'other-project',
        tokenUrl: 'http://127.0.0.1:9/token',
        apiUrl: 'http://127.0.0.1:9',
      });
    });

    it('refuses a half configuration, naming what is missing', () => {
      const load = () => loadConfig({ FCM_PROJECT_ID: 'realty-prod', FCM_PRIVATE_KEY: pem });
      expect(load).toThrow(ConfigError);
      expect(load).toThrow('missing: FCM_CLIENT_EMAIL');
      const file = accountFile({ project_id: 'p', client_email: 'e@x' });
      expect(() => loadConfig({ FCM_SERVICE_ACCOUNT_FILE: file })).toThrow(/missing: FCM_PRIVATE_KEY \(or in FCM_SERVICE_ACCOUNT_FILE\)/);
    });

    it('refuses an unreadable file, a key that is no PEM and bad endpoints, without quoting the key', () => {
      const bad = 'not-a-key-0123456789-secret';
      try {
        loadConfig({
          FCM_SERVICE_ACCOUNT_FILE: path.join(dir, 'missing.json'),
          FCM_TOKEN_URL: 'ftp://x',
          FCM_API_URL: 'nope',
        });
        expect.unreachable();
      } catch (error) {
        const problems = (error as ConfigError).problems.join('\n');
        for (const text of ['FCM_SERVICE_ACCOUNT_FILE', 'ENOENT', 'FCM_TOKEN_URL', 'FCM_API_URL']) expect(problems).toContain(text);
      }
      const load = () => loadConfig({ FCM_PROJECT_ID: 'p', FCM_CLIENT_EMAIL: 'e@x', FCM_PRIVATE_KEY: bad });
      expect(load).toThrow('FCM_PRIVATE_KEY must be the PEM RSA private key');
      expect(load).not.toThrow(bad);
      const notJson = path.join(dir, 'broken.json');
      writeFileSync(notJson, `{"private_key": "${bad}`);
      expect(() => loadConfig({ FCM_SERVICE_ACCOUNT_FILE: notJson })).toThrow('not JSON');
    });
  });
});
