import { Redis } from 'ioredis';
import { buildApp, createServices } from './app.js';
import type { Config } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { resolveJwtSecret } from './secrets.js';
import { seedDemoTerms } from './seed/seed-demo.js';

/**
 * `serve`: migrate, bootstrap (administrator, demo data), listen, run the outbox worker. SIGTERM/SIGINT stop
 * accepting connections, let in-flight requests and the outbox batch finish (bounded by SHUTDOWN_TIMEOUT_MS),
 * then close the database.
 */
export async function serve(config: Config): Promise<void> {
  const database = createDatabase(config.database);
  await migrateToLatest(database.db);
  const jwtSecret = resolveJwtSecret(config);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  const deps = { config, database, jwtSecret, ...(redis ? { redis } : {}) };

  const services = createServices(deps);
  if (config.admin) await services.users.ensureAdministrator(config.admin.email, config.admin.password);
  const seed = config.seedDemo === 'auto' ? config.databaseIsDefault && database.isNew : config.seedDemo;
  const seeded = seed ? await seedDemoTerms(services.taxonomies) : 0;

  const app = await buildApp(deps, services);
  if (seeded > 0) app.log.info({ terms: seeded }, 'demo data created');
  const address = await app.listen({ port: config.port, host: config.host });
  const base = config.publicUrl === `http://${config.host}:${config.port}` ? address : config.publicUrl;
  services.outbox.start();
  console.log(`realty-api is listening on ${address}\n  API:  ${base}${config.apiPrefix}/realty-api/v1\n  Docs: ${base}/docs`);

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down: draining in-flight requests');
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, config.shutdownTimeoutMs);
    timer.unref();
    await app.close();
    await services.shutdown();
    await database.destroy();
    await redis?.quit();
    clearTimeout(timer);
  };
  process.once('SIGTERM', () => void stop('SIGTERM'));
  process.once('SIGINT', () => void stop('SIGINT'));
}
