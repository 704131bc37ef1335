import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The console's pure logic is tested beside it (console/src), in the same run.
    include: ['test/**/*.test.ts', 'console/src/**/*.test.ts'],
    // Once per run: the PostgreSQL template database and the compiled CLI (test/helpers/global-setup.ts).
    globalSetup: ['test/helpers/global-setup.ts'],
    setupFiles: ['test/helpers/setup-file.ts'],
    // Child processes, not threads: better-sqlite3, sharp and argon2 are native modules.
    pool: 'forks',
    // Two test files at a time (the default on 2 cores is one), each process running file after file with
    // the modules it has loaded: loading the application again for every file cost more than its tests.
    maxWorkers: 2,
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
