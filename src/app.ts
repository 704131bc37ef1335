import compress from '@fastify/compress';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import { Type } from 'typebox';
import { LogMailer, type Mailer, SmtpMailer } from './adapters/mail/mailer.js';
import { StripeGateway } from './adapters/payments/stripe-gateway.js';
import { createSocialVerifiers } from './adapters/social/index.js';
import { createStorage } from './adapters/storage/index.js';
import type { Config } from './config.js';
import { CacheStamps } from './db/cache-versions.js';
import { type Database, isDatabaseReady } from './db/database.js';
import { registerAuth } from './http/auth.js';
import { registerCors, wildcardCorsHeaders } from './http/cors.js';
import { registerErrorHandling } from './http/error-handler.js';
import { registerHealthRoutes } from './http/health.js';
import { languagePrefixRewriter } from './http/language.js';
import { registerMultipart } from './http/multipart.js';
import { registerOpenApi, registerOpenApiRoutes } from './http/openapi.js';
import { parseQueryString } from './http/querystring.js';
import { authRateLimit, formsRateLimit, registerRateLimit } from './http/rate-limit.js';
import { registerRequestBasics } from './http/request-basics.js';
import { requestIdFor } from './http/request-id.js';
import { registerUploadsRoute } from './http/uploads.js';
import { registerValidation } from './http/validation.js';
import './http/request-context.js';
import { emailSender } from './jobs/email-sender.js';
import { notificationEmailSender } from './modules/notifications/delivery/notification-email-sender.service.js';
import { subscriptionSender } from './modules/payments/stripe/subscription-sender.service.js';
import { ListingExpiryJob } from './modules/properties/moderation/listing-expiry.service.js';
import { MembershipExpiryJob } from './modules/payments/memberships/membership-expiry.service.js';
import { OutboxWorker } from './jobs/outbox.js';
import { NotificationEventsJob } from './modules/notifications/events/notification-events.service.js';
import { pushSender } from './modules/notifications/delivery/push-sender.service.js';
import { scheduleBackgroundJobs } from './jobs/background-jobs.js';
import type { Scheduler } from './jobs/scheduler.js';
import { FcmClient } from './adapters/push/fcm.js';
import { createLogger } from './logger.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { LoginResult, TokenPair } from './modules/auth/auth.schemas.js';
import { AuthService } from './modules/auth/auth.service.js';
import { LoginLocks } from './modules/auth/login-locks.service.js';
import { PasswordResetService } from './modules/auth/password-reset.service.js';
import { PasswordHasher } from './modules/accounts/password-hasher.service.js';
import { DatabaseStampSignal, RedisRevocationChannel } from './modules/auth/revocations.service.js';
import { SessionCache } from './modules/auth/session-cache.service.js';
import { AccessTokens } from './modules/auth/access-tokens.service.js';
import { agencyRoutes } from './modules/directory/agencies.routes.js';
import { AgenciesService } from './modules/directory/agencies.service.js';
import { agentRoutes } from './modules/directory/agents.routes.js';
import { AgentsService } from './modules/directory/agents.service.js';
import { DirectoryListings } from './modules/directory/directory-listings.service.js';
import { DirectoryRecords } from './modules/directory/directory-records.service.js';
import { Agency, Agent } from './modules/directory/directory.schemas.js';
import { leadRoutes } from './modules/leads/leads.routes.js';
import { Lead } from './modules/leads/leads.schemas.js';
import { LeadsService } from './modules/leads/leads.service.js';
import { mediaRoutes } from './modules/media/media.routes.js';
import { Broadcasts } from './modules/notifications/broadcasts/broadcasts.service.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { deliveryRoutes } from './modules/notifications/deliveries/deliveries.routes.js';
import { DeliveriesService } from './modules/notifications/deliveries/deliveries.service.js';
import { NotificationHub } from './modules/notifications/delivery/notification-hub.service.js';
import { notificationStreamRoutes } from './modules/notifications/stream/notification-stream.routes.js';
import { UnsubscribeTokens } from './modules/notifications/unsubscribe/unsubscribe-tokens.service.js';
import { unsubscribeRoutes } from './modules/notifications/unsubscribe/unsubscribe.routes.js';
import { UnsubscribeService } from './modules/notifications/unsubscribe/unsubscribe.service.js';
import { Notification } from './modules/notifications/notifications.schemas.js';
import { NotificationsService } from './modules/notifications/notifications.service.js';
import { Notifier, PUSH_CHANNEL } from './modules/notifications/delivery/notifier.service.js';
import { SavedSearchAlerts } from './modules/saved-searches/alerts/saved-search-alerts.service.js';
import { Media } from './modules/media/media.schemas.js';
import { MediaService } from './modules/media/media.service.js';
import { membershipRoutes } from './modules/payments/memberships/memberships.routes.js';
import { Membership } from './modules/payments/memberships/memberships.schemas.js';
import { MembershipsService } from './modules/payments/memberships/memberships.service.js';
import { moderationRoutes } from './modules/properties/moderation/moderation.routes.js';
import { ModerationService } from './modules/properties/moderation/moderation.service.js';
import { ListingRecords } from './modules/properties/listing-records.service.js';
import { ListingQuotas } from './modules/payments/quotas/listing-charges.service.js';
import { propertyRoutes, propertyUploadRoutes } from './modules/properties/properties.routes.js';
import { FavoritesService } from './modules/properties/lists/favorites.service.js';
import { propertyListRoutes } from './modules/properties/lists/property-lists.routes.js';
import { PropertyListsService } from './modules/properties/lists/property-lists.service.js';
import { Property, PropertySummary } from './modules/properties/properties.schemas.js';
import { PropertiesService } from './modules/properties/properties.service.js';
import { searchRoutes } from './modules/search/search.routes.js';
import { SearchService } from './modules/search/search.service.js';
import { reviewRoutes } from './modules/reviews/reviews.routes.js';
import { savedSearchRoutes } from './modules/saved-searches/saved-searches.routes.js';
import { SavedSearch } from './modules/saved-searches/saved-searches.schemas.js';
import { SavedSearchesService } from './modules/saved-searches/saved-searches.service.js';
import { Review } from './modules/reviews/reviews.schemas.js';
import { ReviewsService } from './modules/reviews/reviews.service.js';
import { ViewCounter } from './modules/properties/views/view-counter.service.js';
import { socialRoutes } from './modules/social/social.routes.js';
import { SocialLoginResult } from './modules/social/social.schemas.js';
import { SocialService } from './modules/social/social.service.js';
import { taxonomyRoutes } from './modules/taxonomies/taxonomies.routes.js';
import { Term } from './modules/taxonomies/taxonomies.schemas.js';
import { TaxonomiesService } from './modules/taxonomies/taxonomies.service.js';
import { checkoutRoutes } from './modules/payments/checkout/checkout.routes.js';
import { CheckoutService } from './modules/payments/checkout/checkout.service.js';
import { Fulfilment } from './modules/payments/checkout/fulfilment.service.js';
import { invoiceRoutes } from './modules/payments/invoices/invoices.routes.js';
import { Invoice } from './modules/payments/invoices/invoices.schemas.js';
import { InvoicesService } from './modules/payments/invoices/invoices.service.js';
import { packageRoutes } from './modules/payments/packages/packages.routes.js';
import { Package } from './modules/payments/packages/packages.schemas.js';
import { PackagesService } from './modules/payments/packages/packages.service.js';
import { paymentSettingsRoutes } from './modules/payments/payment-settings.routes.js';
import { stripeWebhookRoutes } from './modules/payments/stripe/stripe-webhook.routes.js';
import { StripeWebhookService } from './modules/payments/stripe/stripe-webhook.service.js';
import { ProfilesService } from './modules/users/profiles.service.js';
import { userRoutes } from './modules/users/users.routes.js';
import { PublicUserProfile, UserProfile } from './modules/users/users.schemas.js';
import { UsersService } from './modules/accounts/accounts.service.js';

export interface AppDependencies {
  config: Config;
  database: Database;
  jwtSecret: string;
  /** Shared state across processes (rate limits); optional. */
  redis?: Redis;
  /** Sends the mail instead of SMTP_URL's server or the log (tests capture mail with it). */
  mailer?: Mailer;
}

export interface Services {
  log: FastifyBaseLogger;
  users: UsersService;
  auth: AuthService;
  passwordReset: PasswordResetService;
  /** Sends the e-mail, push and Stripe messages the services write to the outbox. */
  outbox: OutboxWorker;
  /** Runs every background job once per period across processes (background-jobs.ts); `serve` starts it. */
  scheduler: Scheduler;
  /** Turns domain events (leads, reviews, listing moves, payments) into notifications. */
  notificationEvents: NotificationEventsJob;
  /** Saved searches matched against listings entering `publish`; instant alerts and digests (API.md 7). */
  savedSearchAlerts: SavedSearchAlerts;
  /** Stops background work and closes connections the services opened. */
  shutdown(): Promise<void>;
  taxonomies: TaxonomiesService;
  social: SocialService;
  media: MediaService;
  profiles: ProfilesService;
  moderation: ModerationService;
  /** Moves listings past their `expires_at` to `expired`. */
  listingExpiry: ListingExpiryJob;
  /** The caller's membership: reading it and stopping its renewal. */
  memberships: MembershipsService;
  /** Tells owners their membership ends soon, and expires it (and in membership mode its listings). */
  membershipExpiry: MembershipExpiryJob;
  properties: PropertiesService;
  /** Batched listing view counts; `serve` starts its flushing. */
  views: ViewCounter;
  favorites: FavoritesService;
  /** The caller's favorites and own listings, and similar listings. */
  propertyLists: PropertyListsService;
  /** Contact forms and the caller's leads. */
  leads: LeadsService;
  /** Writes notifications (in-app rows, e-mail and push in the outbox) and hands them to the live streams. */
  notifier: Notifier;
  /** The administrator's queued notifications to a role or everyone; the scheduler fans them out. */
  broadcasts: Broadcasts;
  /** The caller's notifications, preferences and devices (API.md 8). */
  notifications: NotificationsService;
  /** The administrator's view of the outbox: dead messages, and sending them again. */
  notificationDeliveries: DeliveriesService;
  /** New notifications to the live streams (GET /notifications/stream), through Redis when it is set. */
  notificationHub: NotificationHub;
  /** The notification e-mails' unsubscribe links. */
  notificationUnsubscribe: UnsubscribeService;
  /** Reviews of listings, agents and agencies, and their reactions. */
  reviews: ReviewsService;
  /** Listing search (API.md 4.4, 4.5): the public lists, the directory's listing pages, saved searches' matches. */
  search: SearchService;
  /** The users' saved searches (API.md 7), run again through `search`. */
  savedSearches: SavedSearchesService;
  /** The directory: agents, and agencies with their agents (API.md 5). */
  agents: AgentsService;
  agencies: AgenciesService;
  /** Membership packages (API.md 10). */
  packages: PackagesService;
  /** Invoices: reading, archiving, settling bank transfers. */
  invoices: InvoicesService;
  /** POST /payments/checkout: invoices for packages, listing fees and featured upgrades. */
  checkout: CheckoutService;
  /** Stripe's payment events: settles invoices, renews and ends subscriptions. */
  stripeWebhook: StripeWebhookService;
}

/** The services of the application, wired once; the CLI uses them without HTTP. */
export function createServices({ config, database, jwtSecret, redis, mailer: givenMailer }: AppDependencies): Services {
  const passwords = new PasswordHasher();
  const users = new UsersService(database.db, passwords);
  const tokens = new AccessTokens(jwtSecret, config.accessTokenTtlSeconds);
  const storage = createStorage(config);
  const log = createLogger(config);
  const revocations = redis ? new RedisRevocationChannel(redis, log) : new DatabaseStampSignal(database.readCacheVersion);
  // Cached sessions pay off where checking the revocation signal costs no round trip (revocations.ts).
  const sessionCache = redis || database.stampReadsAreLocal ? new SessionCache(revocations) : undefined;
  const locks = new LoginLocks(database.db);
  const auth = new AuthService(database.db, users, passwords, tokens, storage, locks, revocations, sessionCache, {
    refreshTokenTtlDays: config.refreshTokenTtlDays,
    registrationEnabled: config.registrationEnabled,
  });
  const mailer = givenMailer ?? (config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : new LogMailer(log));
  const unsubscribeTokens = new UnsubscribeTokens(jwtSecret);
  const paymentGateway = config.payments.stripe ? new StripeGateway(config.payments.stripe) : undefined;
  const outbox = new OutboxWorker(
    database.db,
    {
      email: emailSender(mailer),
      notification_email: notificationEmailSender(database.db, mailer, {
        apiBaseUrl: `${config.publicUrl}${config.apiPrefix}/realty-api/v1`,
        listingUrlTemplate: config.listings.urlTemplate,
        tokens: unsubscribeTokens,
      }),
      ...(config.push.fcm ? { [PUSH_CHANNEL]: pushSender(database.db, new FcmClient(config.push.fcm)) } : {}),
      ...(paymentGateway ? { stripe_subscription: subscriptionSender(paymentGateway) } : {}),
    },
    log,
  );
  const media = new MediaService(database.db, storage, { maxImagePixels: config.uploads.maxImagePixels }, log);
  const listingExpiry = new ListingExpiryJob(database.db);
  const membershipExpiry = new MembershipExpiryJob(database.db, { mode: config.payments.mode });
  const stamps = new CacheStamps(database.readCacheVersion, database.localWrites, config.cacheRevalidateMs);
  const taxonomies = new TaxonomiesService(database.db, stamps);
  const views = new ViewCounter(database.db, log, config.listings.flushIntervalMs, redis);
  const records = new ListingRecords(database.db, stamps, {
    publicUrl: config.publicUrl,
    listingUrlTemplate: config.listings.urlTemplate,
    storage,
  });
  const quotas = new ListingQuotas(config.payments);
  const properties = new PropertiesService(database.db, records, taxonomies, media, views, config.listings, quotas);
  const directory = new DirectoryRecords(database.db, stamps, { publicUrl: config.publicUrl, storage });
  const search = new SearchService(database.db, stamps, properties);
  const directoryListings = new DirectoryListings(database.db, properties, search);
  const agents = new AgentsService(database.db, directory, directoryListings);
  const profiles = new ProfilesService(database.db, users, auth, passwords, media, storage, locks);
  const notifier = new Notifier({ push: config.push.fcm !== undefined });
  const notificationHub = new NotificationHub(log, redis ? { redis } : {});
  notifier.setPublisher(notificationHub);
  const broadcasts = new Broadcasts(database.db, notifier);
  const savedSearchAlerts = new SavedSearchAlerts(database.db, notifier);
  const notificationEvents = new NotificationEventsJob(database.db, notifier, savedSearchAlerts);
  const scheduler = scheduleBackgroundJobs(
    database.db,
    log,
    { outbox, notificationEvents, broadcasts, digests: savedSearchAlerts, listingExpiry, membershipExpiry },
    { pollMs: config.outboxPollMs, geoCellsCompactMs: config.geoCellsCompactMs },
  );
  const notifications = new NotificationsService(database.db, notifier, broadcasts);
  const fulfilment = new Fulfilment({ requireApproval: config.listings.requireApproval, ttlDays: config.listings.ttlDays });
  return {
    log,
    users,
    auth,
    passwordReset: new PasswordResetService(database.db, users, passwords, revocations, config.resetPasswordUrl),
    outbox,
    scheduler,
    notificationEvents,
    savedSearchAlerts,
    async shutdown() {
      await scheduler.stop();
      await views.stop();
      mailer.close();
      if (revocations instanceof RedisRevocationChannel) revocations.close();
      notificationHub.close();
    },
    taxonomies,
    social: new SocialService(database.db, users, auth, createSocialVerifiers(config.social)),
    media,
    profiles,
    moderation: new ModerationService(database.db, config.listings, quotas),
    listingExpiry,
    memberships: new MembershipsService(database.db, paymentGateway, log),
    membershipExpiry,
    properties,
    views,
    favorites: new FavoritesService(database.db, properties),
    propertyLists: new PropertyListsService(database.db, properties),
    leads: new LeadsService(database.db, properties),
    notifier,
    broadcasts,
    notifications,
    notificationDeliveries: new DeliveriesService(database.db),
    notificationHub,
    notificationUnsubscribe: new UnsubscribeService(database.db, notifications, unsubscribeTokens),
    reviews: new ReviewsService(database.db, stamps, properties, storage),
    search,
    savedSearches: new SavedSearchesService(database.db, search, { perUser: config.savedSearchesPerUser }),
    agents,
    agencies: new AgenciesService(database.db, directory, directoryListings, agents),
    packages: new PackagesService(database.db, { defaultCurrency: config.payments.currency }),
    invoices: new InvoicesService(database.db, profiles, fulfilment),
    checkout: new CheckoutService(database.db, users, properties, fulfilment, paymentGateway, config.payments),
    stripeWebhook: new StripeWebhookService(database.db, fulfilment, config.payments.stripe?.webhookSecret, log),
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
    loggerInstance: services.log,
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
  app.addSchema(TokenPair);
  app.addSchema(SocialLoginResult);
  app.addSchema(Media);
  app.addSchema(UserProfile);
  app.addSchema(PublicUserProfile);
  app.addSchema(Property);
  app.addSchema(PropertySummary);
  app.addSchema(Lead);
  app.addSchema(SavedSearch);
  app.addSchema(Review);
  app.addSchema(Agent);
  app.addSchema(Agency);
  app.addSchema(Package);
  app.addSchema(Invoice);
  app.addSchema(Membership);
  app.addSchema(Notification);
  registerHealthRoutes(app, async () => !closing && (await isDatabaseReady(database.db)));
  if (!config.s3) await registerUploadsRoute(app, config.uploads.dir);
  const signInRateLimit = authRateLimit(config);
  await app.register(
    async (api) => {
      await api.register(taxonomyRoutes, { taxonomies: services.taxonomies });
      await api.register(authRoutes, {
        auth: services.auth,
        passwordReset: services.passwordReset,
        signInRateLimit,
      });
      await api.register(socialRoutes, { social: services.social, signInRateLimit });
      await api.register(async (uploads) => {
        await registerMultipart(uploads, config);
        await uploads.register(mediaRoutes, { media: services.media, uploads: config.uploads });
        await uploads.register(propertyUploadRoutes, {
          properties: services.properties,
          maxFileBytes: config.uploads.maxFileBytes,
          maxFiles: config.uploads.maxFiles,
        });
      });
      await api.register(userRoutes, { profiles: services.profiles });
      await api.register(searchRoutes, { properties: services.properties, search: services.search });
      await api.register(propertyRoutes, { properties: services.properties });
      await api.register(propertyListRoutes, { favorites: services.favorites, propertyLists: services.propertyLists });
      await api.register(moderationRoutes, { moderation: services.moderation });
      await api.register(savedSearchRoutes, {
        savedSearches: services.savedSearches,
        successorUrl: `${config.publicUrl}${apiBase}/saved-searches`,
        perUser: config.savedSearchesPerUser,
      });
      await api.register(leadRoutes, { leads: services.leads, contactRateLimit: formsRateLimit(config) });
      await api.register(reviewRoutes, { reviews: services.reviews, formsRateLimit: formsRateLimit(config) });
      await api.register(notificationRoutes, { notifications: services.notifications });
      await api.register(deliveryRoutes, { deliveries: services.notificationDeliveries });
      await api.register(notificationStreamRoutes, {
        notifications: services.notifications,
        hub: services.notificationHub,
        heartbeatMs: config.notificationStreamHeartbeatMs,
      });
      await api.register(unsubscribeRoutes, { unsubscribe: services.notificationUnsubscribe });
      await api.register(agentRoutes, { agents: services.agents });
      await api.register(agencyRoutes, { agencies: services.agencies });
      await api.register(paymentSettingsRoutes, { payments: config.payments });
      await api.register(packageRoutes, { packages: services.packages });
      await api.register(invoiceRoutes, { invoices: services.invoices });
      await api.register(membershipRoutes, { memberships: services.memberships });
      await api.register(checkoutRoutes, { checkout: services.checkout });
      await api.register(stripeWebhookRoutes, { stripeWebhook: services.stripeWebhook });
    },
    { prefix: apiBase },
  );
  await registerOpenApiRoutes(app, config.apiPrefix);
  return app;
}
