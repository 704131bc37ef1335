import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing } from '../helpers/factories.js';

const TOKEN = 'a-metrics-token-of-32-characters';

describeEachDialect('GET /metrics (%s)', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { METRICS_TOKEN: TOKEN });
  });
  afterAll(() => t.close());

  const scrape = (authorization?: string) =>
    t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });

  it('serves the Prometheus text format to the token only', async () => {
    for (const wrong of [undefined, 'Bearer nope', `Bearer ${TOKEN}x`, TOKEN]) {
      const res = await scrape(wrong);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ success: false, code: 'unauthorized' });
    }
    const res = await scrape(`Bearer ${TOKEN}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('counts requests by route pattern and status, and reports the outbox and event backlogs', async () => {
    await t.app.inject({ method: 'GET', url: '/realty-api/v1/properties/123456789' });
    await t.app.inject({ method: 'GET', url: '/realty-api/v1/no-such-route' });
    await t.database.db
      .insertInto('outbox')
      .values({
        channel: 'email',
        idempotency_key: 'metrics-test',
        payload: '{}',
        available_at: new Date(Date.now() - 60_000).toISOString(),
        created_at: new Date(Date.now() - 60_000).toISOString(),
        last_error: null,
        sent_at: null,
      })
      .execute();
    const text = (await scrape(`Bearer ${TOKEN}`)).body;
    expect(text).toContain('realty_http_request_duration_seconds_count{method="GET",route="/realty-api/v1/properties/:id",status="404"} 1');
    expect(text).toContain('route="unmatched",status="404"');
    expect(text).not.toContain('123456789');
    expect(text).toMatch(/^realty_outbox_pending [1-9]/m);
    expect(Number(/^realty_outbox_oldest_age_seconds (\S+)/m.exec(text)?.[1])).toBeGreaterThanOrEqual(59);
    expect(text).toMatch(/^realty_domain_events_pending \d+/m);
    const listingId = await newListing(t.database.db);
    expect(Number(/^realty_change_log_head (\S+)/m.exec((await scrape(`Bearer ${TOKEN}`)).body)?.[1])).toBe(
      Number(
        (
          await t.database.db
            .selectFrom('change_log')
            .select((eb) => eb.fn.max('seq').as('seq'))
            .where('entity', '=', 'listing')
            .where('entity_id', '=', listingId)
            .executeTakeFirstOrThrow()
        ).seq,
      ),
    );
    expect(text).toContain('realty_process_resident_memory_bytes');
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  it('does not exist', async () => {
    const t = await buildTestApp('sqlite');
    try {
      expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
