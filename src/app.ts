import compress from '@fastify/compress';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Type } from 'typebox';
import { createStorage } from './adapters/storage/index.js';
import type { Config } from './config.js';
import { CacheStamps } from './db/cache-versions.js';
import { type Database, isDatabaseReady } from './db/database.js';
import { registerAuth } from './http/auth.js';
import { registerCors, wildcardCorsHeaders } from './http/cors.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerHealthRoutes } from './http/health.js';
import { languagePrefixRewriter } from './http/language.js';
import { registerOpenApi, registerOpenApiRoutes } from './http/openapi.js';
import { parseQueryString } from './http/querystring.js';
import { authRateLimit, registerRateLimit } from './http/rate-limit.js';
import { registerRequestBasics } from './http/request-basics.js';
import { requestIdFor } from './http/request-id.js';
import { registerValidation } from './http/validation.js';
import './http/request-context.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { LoginResult } from './modules/auth/auth.schemas.js';
import { AuthService } from './modules/auth/auth.service.js';
import { PasswordHasher } from './modules/auth/passwords.js';
import { AccessTokens } from './modules/auth/tokens.js';
import { taxonomyRoutes } from './modules/taxonomies/taxonomies.routes.js';
import { Term } from './modules/taxonomies/taxonomies.schemas.js';
import { TaxonomiesService } from './modules/taxonomies/taxonomies.service.js';
import { UsersService } from './modules/users/users.service.js';

export interface AppDependencies {
  config: Config;
  database: Database;
  jwtSecret: string;
  /** Shared state across processes (rate limits); optional. */
  redis?: Redis;
}

export interface Services {
  users: UsersService;
  auth: AuthService;
  taxonomies: TaxonomiesService;
}

/** The services of the application, wired once; the CLI uses them without HTTP. */
export function createServices({ config, database, jwtSecret }: AppDependencies): Services {
  const passwords = new PasswordHasher();
  const users = new UsersService(database.db, passwords);
  const tokens = new AccessTokens(jwtSecret, config.accessTokenTtlSeconds);
  const storage = createStorage(config);
  return {
    users,
    auth: new AuthService(database.db, users, passwords, tokens, config.refreshTokenTtlDays, storage),
    taxonomies: new TaxonomiesService(
      database.db,
      new CacheStamps(database.readCacheVersion, database.localWrites, config.cacheRevalidateMs),
    ),
  };
}

const LangQuery = Type.String({ pattern: '^[A-Za-z]{2}([-_][A-Za-z]{2,4})?$', description: 'Message language (en, ar, es, fr)' });

/**
 * Builds the HTTP application: plugins, cross-cutting hooks, then the modules' routes. Does not listen.
 * Pass the services when the caller uses them too (bootstrap, tests), so that both share one set.
 */
export async function buildApp(deps: AppDependencies, services: Services = createServices(deps)): Promise<FastifyInstance> {
  const { config, database } = deps;
  const apiBase = `${config.apiPrefix}/realty-api/v1`;
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie', 'body.password', 'body.refresh_token'],
    },
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    rewriteUrl: languagePrefixRewriter(config.apiPrefix),
    routerOptions: { querystringParser: parseQueryString },
  });
  registerValidation(app);

  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  registerRequestBasics(app, { isClosing: () => closing, extraHeaders: wildcardCorsHeaders(config.corsOrigins) });
  registerErrorHandling(app);
  registerAuth(app, services.auth);

  await registerCors(app, config.corsOrigins);
  // Responses only: clients send small JSON bodies, and a decompression hook would run on every request.
  await app.register(compress, { threshold: 1024, globalDecompression: false });
  await registerRateLimit(app, config, deps.redis);
  await registerOpenApi(app, config.apiPrefix);

  // Every route accepts `lang` (API.md 12) and refuses every other unknown query parameter.
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs')) return;
    const schema = (route.schema ??= {});
    const query = (schema.querystring ?? Type.Object({}, { additionalProperties: false })) as {
      properties?: Record<string, unknown>;
    };
    schema.querystring = { ...query, properties: { ...query.properties, lang: Type.Optional(LangQuery) } };
  });

  app.addSchema(Term);
  app.addSchema(LoginResult);
  registerHealthRoutes(app, async () => !closing && (await isDatabaseReady(database.db)));
  await app.register(
    async (api) => {
      await api.register(taxonomyRoutes, { taxonomies: services.taxonomies });
      await api.register(authRoutes, { auth: services.auth, signInRateLimit: authRateLimit(config) });
    },
    { prefix: apiBase },
  );
  await registerOpenApiRoutes(app, config.apiPrefix);
  return app;
}
