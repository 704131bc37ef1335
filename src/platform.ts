import type { Redis } from 'ioredis';
import { LogMailer, type Mailer, SmtpMailer } from './adapters/mail/mailer.js';
import type { PaymentGateway } from './adapters/payments/payment-gateway.js';
import { createStorage } from './adapters/storage/index.js';
import type { Config } from './config.js';
import { CacheStamps } from './db/cache-versions.js';
import type { Database } from './db/database.js';
import { createLogger } from './logger.js';
import type { Platform } from './modules/module.js';

export interface AppDependencies {
  config: Config;
  database: Database;
  jwtSecret: string;
  /** Shared state across processes (rate limits, revocations, live notifications); optional. */
  redis?: Redis;
  /** Sends the mail instead of SMTP_URL's server or the log (tests capture mail with it). */
  mailer?: Mailer;
  /** Talks to the payment provider instead of Stripe as configured (tests give a fake). */
  paymentGateway?: PaymentGateway;
}

/** The shared machinery every module's factory is given (modules/module.ts), made once per application. */
export function createPlatform({ config, database, jwtSecret, redis, mailer, paymentGateway }: AppDependencies): Platform {
  const log = createLogger(config);
  return {
    config,
    database,
    log,
    jwtSecret,
    redis,
    mailer: mailer ?? (config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : new LogMailer(log)),
    storage: createStorage(config),
    stamps: new CacheStamps(database.readCacheVersion, database.localWrites, config.cacheRevalidateMs),
    apiBaseUrl: `${config.publicUrl}${config.apiPrefix}/realty-api/v1`,
    paymentGateway,
  };
}
