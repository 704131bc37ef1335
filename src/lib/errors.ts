import type { MessageKey, MessageParams } from '../i18n/index.js';

/** The closed set of error codes of docs/api.md 0.2, with the status each one answers. */
export const ERROR_STATUS = {
  validation_failed: 400,
  invalid_json: 400,
  unauthorized: 401,
  invalid_token: 401,
  token_expired: 401,
  invalid_credentials: 401,
  quota_exceeded: 402,
  forbidden: 403,
  account_suspended: 403,
  not_found: 404,
  route_not_found: 404,
  conflict: 409,
  email_taken: 409,
  username_taken: 409,
  already_reviewed: 409,
  invalid_transition: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface FieldError {
  /** Dotted path of the offending parameter or body field, e.g. `number` or `address.latitude`. */
  field: string;
  key: MessageKey;
  params?: MessageParams;
}

/**
 * The one error type services throw. The message is a catalogue key, localized when the error is rendered,
 * so services never need to know the caller's language.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    readonly messageKey: MessageKey = code,
    readonly fields: FieldError[] = [],
    readonly messageParams: MessageParams = {},
  ) {
    super(`${code}: ${messageKey}`);
    this.name = 'AppError';
    this.status = ERROR_STATUS[code];
  }

  /** A 400 naming one field and the rule it broke. */
  static invalidField(field: string, key: MessageKey, params?: MessageParams): AppError {
    return new AppError('validation_failed', 'validation_failed', [{ field, key, ...(params ? { params } : {}) }]);
  }

  static notFound(): AppError {
    return new AppError('not_found');
  }
}
