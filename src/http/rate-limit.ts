import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../config.js';
import { AppError } from '../lib/errors.js';

/**
 * Per-IP request limits of docs/api.md 0.6: one budget for every route, and a tighter one of its own for each
 * route that declares `config.rateLimit` (login, register, …). Counters live in memory, or in Redis when
 * REDIS_URL is set so that several processes share them. If Redis fails the request is let through
 * (logged): an outage of the limiter must not take the API down.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config, redis: Redis | undefined): Promise<void> {
  if (!config.rateLimit.enabled) return;
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimit.perMinute,
    timeWindow: 60_000,
    ...(redis ? { redis, nameSpace: `${config.redisKeyPrefix}rate:` } : {}),
    skipOnError: true,
    keyGenerator: (request) => request.ip,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', 'rate_limited', [], { seconds: Math.max(1, Math.ceil(context.ttl / 1000)) }),
  });
}

/** The tighter per-route budget for the sign-in family of routes. */
export function authRateLimit(config: Config) {
  return { max: config.rateLimit.authPerMinute, timeWindow: 60_000 };
}

/** The tighter per-route budget of contact forms and review creation (docs/api.md 0.6). */
export function formsRateLimit(config: Config) {
  return { max: config.rateLimit.formsPerMinute, timeWindow: 60_000 };
}

/**
 * A budget per key of the route's choosing (a portal feed's token) beside the per-address budget, which still
 * applies: a route's own `config.rateLimit` would replace that budget, and the plugin's hooks run once per
 * request, so this one is checked through `createRateLimit` in a hook of the route's. Over the budget: 429 with
 * Retry-After, as every limit answers. Undefined while rate limits are off. NOTE: with Redis its counters sit
 * under the plugin's name space followed by `undefinedundefined-` (a child limiter made outside a route knows no
 * route to name); the key says what they count.
 */
export function perKeyRateLimit(
  app: FastifyInstance,
  config: Config,
  budget: { max: number; key: (request: FastifyRequest) => string },
): onRequestAsyncHookHandler | undefined {
  if (!config.rateLimit.enabled) return undefined;
  const limit = app.createRateLimit({ max: budget.max, timeWindow: 60_000, keyGenerator: budget.key });
  return async (request) => {
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError('rate_limited', 'rate_limited', [], { seconds: Math.max(1, result.ttlInSeconds) });
    }
  };
}
