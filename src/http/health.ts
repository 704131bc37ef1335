import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { AppError } from '../lib/errors.js';
import { Envelope, errorResponses } from './envelope.js';

const Status = Envelope(Type.Object({ status: Type.String() }));

/**
 * `/health` (the process answers) and `/ready` (database reachable, migrations applied, every module ready: the
 * search index built), at the root.
 */
export function registerHealthRoutes(app: FastifyInstance, isReady: () => Promise<boolean>): void {
  const config = { rateLimit: false } as const;
  const health = {
    tags: ['health'],
    summary: 'Liveness: the process answers',
    description: 'For a liveness probe: not rate limited, outside API_PREFIX.',
    response: { 200: Status },
  };
  const ready = {
    tags: ['health'],
    summary: 'Readiness: this process can serve every route',
    description:
      'For a load balancer: 503 while the database is unreachable, a migration is not applied (or the database has one this build does not know), the search index is not built yet, or the process is shutting down.',
    response: { 200: Status, ...errorResponses(503) },
  };
  app.get('/health', { config, schema: health }, async () => ({
    success: true,
    data: { status: 'ok' },
  }));
  app.get('/ready', { config, schema: ready }, async () => {
    if (!(await isReady())) throw new AppError('service_unavailable');
    return { success: true, data: { status: 'ready' } };
  });
}
