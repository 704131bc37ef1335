import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from '../db/database.js';
import { pendingEventsLag } from '../db/domain-events.js';
import { changeLogHead } from '../db/change-log.js';
import { outboxBacklog } from '../db/outbox.js';
import { AppError } from '../lib/errors.js';
import type { MetricGauge } from '../lib/metric-gauge.js';

/**
 * `GET /metrics` in Prometheus' text format, for an operator's scraper: request rate and duration by route and
 * status, the process (memory, event-loop lag), the database pool, the change log's head, the outbox backlog and the lag of the domain
 * events that become notifications and saved-search alerts. Served only when METRICS_TOKEN is set, and then only
 * to `Authorization: Bearer <METRICS_TOKEN>` (anything else is a 401, as on the API).
 */
export function registerMetrics(
  app: FastifyInstance,
  { token, database, gauges = [] }: { token: string; database: Database; gauges?: readonly MetricGauge[] },
): void {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'realty_' });
  const duration = new Histogram({
    name: 'realty_http_request_duration_seconds',
    help: 'Time to answer a request, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const clientRequests = new Counter({
    name: 'realty_api_client_requests_total',
    help: 'Requests of machine clients, by client (its public client_id) and status',
    labelNames: ['client', 'status'] as const,
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern, never the raw URL: ids and typos must not each make a series of their own.
    const route = request.routeOptions.url ?? 'unmatched';
    if (route !== '/metrics') duration.observe({ method: request.method, route, status: reply.statusCode }, reply.elapsedTime / 1000);
    // A series per client: there are at most a hundred (modules/api-clients).
    const client = request.user?.client;
    if (client) clientRequests.inc({ client: client.clientId, status: reply.statusCode });
    done();
  });

  /** Reads made once per scrape, before the registry collects: both gauges of a backlog share one query. */
  const perScrape: (() => void)[] = [];
  const backlogGauge = (name: string, help: string, read: (now: Date) => Promise<{ pending: number; oldestAgeSeconds: number }>) => {
    let backlog: ReturnType<typeof read> = Promise.resolve({ pending: 0, oldestAgeSeconds: 0 });
    perScrape.push(() => {
      backlog = read(new Date());
      backlog.catch(() => undefined); // a failed read fails the scrape through the gauges that await it
    });
    new Gauge({
      name: `${name}_pending`,
      help,
      registers: [registry],
      async collect() {
        this.set((await backlog).pending);
      },
    });
    new Gauge({
      name: `${name}_oldest_age_seconds`,
      help: `${help}: age of the oldest`,
      registers: [registry],
      async collect() {
        this.set((await backlog).oldestAgeSeconds);
      },
    });
  };
  backlogGauge('realty_outbox', 'Outbox messages not sent yet (mail, push, payment calls)', (now) => outboxBacklog(database.db, now));
  backlogGauge('realty_domain_events', 'Domain events not yet turned into notifications and saved-search alerts', (now) =>
    pendingEventsLag(database.db, now),
  );
  new Gauge({
    name: 'realty_change_log_head',
    help: 'Number of the last committed change in the change log (listings, terms, agents, agencies)',
    registers: [registry],
    async collect() {
      this.set(await changeLogHead(database.db));
    },
  });
  const pool = new Gauge({
    name: 'realty_db_pool_connections',
    help: 'PostgreSQL pool connections by state (absent on SQLite)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const stats = database.poolStats?.();
      if (!stats) return;
      pool.set({ state: 'total' }, stats.total);
      pool.set({ state: 'idle' }, stats.idle);
      pool.set({ state: 'waiting' }, stats.waiting);
    },
  });
  // The modules' own (the search index's size and lag, …).
  for (const gauge of gauges) {
    new Gauge({
      name: gauge.name,
      help: gauge.help,
      labelNames: gauge.labelNames ?? [],
      registers: [registry],
      async collect() {
        const value = await gauge.read();
        this.reset();
        if (typeof value === 'number') this.set(value);
        else for (const { labels, value: labelled } of value ?? []) this.set(labels, labelled);
      },
    });
  }

  const expected = Buffer.from(`Bearer ${token}`);
  app.get('/metrics', { config: { auth: 'own', rateLimit: false }, schema: { hide: true } }, async (request, reply) => {
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw new AppError('unauthorized');
    for (const start of perScrape) start();
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
