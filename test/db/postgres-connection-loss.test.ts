import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../helpers/app.js';
import { DIALECTS } from '../helpers/database.js';
import { postgresAdmin } from '../helpers/postgres.js';

/**
 * PostgreSQL can drop a pooled connection while it sits idle (a restart, a failover, an administrator's kill).
 * The pool reports it as an 'error' event, which ended the process when nothing listened to it.
 */
describe.runIf(DIALECTS.includes('postgres'))('a PostgreSQL connection dropped while idle', () => {
  it('costs the process nothing: the pool lets it go and the next request opens another', async () => {
    const t = await buildTestApp('postgres');
    try {
      expect((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
      expect(t.database.poolStats?.().idle).toBeGreaterThan(0);
      const database = new URL(t.database.url!).pathname.slice(1);
      await postgresAdmin(process.env.TEST_DATABASE_URL!, (client) =>
        client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [database]),
      );
      const deadline = Date.now() + 10_000;
      while (t.database.poolStats?.().idle !== 0 && Date.now() < deadline) await new Promise((resolve) => setImmediate(resolve));
      expect(t.database.poolStats?.().idle).toBe(0);
      expect((await t.app.inject({ method: 'GET', url: '/ready' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
