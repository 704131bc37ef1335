import { createRequire } from 'node:module';
import { type DestinationStream, type Logger, pino } from 'pino';
import type { Config } from './config.js';

/**
 * pino-pretty only for a terminal's readable lines, required then (it is CommonJS, so synchronously): a
 * server writing JSON never loads it, nor the formatting libraries it brings.
 */
function prettyStream(): DestinationStream {
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof import('pino-pretty');
  return pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' });
}

/** Fields that carry secrets; they never reach the log (docs/api.md security rules). */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  // Cookie mode's refresh token travels in these (docs/api.md 2.3); Fastify logs neither by default, and must not.
  'res.headers["set-cookie"]',
  ...['password', 'current_password', 'refresh_token', 'token', 'id_token', 'access_token', 'client_secret'].map(
    (field) => `body.${field}`,
  ),
];

/**
 * The one logger of the process: the HTTP layer and background jobs write to it alike. JSON lines for log
 * collectors; on a terminal (LOG_FORMAT=auto) the same records as readable lines, written synchronously so
 * that nothing is lost when the process exits. `destination` replaces standard output (tests read the lines).
 */
export function createLogger(config: Config, destination?: DestinationStream): Logger {
  const options = { level: config.logLevel, redact: REDACTED };
  if (destination) return pino(options, destination);
  return config.logFormat === 'pretty' ? pino(options, prettyStream()) : pino(options);
}
