import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { isDatabaseReady } from './db/database.js';
import { registerAuth } from './http/auth.js';
import { registerCors, wildcardCorsHeaders } from './http/cors.js';
import { registerConsole } from './http/console.js';
import { frameworkErrorHandler, registerErrorHandling, registerNotFound } from './http/error-handler.js';
import { registerHealthRoutes } from './http/health.js';
import { acceptLangQuery, languagePrefixRewriter } from './http/language.js';
import { registerOpenApi, registerOpenApiRoutes } from './http/openapi.js';
import { parseQueryString } from './http/querystring.js';
import { registerRateLimit } from './http/rate-limit.js';
import { registerRequestBasics, requestBasics } from './http/request-basics.js';
import './http/request-context.js';
import { requestIdFor } from './http/request-id.js';
import { sharedSerializers } from './http/serialization.js';
import { registerUploadsRoute } from './http/uploads.js';
import { registerValidation } from './http/validation.js';
import { scheduleBackgroundJobs } from './jobs/background-jobs.js';
import { emailSender } from './jobs/email-sender.js';
import { OutboxWorker } from './jobs/outbox.js';
import type { Scheduler } from './jobs/scheduler.js';
import type { CacheStamps } from './db/cache-versions.js';
import { createAccountsModule } from './modules/accounts/index.js';
import { CLIENT_SCOPES, createApiClientsModule, routesOfScopes, sentByClient } from './modules/api-clients/index.js';
import { createAuthModule } from './modules/auth/index.js';
import { createDirectoryModule, createDirectoryRecordMaker } from './modules/directory/index.js';
import { createExchangeModule } from './modules/exchange/index.js';
import { createLeadsModule } from './modules/leads/index.js';
import { createMediaModule } from './modules/media/index.js';
import type { AppModule, Platform, ServicesOf } from './modules/module.js';
import { createNotificationsModule } from './modules/notifications/index.js';
import { createListingCharges, createPaymentsModule } from './modules/payments/index.js';
import { createPropertiesModule } from './modules/properties/index.js';
import { createReviewsModule } from './modules/reviews/index.js';
import { createSavedSearchesModule } from './modules/saved-searches/index.js';
import { createSearchModule } from './modules/search/index.js';
import { createSiteSettingsModule } from './modules/site-settings/index.js';
import { createSocialModule } from './modules/social/index.js';
import { createStatsModule } from './modules/stats/index.js';
import { createTaxonomiesModule } from './modules/taxonomies/index.js';
import { createUsersModule } from './modules/users/index.js';
import { createWebhooksModule } from './modules/webhooks/index.js';
import { type AppDependencies, createPlatform } from './platform.js';
import { registerSite } from './site/index.js';

export type { AppDependencies } from './platform.js';

/** Every module's services in one bag, for the CLI, the server and the tests, with what runs beside them. */
export type Services = ServicesOf<ReturnType<typeof createModules>> & {
  log: FastifyBaseLogger;
  /** The cache stamps the services' caches follow; the website's pages follow them too. */
  stamps: CacheStamps;
  /** The modules, in the order their routes are registered. */
  modules: readonly AppModule[];
  /** Sends the e-mail, push and Stripe messages the services write to the outbox. */
  outbox: OutboxWorker;
  /** Runs every background job once per period across processes (jobs/background-jobs.ts). */
  scheduler: Scheduler;
  /** `serve`, before the application is built: begins what the modules must finish before `/ready` (the search index). */
  prepareForServing(): void;
  /** `serve`: starts the scheduler and what the modules run beside the requests. */
  startBackgroundWork(): void;
  /** Stops background work and closes connections the services opened. */
  shutdown(): Promise<void>;
};

/** Each module made once, in dependency order; the list is the order their routes are registered in. */
function createModules(platform: Platform) {
  const taxonomies = createTaxonomiesModule(platform);
  const accounts = createAccountsModule(platform, { directoryRecords: createDirectoryRecordMaker() });
  const auth = createAuthModule(platform, accounts.services);
  const apiClients = createApiClientsModule(platform, auth.services);
  const media = createMediaModule(platform, accounts.services);
  const social = createSocialModule(platform, { ...accounts.services, ...auth.services });
  const charges = createListingCharges(platform);
  const siteSettings = createSiteSettingsModule(platform);
  const properties = createPropertiesModule(platform, { ...taxonomies.services, ...media.services, ...siteSettings.services, charges });
  // After properties: an account deletion asks its ListingMoves to take the author's listings off the site.
  const users = createUsersModule(platform, { ...accounts.services, ...auth.services, ...media.services, ...properties.services });
  const search = createSearchModule(platform, properties.services);
  const directory = createDirectoryModule(platform, { ...properties.services, ...search.services });
  const notifications = createNotificationsModule(platform);
  const leads = createLeadsModule(platform, { ...properties.services, ...directory.services, ...notifications.services });
  const reviews = createReviewsModule(platform, { ...properties.services, ...directory.services });
  const savedSearches = createSavedSearchesModule(platform, { ...search.services, ...notifications.services });
  const payments = createPaymentsModule(platform, { ...accounts.services, ...users.services, ...properties.services });
  const stats = createStatsModule(platform);
  const exchange = createExchangeModule(platform, {
    ...taxonomies.services,
    ...properties.services,
    ...media.services,
    ...accounts.services,
    ...directory.services,
  });
  const webhooks = createWebhooksModule(platform, {
    ...properties.services,
    ...notifications.services,
    ...leads.services,
    ...reviews.services,
    agents: directory.services.agents,
    agencies: directory.services.agencies,
    invoices: payments.services.invoices,
    memberships: payments.services.memberships,
  });
  return [
    taxonomies,
    accounts,
    auth,
    social,
    media,
    users,
    search,
    properties,
    savedSearches,
    leads,
    reviews,
    notifications,
    directory,
    payments,
    stats,
    exchange,
    siteSettings,
    webhooks,
    apiClients,
  ] as const;
}

/** The application's modules, wired once in dependency order; the CLI uses them without HTTP. */
export function createServices(deps: AppDependencies): Services {
  const platform = createPlatform(deps);
  const { config, database, log } = platform;
  const modules = createModules(platform);

  const senders = Object.assign({ email: emailSender(platform.mailer) }, ...modules.map((module) => module.senders ?? {}));
  const outbox = new OutboxWorker(database.db, senders, log);
  const jobs = modules.flatMap((module) => module.jobs ?? []);
  const scheduler = scheduleBackgroundJobs(database.db, log, outbox, jobs, config.outboxPollMs);
  return {
    ...(Object.assign({}, ...modules.map((module) => module.services)) as ServicesOf<typeof modules>),
    log,
    stamps: platform.stamps,
    modules,
    outbox,
    scheduler,
    prepareForServing() {
      for (const module of modules) module.prepare?.();
    },
    startBackgroundWork() {
      scheduler.start();
      for (const module of modules) module.start?.();
    },
    async shutdown() {
      await scheduler.stop();
      for (const module of modules) await module.stop?.();
      platform.mailer.close();
    },
  };
}

/**
 * Builds the HTTP application: plugins, cross-cutting hooks, then the modules' schemas and routes. Does not
 * listen. Pass the services when the caller uses them too (bootstrap, tests), so that both share one set.
 */
export async function buildApp(deps: AppDependencies, services: Services = createServices(deps)): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    loggerInstance: services.log,
    genReqId: requestIdFor,
    requestIdHeader: false,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    return503OnClosing: false,
    forceCloseConnections: 'idle',
    // Timeouts on purpose (docs/operations.md): no limit on a request's duration, which would cut the live
    // notification stream and long uploads; idle keep-alive sockets close after 72 s (longer than common
    // proxies' 60 s, so the proxy closes first); headers must arrive within 15 s (slow-header clients), checked
    // every 2 s (Node's default sweep, every 30 s, let them stay up to 45 s).
    requestTimeout: 0,
    keepAliveTimeout: 72_000,
    http: { headersTimeout: 15_000, connectionsCheckingInterval: 2_000 },
    rewriteUrl: languagePrefixRewriter(config.apiPrefix),
    routerOptions: { querystringParser: parseQueryString },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
    // URLs the router cannot read (a bad percent-encoding, an over-long parameter) are answered in the error body too.
    frameworkErrors: frameworkErrorHandler(requestBasics(wildcardCorsHeaders(config.corsOrigins))),
  });
  registerValidation(app);

  const { isClosing } = registerRequestBasics(app, wildcardCorsHeaders(config.corsOrigins));
  registerErrorHandling(app);
  registerAuth(app, services.callers);

  await registerCors(app, config.corsOrigins);
  // Responses only: clients send small JSON bodies, and a decompression hook would run on every request.
  await app.register(compress, { threshold: 1024, globalDecompression: false });
  await registerRateLimit(app, config, deps.redis, sentByClient);
  await registerOpenApi(app, config, { descriptions: CLIENT_SCOPES, scopeOf: (route) => routesOfScopes().get(route) });

  acceptLangQuery(app);

  for (const module of services.modules) for (const schema of module.schemas ?? []) app.addSchema(schema);
  if (config.metricsToken) {
    // prom-client loads only for a process that serves /metrics.
    const { registerMetrics } = await import('./http/metrics.js');
    registerMetrics(app, { token: config.metricsToken, database, gauges: services.modules.flatMap((module) => module.gauges ?? []) });
  }
  registerHealthRoutes(app, async () => {
    if (isClosing() || !(await isDatabaseReady(database.db))) return false;
    for (const module of services.modules) if (module.isReady && !(await module.isReady())) return false;
    return true;
  });
  if (!config.s3) await registerUploadsRoute(app, config.uploads.dir);
  await app.register(
    async (api) => {
      for (const module of services.modules) if (module.routes) await api.register(module.routes);
    },
    { prefix: `${config.apiPrefix}/realty-api/v1` },
  );
  await registerOpenApiRoutes(app, config.apiPrefix);
  if (config.console.enabled) {
    await registerConsole(app, {
      console: config.console,
      apiBase: `${config.apiPrefix}/realty-api/v1`,
      mediaOrigin: new URL(config.s3 ? config.s3.publicUrl : config.publicUrl).origin,
    });
  }
  const site = config.site.enabled
    ? await registerSite(app, { config, services, stamps: services.stamps, brands: services.siteSettings, secret: deps.jwtSecret })
    : undefined;
  registerNotFound(app, site, {
    locationFor: (url) => services.redirects.locationFor(url),
    maxAgeSeconds: config.site.sharedMaxAgeSeconds,
  });
  return app;
}
