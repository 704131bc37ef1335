import { parseArgs } from 'node:util';
import fs from 'node:fs';
import { createServices } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { createDatabase, migrateToLatest } from './db/database.js';
import { AppError } from './http/errors.js';
import { resolveJwtSecret } from './secrets.js';
import { seedDemoTerms } from './seed/seed-demo.js';
import { serve } from './server.js';

const USAGE = `Usage: realty-api <command> [options]

Commands:
  serve                         migrate, then serve the API (default)
  migrate                       apply pending database migrations
  seed                          fill an empty database with the demo taxonomy
  create-admin --email E --password P [--username U]
                                create an administrator account

Every setting is an environment variable (see README.md); a .env file is read when present.`;

async function main(argv: string[]): Promise<void> {
  if (fs.existsSync('.env')) process.loadEnvFile('.env');
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      email: { type: 'string' },
      password: { type: 'string' },
      username: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const command = positionals[0] ?? 'serve';
  if (values.help || !['serve', 'migrate', 'seed', 'create-admin'].includes(command)) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }

  const config = loadConfig();
  if (command === 'serve') return serve(config);

  const database = createDatabase(config.database);
  try {
    const applied = await migrateToLatest(database.db);
    if (command === 'migrate') {
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'database is up to date');
      return;
    }
    const services = createServices({ config, database, jwtSecret: resolveJwtSecret(config) });
    if (command === 'seed') {
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
    console.log(created ? `administrator ${user.username} (id ${user.id}) created` : `an account with e-mail ${user.email} exists already (id ${user.id}, role ${user.role}); nothing changed`);
  } finally {
    await database.destroy();
  }
}

class UsageError extends Error {}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof UsageError) {
    console.error(error.message);
    if (error instanceof UsageError) console.error('Run `realty-api --help` for usage.');
  } else if (error instanceof AppError) {
    console.error(`failed: ${error.code}`);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
});
