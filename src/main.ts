import { parseArgs } from 'node:util';
import fs from 'node:fs';
import type { Services } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import type { Database } from './db/database.js';
import { AppError } from './lib/errors.js';
import { ProgressBar } from './lib/progress-bar.js';

// The application is imported once the command line is read and found valid (below): a mistake is answered
// without loading it, and each command loads only what it runs.

const USAGE = `Usage: realty-api <command> [options]

Commands:
  serve                         migrate, then serve the API (default)
  migrate                       apply pending database migrations
  seed [--properties N]         fill an empty database with the demo taxonomy; with --properties, also
                                N demo listings (1 to 1,000,000) with their agencies, agents and pictures
  create-admin --email E --password P [--username U]
                                create an administrator account

Every setting is an environment variable (see docs/configuration.md); a .env file is read when present.`;

async function main(argv: string[]): Promise<void> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      properties: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || !['serve', 'migrate', 'seed', 'create-admin'].includes(command)) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }
  if (values.properties !== undefined && command !== 'seed') throw new UsageError('--properties goes with the seed command');
  const propertyCount = values.properties === undefined ? undefined : parsePropertyCount(values.properties);

  const config = loadConfig();
  if (command === 'serve') return (await import('./server.js')).serve(config);

  const [{ createServices }, { createDatabase, migrateToLatest }, { resolveJwtSecret }, { seedDemoTerms }] = await Promise.all([
    import('./app.js'),
    import('./db/database.js'),
    import('./secrets.js'),
    import('./seed/seed-demo.js'),
  ]);
  const database = createDatabase(config.database);
  try {
    const applied = await migrateToLatest(database.db);
    if (command === 'migrate') {
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      return;
    }
    const services = createServices({ config, database, jwtSecret: resolveJwtSecret(config) });
    if (command === 'seed') {
      if (propertyCount !== undefined) return await seedListings(config, database, services, propertyCount);
      const created = await seedDemoTerms(services.taxonomies);
      console.log(created > 0 ? `created ${created} demo terms` : 'terms exist already; nothing seeded');
      return;
    }
    const { email, password, username } = values;
    if (!email || !password) throw new UsageError('create-admin needs --email and --password');
    if (password.length < 8 || password.length > 128) throw new UsageError('--password must be 8 to 128 characters');
    if (username !== undefined && !/^[A-Za-z0-9_.-]{3,60}$/.test(username)) {
      throw new UsageError('--username must be 3 to 60 letters, digits, _ . or -');
    }
    const { user, created } = await services.users.ensureAdministrator(email, password, username);
    console.log(
      created
        ? `administrator ${user.username} (id ${user.id}) created`
        : `an account with e-mail ${user.email} exists already (id ${user.id}, role ${user.role}); nothing changed`,
    );
  } finally {
    await database.destroy();
  }
}

const MAX_PROPERTIES = 1_000_000;

function parsePropertyCount(raw: string): number {
  const count = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!(count >= 1 && count <= MAX_PROPERTIES)) {
    throw new UsageError(`--properties must be a whole number from 1 to 1,000,000 (got "${raw}"), e.g. seed --properties 1000`);
  }
  return count;
}

/** `seed --properties N`: the demo taxonomy if there is none, then N listings, with a progress bar on stderr. */
async function seedListings(config: Config, database: Database, services: Services, count: number): Promise<void> {
  const [{ createStorage }, { seedDemoData }, { DemoTermsMissingError }] = await Promise.all([
    import('./adapters/storage/index.js'),
    import('./seed/seed-demo.js'),
    import('./seed/demo-listings.js'),
  ]);
  const started = performance.now();
  const bar = new ProgressBar('listings', count);
  const targets = {
    db: database.db,
    taxonomies: services.taxonomies,
    users: services.users,
    storage: createStorage(config),
    currency: config.payments.currency,
  };
  const { terms, listings } = await seedDemoData(targets, { count, onProgress: (written) => bar.advance(written) }).catch(
    (error: unknown) => {
      throw error instanceof DemoTermsMissingError ? new PlainError(error.message) : error;
    },
  );
  bar.finish();
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const termsNote = terms > 0 ? `${terms} demo terms, ` : '';
  console.log(
    `created ${termsNote}${listings.listings} demo listings (${listings.published} published) sharing ${listings.images} pictures in ${seconds} s`,
  );
}

/** A failure told as its message alone. */
class PlainError extends Error {}
/** A mistake on the command line. */
class UsageError extends PlainError {}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof PlainError) {
    console.error(error.message);
    if (error instanceof UsageError) console.error('Run `realty-api --help` for usage.');
  } else if (error instanceof AppError) {
    console.error(`failed: ${error.code}`);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
});
