import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Redis } from 'ioredis';
import type { TSchema } from 'typebox';
import type { Mailer } from '../adapters/mail/mailer.js';
import type { PaymentGateway } from '../adapters/payments/payment-gateway.js';
import type { FileStorage } from '../adapters/storage/storage.js';
import type { Config } from '../config.js';
import type { CacheStamps } from '../db/cache-versions.js';
import type { Database } from '../db/database.js';
import type { ChannelSender } from '../db/outbox.js';
import type { BackgroundJob } from '../lib/background-job.js';
import type { MetricGauge } from '../lib/metric-gauge.js';

/**
 * The contract between app.ts and the modules. app.ts builds the platform once and calls each module's
 * factory in order, passing the services of the modules it needs; what a factory returns says everything the
 * application does with the module, so that adding one is a line in app.ts.
 */

/** What every module's factory is given: the configuration and the shared machinery below the modules. */
export interface Platform {
  readonly config: Config;
  readonly database: Database;
  readonly log: FastifyBaseLogger;
  /** Signs access tokens, unsubscribe links and the like. */
  readonly jwtSecret: string;
  /** Shared state across processes, when REDIS_URL is set. */
  readonly redis: Redis | undefined;
  readonly mailer: Mailer;
  readonly storage: FileStorage;
  /** Cache stamps that database triggers renew when the data behind a cached answer changes. */
  readonly stamps: CacheStamps;
  /** The API's public base URL, `PUBLIC_URL` + `API_PREFIX` + `/realty-api/v1`. */
  readonly apiBaseUrl: string;
  /** Talks to the payment provider instead of the one the configuration names (tests give a fake). */
  readonly paymentGateway?: PaymentGateway | undefined;
}

/** What a module gives the application. */
export interface AppModule<S extends object = object> {
  /** The services other modules, the CLI and the tests may use. */
  readonly services: S;
  /** Registers the module's routes in the API's scope (under its prefix). */
  readonly routes?: (api: FastifyInstance) => Promise<void>;
  /** Response schemas with an `$id` that routes reference (`Type.Ref`), added to the application once. */
  readonly schemas?: readonly TSchema[];
  /** The outbox channels this module delivers, by channel name. */
  readonly senders?: Readonly<Record<string, ChannelSender>>;
  /** The module's background jobs, run by the scheduler in `serve`. */
  readonly jobs?: readonly BackgroundJob[];
  /** Gauges the module adds to GET /metrics, read at each scrape. */
  readonly gauges?: readonly MetricGauge[];
  /**
   * Whether the module can answer yet (the search index built): `/ready` answers 503 until every module's is
   * true. May do the work it waits for when nothing else started it (the tests' applications are not started).
   */
  isReady?(): Promise<boolean>;
  /**
   * Begins the work `isReady` waits for (`serve` only, before the application is built, so that it runs while
   * the routes register and the server binds): building the search index. `start` begins it too if this was
   * not called. Not awaited.
   */
  prepare?(): void;
  /** Starts work that runs beside the requests (`serve` only): warming caches, flushing counters. */
  start?(): void;
  /** Stops what `start` began and closes what the module opened. */
  stop?(): Promise<void>;
}

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void ? I : never;

/** The services of a list of modules, as one bag: what `Services` in app.ts is made of. */
export type ServicesOf<M extends readonly AppModule[]> = UnionToIntersection<M[number]['services']>;
