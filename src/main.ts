import { parseArgs } from 'node:util';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { Services } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';
import type { Database } from './db/database.js';
import { AppError } from './lib/errors.js';
import { ProgressBar } from './lib/progress-bar.js';
import { keepHeapNearLiveData } from './lib/streaming-heap.js';

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
  import <file|url> --format F [--source NAME] [--owner EMAIL] [--dry-run] [--strict] [--withdraw-missing]
                                import listings from a feed (F: csv, reso, kyero), or a WordPress/Houzez site's export (F: wxr); see docs/data-exchange.md
                                --strict: a record with a warning (an optional value that cannot be read) is rejected, and the import stops at the first rejection
  export --format F [--output FILE]
                                write every listing as a feed (F: csv, reso, kyero) to FILE or standard output
  openapi                       print the OpenAPI document of this build and configuration (what clients are generated from)

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
      format: { type: 'string' },
      source: { type: 'string' },
      owner: { type: 'string' },
      output: { type: 'string' },
      'dry-run': { type: 'boolean' },
      strict: { type: 'boolean' },
      'withdraw-missing': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || !COMMANDS.includes(command)) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }
  if (values.properties !== undefined && command !== 'seed') throw new UsageError('--properties goes with the seed command');
  const propertyCount = values.properties === undefined ? undefined : parsePropertyCount(values.properties);
  const feed = feedArguments(command, positionals, values);
  // Before the application loads: V8 sets each collection's limit at the one before, so a setting made later
  // lets the heap reach four times its live data once more (a PostgreSQL export: 154 MB before it applied).
  if (feed) keepHeapNearLiveData();

  const config = loadConfig();
  if (command === 'serve') return (await import('./server.js')).serve(config);
  if (command === 'openapi') return printOpenApiDocument(config);

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
    if (feed) {
      const { FeedCommandError, exportCommand, importCommand } = await import('./feed-commands.js');
      try {
        return await (feed.command === 'import' ? importCommand(services, config, feed) : exportCommand(services, feed));
      } catch (error) {
        throw error instanceof FeedCommandError ? new PlainError(error.message) : error;
      }
    }
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

/**
 * The OpenAPI document as this configuration serves it, from an app built on an empty database in memory: the
 * document depends on the routes, never on the data, and the configured database is left alone.
 */
async function printOpenApiDocument(config: Config): Promise<void> {
  const [{ buildApp, createServices }, { createDatabase, migrateToLatest }] = await Promise.all([
    import('./app.js'),
    import('./db/database.js'),
  ]);
  const inMemory = { ...config, database: { kind: 'sqlite', path: ':memory:' } as const };
  const database = createDatabase(inMemory.database);
  await migrateToLatest(database.db);
  // No token is ever issued by this app: a throwaway secret, so that no secret file is made for it.
  const deps = { config: inMemory, database, jwtSecret: randomBytes(32).toString('hex') };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  try {
    await app.ready();
    process.stdout.write(`${JSON.stringify(app.swagger(), null, 2)}\n`);
  } finally {
    await app.close();
    await services.shutdown();
    await database.destroy();
  }
}

const COMMANDS = ['serve', 'migrate', 'seed', 'create-admin', 'import', 'export', 'openapi'];
const FEED_OPTIONS = {
  import: ['format', 'source', 'owner', 'dry-run', 'strict', 'withdraw-missing'],
  export: ['format', 'output'],
} as const;
/** The formats each command takes (modules/exchange feed-formats.ts; kept here so that a mistake loads nothing). */
const FEED_FORMATS = { import: ['csv', 'reso', 'kyero', 'wxr'], export: ['csv', 'reso', 'kyero'] } as const;

type ImportFormat = (typeof FEED_FORMATS)['import'][number];
type ExportFormat = (typeof FEED_FORMATS)['export'][number];
type FeedArguments =
  | ({ command: 'import' } & import('./feed-commands.js').ImportCommand)
  | ({ command: 'export' } & import('./feed-commands.js').ExportCommand);

/** The feed command's arguments, checked; undefined for other commands (which must not be given feed options). */
function feedArguments(
  command: string,
  positionals: string[],
  values: Record<string, string | boolean | undefined>,
): FeedArguments | undefined {
  const given = Object.entries(values).filter(([name, value]) => value !== undefined && name in FEED_OPTION_NAMES);
  if (command !== 'import' && command !== 'export') {
    if (given.length > 0) throw new UsageError(`--${given[0]![0]} goes with the import or export command`);
    return undefined;
  }
  const allowed: readonly string[] = FEED_OPTIONS[command];
  const stray = given.find(([name]) => !allowed.includes(name));
  if (stray) throw new UsageError(`--${stray[0]} does not go with the ${command} command`);
  const format = values.format;
  const formats: readonly string[] = FEED_FORMATS[command];
  if (typeof format !== 'string' || !formats.includes(format)) {
    throw new UsageError(
      `${command} needs --format, one of: ${formats.join(', ')}${format === undefined ? '' : ` (got "${String(format)}")`}`,
    );
  }
  if (command === 'export') {
    if (positionals.length > 1) throw new UsageError('export takes no file argument; use --output FILE');
    return { command, format: format as ExportFormat, output: values.output as string | undefined };
  }
  if (positionals.length !== 2) throw new UsageError('import needs one file, e.g. realty-api import listings.csv --format csv');
  return {
    command,
    input: positionals[1]!,
    format: format as ImportFormat,
    source: values.source as string | undefined,
    ownerEmail: values.owner as string | undefined,
    dryRun: values['dry-run'] === true,
    strict: values.strict === true,
    withdrawMissing: values['withdraw-missing'] === true,
  };
}

const FEED_OPTION_NAMES = Object.fromEntries([...FEED_OPTIONS.import, ...FEED_OPTIONS.export].map((name) => [name, true]));

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
