import { defineConfig } from 'vitest/config';

/**
 * `npm run test:e2e`: the console in a real Chromium against real servers (test/e2e/harness.ts). One file at
 * a time: each starts a server and a browser, which fill this small machine's two cores on their own.
 */
export default defineConfig({
  test: {
    include: ['test/e2e/**/*.e2e.ts'],
    globalSetup: ['test/e2e/global-setup.ts'],
    pool: 'forks',
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
