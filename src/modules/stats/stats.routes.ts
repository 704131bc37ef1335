import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Envelope, errorResponses } from '../../http/envelope.js';
import type { StatsService } from './stats.service.js';
import { ActivityQuery, DailyActivity, ListingStates, Revenue, RevenueQuery, STATS_READERS } from './stats.schemas.js';

const security = [{ bearer: [] }];
const readers = { auth: STATS_READERS };

/** The dashboards' figures (docs/api.md 13): administrators and managers only. */
export async function statsRoutes(app: FastifyInstance, { stats }: { stats: StatsService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/stats/listings',
    {
      config: readers,
      schema: {
        tags: ['stats'],
        summary: 'How many listings are in each state (administrator, manager)',
        description: 'Every listing counts, whoever wrote it; every state of docs/api.md 4.3 is present, 0 when empty.',
        security,
        response: { 200: Envelope(ListingStates), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async () => ({ success: true, data: await stats.listingStates() }),
  );

  api.get(
    '/stats/activity',
    {
      config: readers,
      schema: {
        tags: ['stats'],
        summary: 'New listings and new leads per day (administrator, manager)',
        description:
          'Per UTC day over the `days` days ending today (today included, so far): listings created (whatever their ' +
          'state now; deleted ones no longer count) and leads received. Every day of the window is present, oldest ' +
          'first, 0 on days without any.',
        security,
        querystring: ActivityQuery,
        response: { 200: Envelope(DailyActivity), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await stats.dailyActivity(request.query) }),
  );

  api.get(
    '/stats/revenue',
    {
      config: readers,
      schema: {
        tags: ['stats'],
        summary: 'Revenue per month and currency, from paid invoices (administrator, manager)',
        description:
          'Invoices in state `paid`, by the UTC month of `paid_at`, over the `months` calendar months ending with this ' +
          'one. One series per currency, never converted or added across currencies; each has every month of the ' +
          'window (0 where nothing was paid) and the window’s sums. `amount` is before tax, `total` = amount + tax. ' +
          'Archived invoices count (they are kept for accounting); pending, cancelled and refunded ones do not.',
        security,
        querystring: RevenueQuery,
        response: { 200: Envelope(Revenue), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await stats.revenue(request.query) }),
  );
}
