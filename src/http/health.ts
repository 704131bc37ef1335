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
  app.get('/health', { config, schema: { tags: ['health'], response: { 200: Status } } }, async () => ({
    success: true,
    data: { status: 'ok' },
  }));
  app.get('/ready', { config, schema: { tags: ['health'], response: { 200: Status, ...errorResponses(503) } } }, async () => {
    if (!(await isReady())) throw new AppError('service_unavailable');
    return { success: true, data: { status: 'ready' } };
  });
}
