import path from 'node:path';
import { type ConsoleConfig, readConsoleConfig } from './config-console.js';
import { readSiteConfig, type SiteConfig } from './config-site.js';
import { type Env, EnvReader } from './config-env.js';
import { type FcmConfig, readFcmConfig } from './config-push.js';
import { percentToBasisPoints, toMinor } from './lib/money.js';

export type DatabaseConfig = { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string; schema?: string };

type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly publicUrl: string;
  /** Put in front of `/realty-api/v1`, e.g. `/wp-json`; empty by default. */
  readonly apiPrefix: string;
  readonly database: DatabaseConfig;
  /** True when DATABASE_URL was not set: the embedded file that `npm start` creates. */
  readonly databaseIsDefault: boolean;
  /** `auto`: seed the default SQLite file when it is new (docs/api.md 11). */
  readonly seedDemo: boolean | 'auto';
  readonly dataDir: string;
  /** Undefined means: generate once and keep it in `dataDir` (see secrets.ts). */
  readonly jwtSecret: string | undefined;
  readonly accessTokenTtlSeconds: number;
  readonly refreshTokenTtlDays: number;
  readonly admin: { readonly email: string; readonly password: string } | undefined;
  readonly redisUrl: string | undefined;
  /** METRICS_TOKEN: serves GET /metrics to this bearer token; unset, there is no metrics route. */
  readonly metricsToken: string | undefined;
  /** REDIS_KEY_PREFIX: starts every key and channel name this service uses in Redis. */
  readonly redisKeyPrefix: string;
  readonly rateLimit: {
    readonly enabled: boolean;
    readonly perMinute: number;
    readonly authPerMinute: number;
    /** Contact forms and review creation (docs/api.md 0.6). */
    readonly formsPerMinute: number;
    /** Pulls of one portal feed token (GET /feeds/{token}), whatever the address. */
    readonly feedPullsPerMinute: number;
    /** Renewals of one session with its refresh token, whatever the address (not a sign-in attempt). */
    readonly renewalsPerMinute: number;
  };
  readonly bodyLimitBytes: number;
  readonly trustProxy: boolean;
  readonly corsOrigins: '*' | readonly string[];
  readonly logLevel: LogLevel;
  /** LOG_FORMAT: `pretty` (human-readable lines) or `json` (one object a line); `auto` picks pretty on a terminal. */
  readonly logFormat: 'pretty' | 'json';
  readonly shutdownTimeoutMs: number;
  /** How stale another process's change may be in a cached answer (this process's own: never). */
  readonly cacheRevalidateMs: number;
  readonly registrationEnabled: boolean;
  /** Saved searches one user may keep (docs/api.md 0.6); the next one is a 409. */
  readonly savedSearchesPerUser: number;
  /** The page that takes `?token=` from the reset mail: the website's when it is served, else the console's. */
  readonly resetPasswordUrl: string;
  readonly console: ConsoleConfig;
  readonly site: SiteConfig;
  /** Without `smtpUrl`, mail stays in the outbox table and is written to the log. */
  readonly mail: { readonly smtpUrl: string | undefined; readonly from: string };
  readonly outboxPollMs: number;
  /** How often an open notification stream sends a heartbeat comment (NOTIFICATION_STREAM_HEARTBEAT_SECONDS). */
  readonly notificationStreamHeartbeatMs: number;
  /** Push notifications; off unless the FCM project, service account e-mail and private key are all set. */
  readonly push: { readonly fcm: FcmConfig | undefined };
  /** How often the deltas of the geo cell aggregates are folded into the cells (GEO_CELLS_COMPACT_SECONDS). */
  readonly geoCellsCompactMs: number;
  readonly search: {
    /**
     * SEARCH_ENGINE: `memory` answers searches from an in-process index built at start and kept fresh from the
     * change log (modules/search/engine/); `sql` answers them from the database alone (tiny deployments).
     */
    readonly engine: 'memory' | 'sql';
    /**
     * SEARCH_ENGINE_POLL_MS: how often each process looks for other processes' changes to what a search reads.
     * Without Redis it reads the change log's head this often; with Redis it is told, and reads it 20 times less often.
     */
    readonly enginePollMs: number;
  };
  readonly social: {
    /** Enabled when at least one client id is set. */
    readonly google: { readonly clientIds: readonly string[]; readonly jwksUrl: string };
    /** Enabled when both the app id and secret are set. */
    readonly facebook: { readonly appId: string | undefined; readonly appSecret: string | undefined; readonly graphUrl: string };
  };
  readonly uploads: {
    /** Local storage, used unless `s3` is set. */
    readonly dir: string;
    readonly maxFileBytes: number;
    readonly maxFiles: number;
    readonly maxImagePixels: number;
  };
  /** S3-compatible storage, when S3_BUCKET is set. */
  readonly s3: S3Config | undefined;
  /** Outbound webhooks (modules/webhooks, docs/webhooks.md). */
  readonly webhooks: {
    /** Hosts deliveries may reach although they resolve to private or loopback addresses (WEBHOOK_ALLOWED_HOSTS). */
    readonly allowedHosts: readonly string[];
    /** How long one delivery attempt may take, connection to the answer's first bytes (WEBHOOK_TIMEOUT_MS). */
    readonly timeoutMs: number;
    /** How often the delivery and event jobs look for work (WEBHOOK_POLL_MS). */
    readonly pollMs: number;
    /** WEBHOOK_DELIVERIES_PAUSED: nothing is sent; events are still derived and queued, to go when it is off. */
    readonly paused: boolean;
  };
  /** Feed imports (docs/data-exchange.md). */
  readonly imports: {
    /** Largest feed file, uploaded or downloaded. */
    readonly maxFileBytes: number;
    /** Hosts that feeds and pictures may be fetched from even when they resolve to private addresses. */
    readonly allowedHosts: readonly string[];
    /** Time limit of one download (a feed file or a picture). */
    readonly fetchTimeoutMs: number;
  };
  /** PORTAL_FEED_CACHE_MB (default 64, 0 turns it off): the portal feeds kept built and compressed while their data holds. */
  readonly portalFeedCacheBytes: number;
  readonly payments: PaymentsConfig;
  readonly listings: {
    /** New listings of non-moderators wait in `pending` (docs/api.md 4.3). */
    readonly requireApproval: boolean;
    /** An owner's edit of a published listing sends it back to `pending`. */
    readonly editRequiresApproval: boolean;
    /** ISO 4217 code of listings created without `currency`. */
    readonly defaultCurrency: string;
    /** Days a listing stays published before the expiry job moves it to `expired`; undefined: no limit. */
    readonly ttlDays: number | undefined;
    /** `url` of a listing, with `{slug}` and `{id}` placeholders. */
    readonly urlTemplate: string;
    /** How often counted listing views are written to the database. */
    readonly flushIntervalMs: number;
  };
}

export interface S3Config {
  readonly bucket: string;
  readonly region: string;
  /** Custom endpoint for S3-compatible services (MinIO, R2, …); path-style addressing is used with it. */
  readonly endpoint: string | undefined;
  readonly accessKeyId: string | undefined;
  readonly secretAccessKey: string | undefined;
  /** Base URL under which the bucket's objects are public; default: the endpoint + bucket, or AWS's bucket URL. */
  readonly publicUrl: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const DEFAULT_DATABASE_URL = 'sqlite:./data/realty.db';
const LOG_LEVELS: readonly LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * Reads the environment once into a validated, frozen Config. Every bad variable is reported together,
 * so that one start shows the whole list instead of one problem per attempt.
 */
export function loadConfig(env: Env = process.env, stdoutIsTerminal = Boolean(process.stdout.isTTY)): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const port = read.integer('PORT', 3000, 0, 65535);
  const host = read.string('HOST', '127.0.0.1');
  const databaseUrl = read.string('DATABASE_URL', DEFAULT_DATABASE_URL);
  const database = parseDatabaseUrl(databaseUrl, problems);
  const publicUrl = read.url('PUBLIC_URL', `http://${host.includes(':') ? `[${host}]` : host}:${port}`);
  const apiPrefix = read.string('API_PREFIX', '').replace(/\/+$/, '');
  if (apiPrefix !== '' && !/^(\/[A-Za-z0-9._~-]+)+$/.test(apiPrefix)) {
    problems.push('API_PREFIX must look like /segment or /a/b (letters, digits, . _ ~ -)');
  }

  const jwtSecret = env.JWT_SECRET === undefined || env.JWT_SECRET === '' ? undefined : env.JWT_SECRET;
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    problems.push('JWT_SECRET must be at least 32 characters (or unset, to generate one)');
  }

  const adminEmail = env.ADMIN_EMAIL?.trim() || undefined;
  const adminPassword = env.ADMIN_PASSWORD || undefined;
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    problems.push('ADMIN_EMAIL and ADMIN_PASSWORD must be set together');
  }
  if (adminPassword !== undefined && (adminPassword.length < 8 || adminPassword.length > 128)) {
    problems.push('ADMIN_PASSWORD must be 8 to 128 characters');
  }

  const corsRaw = read.string('CORS_ORIGINS', '*');
  const logLevel = read.string('LOG_LEVEL', 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const metricsToken = read.string('METRICS_TOKEN', '');
  if (metricsToken !== '' && metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters long');
  const logFormat = read.string('LOG_FORMAT', 'auto');
  if (!['auto', 'pretty', 'json'].includes(logFormat)) problems.push('LOG_FORMAT must be one of auto, pretty, json');

  const googleClientIds = read.list('GOOGLE_CLIENT_IDS');
  const facebookAppId = env.FACEBOOK_APP_ID?.trim() || undefined;
  const facebookAppSecret = env.FACEBOOK_APP_SECRET?.trim() || undefined;
  if ((facebookAppId === undefined) !== (facebookAppSecret === undefined)) {
    problems.push('FACEBOOK_APP_ID and FACEBOOK_APP_SECRET must be set together');
  }
  const s3 = readS3Config(read, env);

  const defaultCurrency = read.string('DEFAULT_CURRENCY', 'USD').toUpperCase();
  if (!/^[A-Z]{3}$/.test(defaultCurrency)) problems.push('DEFAULT_CURRENCY must be an ISO 4217 code such as USD');
  const urlTemplate = env.LISTING_URL_TEMPLATE;
  if (urlTemplate && !/^https?:\/\/\S*(\{slug\}|\{id\})\S*$/.test(urlTemplate)) {
    problems.push('LISTING_URL_TEMPLATE must be an http(s) URL containing {slug} or {id}');
  }

  const searchEngine = read.string('SEARCH_ENGINE', 'memory');
  if (searchEngine !== 'memory' && searchEngine !== 'sql') problems.push(`SEARCH_ENGINE must be memory or sql (got "${searchEngine}")`);

  const consoleConfig = readConsoleConfig(read, problems);
  const siteConfig = readSiteConfig(read);
  // The reset mail leads to the website's page when there is one (buyers have no console), else the console's.
  const resetPage = consoleConfig.enabled && !siteConfig.enabled ? '/console/reset-password' : '/reset-password';
  const paymentReturnPage = consoleConfig.enabled ? '/console/membership' : '/payment';

  const seedRaw = env.SEED_DEMO;
  const seedDemo = seedRaw === undefined || seedRaw === '' ? 'auto' : read.boolean('SEED_DEMO', false);

  const config: Config = {
    port,
    host,
    publicUrl: publicUrl.replace(/\/+$/, ''),
    apiPrefix,
    database,
    databaseIsDefault: env.DATABASE_URL === undefined || env.DATABASE_URL === '',
    seedDemo,
    dataDir: path.resolve(read.string('DATA_DIR', './data')),
    jwtSecret,
    accessTokenTtlSeconds: read.integer('ACCESS_TOKEN_TTL', 3600, 60, 86_400 * 7),
    refreshTokenTtlDays: 30,
    admin: adminEmail && adminPassword ? { email: adminEmail, password: adminPassword } : undefined,
    redisUrl: env.REDIS_URL || undefined,
    metricsToken: read.string('METRICS_TOKEN', '') || undefined,
    redisKeyPrefix: read.string('REDIS_KEY_PREFIX', 'realty-api:'),
    rateLimit: {
      enabled: read.boolean('RATE_LIMIT_ENABLED', true),
      perMinute: read.integer('RATE_LIMIT_PER_MINUTE', 600, 1, 1_000_000),
      authPerMinute: read.integer('AUTH_RATE_LIMIT_PER_MINUTE', 10, 1, 1_000_000),
      formsPerMinute: read.integer('FORMS_RATE_LIMIT_PER_MINUTE', 5, 1, 1_000_000),
      feedPullsPerMinute: read.integer('FEED_RATE_LIMIT_PER_MINUTE', 10, 1, 1_000_000),
      renewalsPerMinute: read.integer('REFRESH_RATE_LIMIT_PER_MINUTE', 60, 1, 1_000_000),
    },
    bodyLimitBytes: read.integer('BODY_LIMIT', 1024 * 1024, 1024, 100 * 1024 * 1024),
    trustProxy: read.boolean('TRUST_PROXY', false),
    corsOrigins:
      corsRaw === '*'
        ? '*'
        : Object.freeze(
            corsRaw
              .split(',')
              .map((o) => o.trim())
              .filter(Boolean),
          ),
    logLevel,
    logFormat: logFormat === 'pretty' || (logFormat === 'auto' && stdoutIsTerminal) ? 'pretty' : 'json',
    shutdownTimeoutMs: read.integer('SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000),
    cacheRevalidateMs: read.integer('CACHE_REVALIDATE_MS', 100, 0, 60_000),
    registrationEnabled: read.boolean('REGISTRATION_ENABLED', true),
    savedSearchesPerUser: read.integer('SAVED_SEARCHES_PER_USER', 50, 1, 10_000),
    resetPasswordUrl: read.url('RESET_PASSWORD_URL', `${publicUrl.replace(/\/+$/, '')}${resetPage}`),
    console: consoleConfig,
    site: siteConfig,
    mail: {
      smtpUrl: env.SMTP_URL?.trim() || undefined,
      from: read.string('MAIL_FROM', 'realty-api <no-reply@localhost>'),
    },
    outboxPollMs: read.integer('OUTBOX_POLL_MS', 1000, 10, 600_000),
    notificationStreamHeartbeatMs: read.integer('NOTIFICATION_STREAM_HEARTBEAT_SECONDS', 25, 1, 300) * 1000,
    geoCellsCompactMs: read.integer('GEO_CELLS_COMPACT_SECONDS', 30, 1, 86_400) * 1000,
    search: {
      engine: searchEngine === 'sql' ? 'sql' : 'memory',
      enginePollMs: read.integer('SEARCH_ENGINE_POLL_MS', 250, 10, 60_000),
    },
    push: {
      fcm: readFcmConfig(env, problems, {
        tokenUrl: read.url('FCM_TOKEN_URL', 'https://oauth2.googleapis.com/token'),
        apiUrl: read.url('FCM_API_URL', 'https://fcm.googleapis.com').replace(/\/+$/, ''),
      }),
    },
    payments: readPaymentsConfig(read, env, defaultCurrency, `${publicUrl.replace(/\/+$/, '')}${paymentReturnPage}`, problems),
    listings: {
      requireApproval: read.boolean('REQUIRE_APPROVAL', true),
      editRequiresApproval: read.boolean('EDIT_REQUIRES_APPROVAL', false),
      defaultCurrency,
      ttlDays: env.LISTING_TTL_DAYS ? read.integer('LISTING_TTL_DAYS', 0, 1, 36_500) : undefined,
      urlTemplate: read.string('LISTING_URL_TEMPLATE', `${publicUrl.replace(/\/+$/, '')}/property/{slug}`),
      flushIntervalMs: read.integer('LISTING_FLUSH_MS', 5000, 10, 600_000),
    },
    social: {
      google: {
        clientIds: googleClientIds,
        jwksUrl: read.url('GOOGLE_JWKS_URL', 'https://www.googleapis.com/oauth2/v3/certs'),
      },
      facebook: {
        appId: facebookAppId,
        appSecret: facebookAppSecret,
        graphUrl: read.url('FACEBOOK_GRAPH_URL', 'https://graph.facebook.com').replace(/\/+$/, ''),
      },
    },
    uploads: {
      dir: path.resolve(read.string('UPLOAD_DIR', './data/uploads')),
      maxFileBytes: read.integer('UPLOAD_MAX_FILE_BYTES', 10 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
      maxFiles: read.integer('UPLOAD_MAX_FILES', 20, 1, 100),
      maxImagePixels: read.integer('IMAGE_MAX_MEGAPIXELS', 40, 1, 500) * 1_000_000,
    },
    s3,
    webhooks: {
      allowedHosts: read.list('WEBHOOK_ALLOWED_HOSTS').map((host) => host.toLowerCase()),
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 1000, 60_000),
      pollMs: read.integer('WEBHOOK_POLL_MS', 1000, 10, 60_000),
      paused: read.boolean('WEBHOOK_DELIVERIES_PAUSED', false),
    },
    imports: {
      maxFileBytes: read.integer('IMPORT_MAX_FILE_BYTES', 200 * 1024 * 1024, 1024, 10 * 1024 * 1024 * 1024),
      allowedHosts: read.list('IMPORT_ALLOWED_HOSTS').map((host) => host.toLowerCase()),
      fetchTimeoutMs: read.integer('IMPORT_FETCH_TIMEOUT_MS', 300_000, 1000, 3_600_000),
    },
    portalFeedCacheBytes: read.integer('PORTAL_FEED_CACHE_MB', 64, 0, 4096) * 1024 * 1024,
  };

  if (problems.length > 0) throw new ConfigError(problems);
  return deepFreeze(config);
}

function readS3Config(read: EnvReader, env: Env): S3Config | undefined {
  const bucket = env.S3_BUCKET?.trim();
  if (!bucket) return undefined;
  const region = read.string('S3_REGION', 'us-east-1');
  const endpoint = env.S3_ENDPOINT?.trim() ? read.url('S3_ENDPOINT', '').replace(/\/+$/, '') : undefined;
  const fallbackPublicUrl = endpoint ? `${endpoint}/${bucket}` : `https://${bucket}.s3.${region}.amazonaws.com`;
  return {
    bucket,
    region,
    endpoint,
    accessKeyId: env.S3_ACCESS_KEY_ID?.trim() || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY?.trim() || undefined,
    publicUrl: read.url('S3_PUBLIC_URL', fallbackPublicUrl).replace(/\/+$/, ''),
  };
}

function parseDatabaseUrl(url: string, problems: string[]): DatabaseConfig {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length).replace(/^\/\//, '');
    if (file === '') problems.push('DATABASE_URL sqlite:<path> needs a path (or :memory:)');
    return { kind: 'sqlite', path: file === ':memory:' ? file : path.resolve(file) };
  }
  if (/^postgres(ql)?:\/\//.test(url)) return { kind: 'postgres', url };
  problems.push('DATABASE_URL must start with sqlite: or postgres://');
  return { kind: 'sqlite', path: ':memory:' };
}

export type PaymentMode = 'free' | 'per_listing' | 'membership';

/** docs/api.md 10. Money in integer minor units of `currency`, tax in basis points (lib/money.ts). */
export interface PaymentsConfig {
  readonly mode: PaymentMode;
  /** DEFAULT_CURRENCY: the currency of listing and featured fees. */
  readonly currency: string;
  /** Fee for publishing one listing in `per_listing` mode (LISTING_PRICE; 0 = free). */
  readonly listingPriceMinor: number;
  /** Fee for featuring one listing outside a membership (FEATURED_PRICE; 0 = free). */
  readonly featuredPriceMinor: number;
  /** Tax added to listing and featured fees (TAX_RATE, a percentage). Packages carry their own rate. */
  readonly taxRateBp: number;
  /** Shown to buyers who choose a bank transfer (BANK_TRANSFER_INSTRUCTIONS). */
  readonly bankTransferInstructions: string;
  /** Where Stripe sends the buyer back (STRIPE_SUCCESS_URL, STRIPE_CANCEL_URL). */
  readonly successUrl: string;
  readonly cancelUrl: string;
  /** Stripe, when STRIPE_SECRET_KEY is set. */
  readonly stripe: StripeConfig | undefined;
}

export interface StripeConfig {
  readonly secretKey: string;
  /** Verifies `Stripe-Signature`; without it the webhook answers 503. */
  readonly webhookSecret: string | undefined;
  /** Scheme, host and port of the Stripe API, without /v1 (docs/api.md 12). */
  readonly apiBase: string;
}

/** `returnBase`: where Stripe sends buyers back (`?payment=success|cancelled`): the console's membership page when it is served. */
function readPaymentsConfig(read: EnvReader, env: Env, currency: string, returnBase: string, problems: string[]): PaymentsConfig {
  const mode = read.string('PAYMENT_MODE', 'free');
  if (!['free', 'per_listing', 'membership'].includes(mode)) problems.push('PAYMENT_MODE must be free, per_listing or membership');
  // A malformed DEFAULT_CURRENCY is reported on its own; amounts in it cannot be read.
  const currencyIsValid = /^[A-Z]{3}$/.test(currency);
  const money = (name: string) => {
    const raw = read.string(name, '0');
    if (!currencyIsValid) return 0;
    const minor = /^\d+(\.\d+)?$/.test(raw) ? toMinor(Number(raw), currency) : undefined;
    if (minor === undefined) problems.push(`${name} must be an amount in ${currency} such as 9.99 (got "${raw}")`);
    return minor ?? 0;
  };
  const taxRaw = read.string('TAX_RATE', '0');
  const taxRateBp = /^\d+(\.\d+)?$/.test(taxRaw) ? percentToBasisPoints(Number(taxRaw)) : undefined;
  if (taxRateBp === undefined) problems.push(`TAX_RATE must be a percentage from 0 to 100 with at most two decimals (got "${taxRaw}")`);
  const secretKey = env.STRIPE_SECRET_KEY?.trim() || undefined;
  return {
    mode: mode as PaymentMode,
    currency,
    listingPriceMinor: money('LISTING_PRICE'),
    featuredPriceMinor: money('FEATURED_PRICE'),
    taxRateBp: taxRateBp ?? 0,
    bankTransferInstructions: read.string('BANK_TRANSFER_INSTRUCTIONS', ''),
    successUrl: read.url('STRIPE_SUCCESS_URL', `${returnBase}?payment=success`),
    cancelUrl: read.url('STRIPE_CANCEL_URL', `${returnBase}?payment=cancelled`),
    stripe: secretKey
      ? {
          secretKey,
          webhookSecret: env.STRIPE_WEBHOOK_SECRET?.trim() || undefined,
          apiBase: read.url('STRIPE_API_BASE', 'https://api.stripe.com').replace(/\/+$/, ''),
        }
      : undefined,
  };
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
