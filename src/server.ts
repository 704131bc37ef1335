import { Redis } from 'ioredis';
import { createStorage } from './adapters/storage/index.js';
import { buildApp, createServices } from './app.js';
import type { Config } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { resolveJwtSecret } from './secrets.js';
import { seedDemoListings } from './seed/demo-listings.js';
import { seedDemoPackages } from './seed/demo-packages.js';
import { seedDemoTerms } from './seed/seed-demo.js';

/**
 * Connections the kernel may hold for us before we accept them. Node's default, 511, overflowed when a
 * thousand clients connected at once (the chaos check counted SYNs dropped and retried for up to 10 s);
 * the kernel caps it at net.core.somaxconn (4,096 on current Linux).
 */
const LISTEN_BACKLOG = 4096;

/** Listings a new demo database starts with: a few hundred, seeded in well under a second. */
const FIRST_START_LISTINGS = 300;

/**
 * `serve`: migrate, bootstrap (administrator, demo data), listen, and run the background work: the scheduler's
 * jobs (the outbox and the modules' jobs: jobs/background-jobs.ts) and what the modules start beside the
 * requests (view counts, the saved-search index). SIGTERM/SIGINT stop accepting connections, let in-flight
 * requests and the running batches finish (bounded by SHUTDOWN_TIMEOUT_MS), then close the database.
 */
export async function serve(config: Config): Promise<void> {
  const database = createDatabase(config.database, { checkpointsOffThread: true });
  await migrateToLatest(database.db);
  const jwtSecret = resolveJwtSecret(config);
  const redis = config.redisUrl ? new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false }) : undefined;
  const deps = { config, database, jwtSecret, ...(redis ? { redis } : {}) };

  const services = createServices(deps);
  if (config.admin) await services.users.ensureAdministrator(config.admin.email, config.admin.password);
  const seed = config.seedDemo === 'auto' ? config.databaseIsDefault && database.isNew : config.seedDemo;
  // Listings only come with a new taxonomy: a restart with SEED_DEMO=true never adds more.
  const seeded = seed ? await seedDemoTerms(services.taxonomies) : 0;
  if (seeded > 0) await seedDemoPackages(database.db, config.payments.currency);
  const listings =
    seeded > 0 ? await seedDemoListings(database.db, services.users, createStorage(config), { count: FIRST_START_LISTINGS }) : undefined;

  const app = await buildApp(deps, services);
  if (seeded > 0) app.log.info({ terms: seeded, listings: listings?.listings, published: listings?.published }, 'demo data created');
  const address = await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  const base = config.publicUrl === `http://${config.host}:${config.port}` ? address : config.publicUrl;
  services.startBackgroundWork();
  // The website first: it is what an agency's customers open.
  const lines = [
    ...(config.site.enabled ? [`  Site:    ${base}/`] : []),
    `  API:     ${base}${config.apiPrefix}/realty-api/v1`,
    `  Docs:    ${base}/docs`,
    ...(config.console.enabled ? [`  Console: ${base}/console/`] : []),
  ];
  console.log(`realty-api is listening on ${address}\n${lines.join('\n')}`);

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
