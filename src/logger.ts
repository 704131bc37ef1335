import { type Logger, pino } from 'pino';
import type { Config } from './config.js';

/** Fields that carry secrets; they never reach the log (docs/api.md security rules). */
const REDACTED = [
  'req.headers.authorization',
  'req.headers.cookie',
  ...['password', 'current_password', 'refresh_token', 'token', 'id_token', 'access_token'].map((field) => `body.${field}`),
];

/** The one logger of the process: the HTTP layer and background jobs write to it alike. */
export function createLogger(config: Config): Logger {
  return pino({ level: config.logLevel, redact: REDACTED });
}
