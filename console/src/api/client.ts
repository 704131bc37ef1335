/**
 * The console's one way to call the API: the contract's envelope unwrapped, its errors as ApiError, the
 * access token (kept in memory only) sent as a Bearer token and renewed once, transparently, when the API
 * says it expired. The renewal uses the refresh token in its HttpOnly cookie (api/session.ts), which page
 * script never sees. The records' types come from the API's OpenAPI document (@realty-api/client).
 */
import type { AnswerData, Schemas } from '@realty-api/client';
import { common } from '../i18n/common';
import { isLanguage } from '../i18n/languages';

/** One field's problem in an error answer (the document's `ErrorBody.errors`). */
export type FieldError = NonNullable<Schemas['ErrorBody']['errors']>[number];

/** An answer of the API with `success: false`, or a network failure (status 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly fields: FieldError[] = [],
    readonly requestId?: string,
    /** A 429's Retry-After, in seconds. */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** The paging block of every paged list answer (docs/api.md 0.4), as GET /users/leads gives it. */
export type Pagination = AnswerData<'/realty-api/v1/users/leads', 'get'>['pagination'];

type QueryValue = string | number | boolean | null | undefined | readonly (string | number)[];

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, QueryValue>;
  /** A JSON body, or a FormData for multipart uploads. */
  body?: unknown;
  signal?: AbortSignal;
  /** The browser's HTTP cache: `no-cache` revalidates answers the API lets browsers keep (term lists, 60 s). */
  cache?: RequestCache;
}

interface Settings {
  apiBase: string;
  language: () => string;
  /** Renews the access token (api/session.ts); resolves false when the session is over. */
  renew: () => Promise<boolean>;
  token: () => string | null;
}

const settings: Settings = {
  apiBase: '/realty-api/v1',
  language: () => 'en',
  renew: async () => false,
  token: () => null,
};

export function configureClient(next: Partial<Settings>): void {
  Object.assign(settings, next);
}

/** `?a=1&b=x,y` of `query`'s set values (arrays as comma-separated lists, the contract's form), or ''. */
function queryString(query: Record<string, QueryValue>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const search = params.toString();
  return search ? `?${search}` : '';
}

/**
 * A message of the console's own (no answer of the API to carry one) in the console's language; the shared
 * catalogue is read directly, since this module sits below React and i18next.
 */
function ownMessage(key: 'network_error' | 'unreadable_answer', status = 0): string {
  const language = settings.language();
  return (common[isLanguage(language) ? language : 'en'][key] ?? key).replace('{{status}}', String(status));
}

/** Codes of a 401 after which a renewed access token may succeed. */
const RENEWABLE = new Set(['token_expired', 'invalid_token']);

/** Calls the API and returns the envelope's `data`; throws ApiError otherwise. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const first = await send(path, options);
  // The token route's own 401 is the renewal failing: asking it to renew again would wait on itself.
  const renewable = path !== '/auth/token' && first.status === 401 && settings.token() !== null;
  if (renewable && RENEWABLE.has(await codeOf(first)) && (await settings.renew())) {
    return unwrap<T>(await send(path, options));
  }
  return unwrap<T>(first);
}

/** The raw answer of an authenticated request, for streams (the notification feed). */
export function authorizedFetch(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const token = settings.token();
  if (token) headers.set('authorization', `Bearer ${token}`);
  headers.set('accept-language', settings.language());
  return fetch(`${settings.apiBase}${path}`, { ...init, headers, credentials: 'same-origin' });
}

async function send(path: string, { method = 'GET', query, body, signal, cache }: RequestOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json' };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  try {
    return await authorizedFetch(path + (query ? queryString(query) : ''), {
      method,
      headers,
      body: payload,
      signal,
      cache,
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === 'AbortError') throw error;
    throw new ApiError(0, 'network_error', ownMessage('network_error'));
  }
}

async function codeOf(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { code?: string };
    return body.code ?? '';
  } catch {
    return '';
  }
}

async function unwrap<T>(response: Response): Promise<T> {
  let body: { success?: boolean; data?: T; code?: string; message?: string; errors?: FieldError[]; request_id?: string };
  try {
    body = await response.json();
  } catch {
    throw new ApiError(response.status, 'invalid_response', ownMessage('unreadable_answer', response.status));
  }
  if (response.ok && body.success !== false) return body.data as T;
  // Term listings answer "no records" with 200 and success false (docs/api.md 0.2): that is an empty list.
  if (response.ok) return body.data as T;
  const retryAfter = Number(response.headers.get('retry-after'));
  throw new ApiError(
    response.status,
    body.code ?? 'error',
    body.message ?? response.statusText,
    body.errors ?? [],
    body.request_id,
    response.status === 429 && retryAfter > 0 ? retryAfter : undefined,
  );
}
