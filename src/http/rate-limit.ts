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
export async function registerRateLimit(
  app: FastifyInstance,
  config: Config,
  redis: Redis | undefined,
  /** Requests metered by a budget of their own instead of the address's (machine clients', modules/api-clients). */
  hasOwnBudget: (request: FastifyRequest) => boolean = () => false,
): Promise<void> {
  if (!config.rateLimit.enabled) return;
  await app.register(rateLimit, {
    global: true,
    allowList: (request) => hasOwnBudget(request),
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
 * A check of one request against a budget, under a key known only once the request is read; throws 429 when over
 * it. `max` replaces the budget's size for this key (a machine client's own limit).
 */
export type KeyedRateCheck = (request: FastifyRequest, key: string, max?: number) => Promise<void>;

/**
 * A budget of `max` a minute per key, checked where a route knows the key (a session once its refresh token is
 * read), beside the per-address budget. A route's own `config.rateLimit` would replace that budget, and the
 * plugin's hooks run once per request, so this one goes through `createRateLimit`. Over the budget: 429 with
 * Retry-After, as every limit answers. Undefined while rate limits are off. With Redis every such budget shares
 * the plugin's name space followed by `undefinedundefined-` (a limiter made outside a route knows no route to
 * name), so the keys start with the budget's `name`.
 */
export function keyedRateLimit(app: FastifyInstance, config: Config, name: string, max: number): KeyedRateCheck | undefined {
  if (!config.rateLimit.enabled) return undefined;
  const budgets = new WeakMap<FastifyRequest, { key: string; max: number }>();
  const limit = app.createRateLimit({
    // Not the global budget's exceptions (requests on a budget of their own, which may be this one).
    allowList: [],
    max: (request) => budgets.get(request)?.max ?? max,
    timeWindow: 60_000,
    keyGenerator: (request) => `${name}:${budgets.get(request)?.key}`,
  });
  return async (request, key, keyMax = max) => {
    budgets.set(request, { key, max: keyMax });
    const result = await limit(request);
    if (!result.isAllowed && result.isExceeded) {
      throw new AppError('rate_limited', 'rate_limited', [], { seconds: Math.max(1, result.ttlInSeconds) });
    }
  };
}

/** keyedRateLimit as an onRequest hook, for a key found in the request itself (a portal feed's token). */
export function perKeyRateLimit(
  app: FastifyInstance,
  config: Config,
  budget: { name: string; max: number; key: (request: FastifyRequest) => string },
): onRequestAsyncHookHandler | undefined {
  const check = keyedRateLimit(app, config, budget.name, budget.max);
  return check && ((request) => check(request, budget.key(request)));
}
