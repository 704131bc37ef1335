import { type Logger, pino } from 'pino';
import pretty from 'pino-pretty';
import type { Config } from './config.js';

/** Fields that carry secrets; they never reach the log (docs/api.md security rules). */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  ...['password', 'current_password', 'refresh_token', 'token', 'id_token', 'access_token'].map((field) => `body.${field}`),
];

/**
 * The one logger of the process: the HTTP layer and background jobs write to it alike. JSON lines for log
 * collectors; on a terminal (LOG_FORMAT=auto) the same records as readable lines, written synchronously so
 * that nothing is lost when the process exits.
 */
export function createLogger(config: Config): Logger {
  const options = { level: config.logLevel, redact: REDACTED };
  return config.logFormat === 'pretty'
    ? pino(options, pretty({ sync: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' }))
    : pino(options);
}
