import path from 'node:path';
import { describe, expect, it } from 'vitest';
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
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short', LOG_LEVEL: 'loud', ADMIN_EMAIL: 'a@b.c', RATE_LIMIT_ENABLED: 'maybe' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const problems = (error as ConfigError).problems.join('\n');
      for (const name of ['PORT', 'DATABASE_URL', 'JWT_SECRET', 'LOG_LEVEL', 'ADMIN_PASSWORD', 'RATE_LIMIT_ENABLED']) {
        expect(problems).toContain(name);
      }
    }
  });

  it('is frozen', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.rateLimit)).toBe(true);
  });
});
