import type { FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { Mailer } from '../../src/adapters/mail/mailer.js';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { type Config, loadConfig } from '../../src/config.js';
import type { DialectName } from '../../src/db/dialect/index.js';
import { createTestDatabase, type TestDatabase } from './database.js';

export const TEST_JWT_SECRET = 'test-secret-that-is-long-enough-for-hs256-0123456789';

export interface TestApp {
  app: FastifyInstance;
  database: TestDatabase;
  services: Services;
  config: Config;
  close(): Promise<void>;
}

/** Configuration as the tests want it by default: quiet, no rate limits; `env` overrides any variable. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    DATABASE_URL: 'sqlite::memory:',
    JWT_SECRET: TEST_JWT_SECRET,
    ...env,
  });
}

export interface TestAppOptions {
  redis?: Redis;
  /** Extra routes for probing cross-cutting behaviour (e.g. a route that throws), added before `ready()`. */
  extraRoutes?: (app: FastifyInstance) => void;
  /** Sends the mail the outbox worker delivers (a capturing fake) instead of the log. */
  mailer?: Mailer;
}

/** The whole application on a fresh database of the given dialect, ready for `app.inject()`. */
export async function buildTestApp(dialect: DialectName, env: Record<string, string> = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const config = testConfig(env);
  const database = await createTestDatabase(dialect);
  const deps = {
    config,
    database,
    jwtSecret: config.jwtSecret ?? TEST_JWT_SECRET,
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.mailer ? { mailer: options.mailer } : {}),
  };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  options.extraRoutes?.(app);
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

/** Another server process on the same database, with caches of its own, as a second instance would be. */
export async function buildPeerApp(
  first: TestApp,
  options: TestAppOptions = {},
): Promise<{ app: FastifyInstance; services: Services; close(): Promise<void> }> {
  const deps = {
    config: first.config,
    database: first.database,
    jwtSecret: first.config.jwtSecret ?? TEST_JWT_SECRET,
    ...(options.redis ? { redis: options.redis } : {}),
  };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  await app.ready();
  return {
    app,
    services,
    close: async () => {
      await app.close();
      await services.shutdown();
    },
  };
}
