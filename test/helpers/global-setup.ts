import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { TestProject } from 'vitest/node';
import { postgresAdmin, postgresUrlFor } from './postgres.js';

/**
 * Once per `vitest run`, before any test file:
 * - with TEST_DATABASE_URL, a PostgreSQL database migrated once, which each test database copies
 *   (`CREATE DATABASE … TEMPLATE`, database.ts) instead of migrating a schema of its own;
 * - the programs that tests start as processes (the CLI, the outbox crash worker), compiled once into
 *   plain JavaScript (programs.ts), so that no process start compiles TypeScript.
 * The teardown drops the template and removes the compiled files.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const cleanups: (() => Promise<void> | void)[] = [];
  const teardown = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  };
  try {
    const bin = await compilePrograms();
    cleanups.push(() => removePrograms(bin));
    project.provide('programsDir', bin);
    try {
      const template = await migratedPostgresTemplate();
      if (template) cleanups.push(template.drop);
      project.provide('postgresTemplate', template?.name ?? '');
    } catch (error) {
      // The PostgreSQL tests fail with this (database.ts); the SQLite ones still run.
      project.provide('postgresTemplate', '');
      project.provide('postgresTemplateError', `the PostgreSQL template database was not made: ${String(error)}`);
    }
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where global-setup.ts put the compiled programs (programs.ts). */
    programsDir: string;
    /** The migrated template database of this run; empty without TEST_DATABASE_URL (database.ts). */
    postgresTemplate: string;
    /** Why there is no template although TEST_DATABASE_URL is set. */
    postgresTemplateError?: string;
  }
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/** The entry points tests start as processes, by the name of their compiled file. */
export const PROGRAMS = {
  'main.mjs': 'src/main.ts',
  'outbox-crash-worker.mjs': 'test/notifications/outbox-crash-worker.ts',
} as const;

/**
 * The worker threads those programs start. Code names a worker by its compiled path beside its own
 * (`new URL('./<name>.js', import.meta.url)`, lib/worker-thread.ts); bundled, every caller is in the programs'
 * directory, so each worker is bundled there under that name.
 */
const WORKER_THREADS = {
  'wal-checkpoint-worker.js': 'src/db/wal-checkpoint-worker.ts',
  'feed-reading-worker.js': 'src/modules/exchange/import-runs/feed-reading-worker.ts',
  'index-rows-worker.js': 'src/modules/search/engine/index-rows-worker.ts',
  'demo-drafts-worker.js': 'src/seed/demo-drafts-worker.ts',
} as const;

/** Compiles PROGRAMS into a new temporary directory (also used by the browser tests' setup, test/e2e). */
export async function compilePrograms(): Promise<string> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-test-programs-'));
  // Two levels below a stand-in project root, as dist/ files are: code that finds the checkout's files from its
  // own place (src/site/browser, the website's assets) finds them through the `src` link beside node_modules.
  const dir = path.join(root, 'dist', 'programs');
  fs.mkdirSync(dir, { recursive: true });
  // The workers' bundles keep the `.js` their callers name them by: ES modules, as dist/ is under package.json.
  fs.writeFileSync(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  // Packages stay outside the bundles, as `npm start` loads them: resolved from the project's node_modules.
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(root, 'node_modules'), 'dir');
  fs.symlinkSync(path.join(ROOT, 'src'), path.join(root, 'src'), 'dir');
  for (const [file, source] of Object.entries({ ...PROGRAMS, ...WORKER_THREADS })) {
    try {
      await build({
        absWorkingDir: ROOT,
        entryPoints: [source],
        outfile: path.join(dir, file),
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        sourcemap: true,
        tsconfig: path.join(ROOT, 'tsconfig.json'),
        logLevel: 'silent',
      });
    } catch (error) {
      // Only the tests that start this program fail (programs.ts reports why), not the whole run.
      fs.writeFileSync(path.join(dir, `${file}.error`), error instanceof Error ? error.message : String(error));
    }
  }
  return dir;
}

/** Removes what compilePrograms made, the stand-in root with it. */
export function removePrograms(dir: string): void {
  fs.rmSync(path.resolve(dir, '..', '..'), { recursive: true, force: true });
}

async function migratedPostgresTemplate(): Promise<{ name: string; drop(): Promise<void> } | undefined> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) return undefined;
  // Unique per run (several runs may share the server); short enough for the copies' names (63 bytes).
  const name = `realty_t_${Date.now().toString(36)}_${process.pid}`;
  await postgresAdmin(url, (client) => client.query(`create database "${name}"`));
  const drop = () => postgresAdmin(url, (client) => client.query(`drop database if exists "${name}" with (force)`)).then(() => undefined);
  try {
    // Imported here: a run without PostgreSQL does not depend on the application loading at all.
    const { createDatabase, migrateToLatest } = await import('../../src/db/database.js');
    const database = createDatabase({ kind: 'postgres', url: postgresUrlFor(url, name) });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.destroy();
    }
    // A copy fails while anyone is connected to the template: refuse connections from now on.
    await postgresAdmin(url, (client) => client.query(`alter database "${name}" with allow_connections false`));
  } catch (error) {
    await drop();
    throw error;
  }
  return { name, drop };
}
