import type { Redis } from 'ioredis';
import { createStorage } from './adapters/storage/index.js';
import { buildApp, createServices, type Services } from './app.js';
import type { Config } from './config.js';
import { createDatabase, type Database, migrateToLatest } from './db/database.js';
import { resolveJwtSecret } from './secrets.js';

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
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  const deps = { config, database, jwtSecret, ...(redis ? { redis } : {}) };

  const services = createServices(deps);
  if (config.admin) await services.users.ensureAdministrator(config.admin.email, config.admin.password);
  const setupToken = await services.firstRun.start();
  const seed = config.seedDemo === 'auto' ? config.databaseIsDefault && database.isNew : config.seedDemo;
  const seeded = seed ? await seedDemoData(config, database, services) : undefined;
  // Before the application is built: the search index fills while the routes register and the server binds.
  services.prepareForServing();

  const app = await buildApp(deps, services);
  if (seeded) app.log.info(seeded, 'demo data created');
  const address = await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  const base = config.publicUrl === `http://${config.host}:${config.port}` ? address : config.publicUrl;
  services.startBackgroundWork();
  // The website first: it is what an agency's customers open.
  const lines = [
    ...(config.site.enabled ? [`  Site:    ${base}/`] : []),
    `  API:     ${base}${config.apiPrefix}/realty-api/v1`,
    `  Docs:    ${base}/docs`,
    ...(config.console.enabled ? [`  Console: ${base}/console/`] : []),
    ...(setupToken ? firstRunLines(base, config.apiPrefix, setupToken, config.console.enabled) : []),
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

/** ioredis, loaded only when REDIS_URL is set. */
async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
}

/**
 * The demo taxonomy, packages and first listings of a new database; undefined when its terms existed already
 * (a restart with SEED_DEMO=true never adds more listings). The seed modules load only when seeding.
 */
async function seedDemoData(config: Config, database: Database, services: Services) {
  const [{ seedDemoTerms }, { seedDemoPackages }, { seedDemoListings }] = await Promise.all([
    import('./seed/seed-demo.js'),
    import('./seed/demo-packages.js'),
    import('./seed/demo-listings.js'),
  ]);
  const terms = await seedDemoTerms(services.taxonomies);
  if (terms === 0) return undefined;
  await seedDemoPackages(database.db, config.payments.currency);
  const listings = await seedDemoListings(database.db, services.users, createStorage(config), { count: FIRST_START_LISTINGS });
  return { terms, listings: listings.listings, published: listings.published };
}

/**
 * No administrator yet: the one-time link that makes one (modules/auth/first-run.service.ts). Printed, never
 * logged as a log line, and put after `#` so that it reaches no access log or Referer.
 */
function firstRunLines(base: string, apiPrefix: string, token: string, consoleEnabled: boolean): string[] {
  if (consoleEnabled) return [`  Set-up:  ${base}/console/setup#token=${token}  (one-time link: creates the first administrator)`];
  const route = `${base}${apiPrefix}/realty-api/v1/setup/administrator`;
  return [`  Set-up:  POST ${route} with {"token": "${token}", …} creates the first administrator`];
}
