import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import type { FcmConfig } from '../../config-push.js';

/** What a push notification shows, and the string key-values the app receives with it. */
export interface PushMessage {
  title: string;
  body: string;
  data: Record<string, string>;
}

/** `unregistered`: the token names no app install any more (uninstalled, expired, or never valid). */
export type PushResult = 'sent' | 'unregistered';

/** Sends one push message to one device; throws when the send may succeed later (the outbox retries). */
export interface PushClient {
  send(token: string, message: PushMessage, idempotencyKey: string): Promise<PushResult>;
}

/** The OAuth scope of the FCM HTTP v1 API. */
const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/** How long one call to Google (token or send) may take, body included. */
const FCM_TIMEOUT_MS = 10_000;
/** Google's maximum lifetime of a service-account assertion. */
const ASSERTION_TTL_SECONDS = 3600;
/** An access token is replaced this long before Google says it expires, so that no send races its expiry. */
const TOKEN_EARLY_REFRESH_MS = 60_000;

/**
 * Keys FCM refuses in `data` (its own): a message carrying one would be refused on every retry, so they are
 * dropped instead.
 */
const RESERVED_DATA_KEY = /^(from|message_type|notification)$|^(google|gcm)/;

export interface FcmClientOptions {
  /** Per call; 10 s by default. */
  timeoutMs?: number;
}

interface AccessToken {
  value: string;
  /** Epoch ms after which the token is no longer used. */
  refreshAt: number;
}

/**
 * Firebase Cloud Messaging HTTP v1 with a service account: a JWT assertion signed with the account's key is
 * exchanged for an OAuth access token (RFC 7523), cached until shortly before it expires; concurrent sends
 * share one refresh. The key and the tokens live in private fields, so that logging the client shows neither.
 */
export class FcmClient implements PushClient {
  readonly #key: KeyObject;
  readonly #clientEmail: string;
  readonly #tokenUrl: string;
  readonly #sendUrl: string;
  readonly #timeoutMs: number;
  #cached: AccessToken | undefined;
  #refreshing: Promise<AccessToken> | undefined;

  constructor(config: FcmConfig, options: FcmClientOptions = {}) {
    this.#key = createPrivateKey(config.privateKey);
    this.#clientEmail = config.clientEmail;
    this.#tokenUrl = config.tokenUrl;
    this.#sendUrl = `${config.apiUrl.replace(/\/+$/, '')}/v1/projects/${encodeURIComponent(config.projectId)}/messages:send`;
    this.#timeoutMs = options.timeoutMs ?? FCM_TIMEOUT_MS;
  }

  /**
   * 2xx: `sent`; 404, or a 400 that blames the token: `unregistered`; 401: a fresh token and one more try;
   * anything else (429, 5xx, network, timeout, other 4xx) throws an Error that names no token or key.
   */
  async send(token: string, message: PushMessage, idempotencyKey: string): Promise<PushResult> {
    const data: Record<string, string> = {};
    for (const [key, value] of Object.entries(message.data)) if (!RESERVED_DATA_KEY.test(key)) data[key] = value;
    // FCM v1 has no idempotency header: the key travels with the message so that the app can drop repeats.
    data.idempotency_key = idempotencyKey;
    const body = JSON.stringify({ message: { token, notification: { title: message.title, body: message.body }, data } });

    let access = await this.#accessToken();
    let response = await this.#post(body, access);
    if (response.status === 401) {
      await response.body?.cancel();
      this.#forget(access);
      access = await this.#accessToken();
      response = await this.#post(body, access);
    }
    if (response.ok) {
      await response.body?.cancel();
      return 'sent';
    }
    const error = await readFcmError(response);
    if (response.status === 404) return 'unregistered';
    if (
      response.status === 400 &&
      (error.codes.includes('UNREGISTERED') || (error.codes.includes('INVALID_ARGUMENT') && error.aboutToken))
    ) {
      return 'unregistered';
    }
    const detail = [...new Set(error.codes)].join(' ');
    // NOTE: FCM's own text is kept for the operator, with the device token cut out should it ever be quoted.
    const text = error.message ? `: ${error.message.replaceAll(token, '[token]').slice(0, 200)}` : '';
    throw new Error(`FCM send failed: HTTP ${response.status}${detail ? ` ${detail}` : ''}${text}`);
  }

  async #post(body: string, access: AccessToken): Promise<Response> {
    try {
      return await fetch(this.#sendUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${access.value}`, 'content-type': 'application/json' },
        body,
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
    } catch (error) {
      throw transportError('FCM send', error, this.#timeoutMs);
    }
  }

  #accessToken(): Promise<AccessToken> {
    const cached = this.#cached;
    if (cached !== undefined && Date.now() < cached.refreshAt) return Promise.resolve(cached);
    this.#refreshing ??= this.#fetchAccessToken().finally(() => {
      this.#refreshing = undefined;
    });
    return this.#refreshing;
  }

  /** Drops a token FCM refused, unless another send has already replaced it. */
  #forget(access: AccessToken): void {
    if (this.#cached === access) this.#cached = undefined;
  }

  async #fetchAccessToken(): Promise<AccessToken> {
    const startedAt = Date.now();
    let response: Response;
    let body: Record<string, unknown>;
    try {
      response = await fetch(this.#tokenUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer', assertion: this.#assertion(startedAt) }),
        signal: AbortSignal.timeout(this.#timeoutMs),
      });
      body = await readJsonObject(response);
    } catch (error) {
      throw transportError('FCM token request', error, this.#timeoutMs);
    }
    if (!response.ok) {
      // OAuth errors (`invalid_grant`: a revoked key, a clock far off) are safe to show; the assertion is not.
      const reason = [body.error, body.error_description]
        .filter((part) => typeof part === 'string')
        .join(': ')
        .slice(0, 200);
      throw new Error(`FCM token request failed: HTTP ${response.status}${reason ? ` ${reason}` : ''}`);
    }
    const value = body.access_token;
    const expiresIn = Number(body.expires_in ?? ASSERTION_TTL_SECONDS);
    if (typeof value !== 'string' || value === '' || !Number.isFinite(expiresIn)) {
      throw new Error('FCM token request failed: the answer holds no access_token and expires_in');
    }
    const token = { value, refreshAt: startedAt + expiresIn * 1000 - TOKEN_EARLY_REFRESH_MS };
    this.#cached = token;
    return token;
  }

  /** The RS256 JWT that proves the service account (Google's "service account OAuth" flow). */
  #assertion(nowMs: number): string {
    const iat = Math.floor(nowMs / 1000);
    const header = base64url({ alg: 'RS256', typ: 'JWT' });
    const claims = base64url({ iss: this.#clientEmail, scope: FCM_SCOPE, aud: this.#tokenUrl, iat, exp: iat + ASSERTION_TTL_SECONDS });
    const input = `${header}.${claims}`;
    return `${input}.${sign('sha256', Buffer.from(input), this.#key).toString('base64url')}`;
  }
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

interface FcmError {
  /** google.rpc status, e.g. `UNAVAILABLE`. */
  status: string | undefined;
  /** `FcmError.errorCode`s of the details, e.g. `UNREGISTERED`, and the status. */
  codes: string[];
  /** A field violation on `message.token`, or a message about the registration token. */
  aboutToken: boolean;
  message: string | undefined;
}

/**
 * The google.rpc error body: `{error: {code, message, status, details: [{@type: …FcmError, errorCode},
 * {@type: …BadRequest, fieldViolations: [{field, description}]}]}}`. Anything else (a proxy's HTML) reads as empty.
 */
async function readFcmError(response: Response): Promise<FcmError> {
  const body = await readJsonObject(response).catch(() => ({}) as Record<string, unknown>);
  const error = isObject(body.error) ? body.error : {};
  const status = typeof error.status === 'string' ? error.status : undefined;
  const message = typeof error.message === 'string' ? error.message : undefined;
  const details = Array.isArray(error.details) ? error.details.filter(isObject) : [];
  const codes = details.flatMap((detail) => (typeof detail.errorCode === 'string' ? [detail.errorCode] : []));
  if (status !== undefined) codes.push(status);
  const violations = details.flatMap((detail) => (Array.isArray(detail.fieldViolations) ? detail.fieldViolations.filter(isObject) : []));
  const aboutToken = violations.some((violation) => violation.field === 'message.token') || /registration token/i.test(message ?? '');
  return { status, codes, aboutToken, message };
}

async function readJsonObject(response: Response): Promise<Record<string, unknown>> {
  const text = await response.text();
  if (text === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return isObject(parsed) ? parsed : {};
  } catch {
    return {};
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** A network failure or timeout as an Error that names what failed; the request (and its secrets) stays out. */
function transportError(what: string, error: unknown, timeoutMs: number): Error {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) {
    return new Error(`${what} timed out after ${timeoutMs} ms`);
  }
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  // fetch says only `fetch failed`; its cause names the socket error (ECONNREFUSED, ENOTFOUND …) or the refusal.
  const reason =
    typeof cause?.code === 'string'
      ? cause.code
      : typeof cause?.message === 'string'
        ? cause.message
        : error instanceof Error
          ? error.message
          : String(error);
  return new Error(`${what} failed: ${reason}`, { cause: error });
}
