import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { readBody } from './read-body.js';

/**
 * A local stand-in for the few Stripe API endpoints the payments module calls, on 127.0.0.1 only, and the
 * signing half of Stripe's webhooks. Tests point STRIPE_API_BASE at `apiBase`, read back what the
 * application sent in `requests`, and make Stripe fail on demand with `fail()`.
 */

const FAKE_STRIPE_SECRET_KEY = 'sk_test_fake_0123456789';
export const FAKE_WEBHOOK_SECRET = 'whsec_test_fake_0123456789';

/** One API call as the fake received it; `body` is the form-encoded body decoded into nested objects. */
interface RecordedRequest {
  method: string;
  path: string;
  body: FormValue;
  headers: IncomingMessage['headers'];
}

type FormValue = string | FormValue[] | { [key: string]: FormValue };

/** `server_error`: Stripe answers 500; `network`: the connection is dropped without an answer. */
type FailureMode = 'server_error' | 'network';

export interface FakeStripe {
  /** Scheme, host and port, without /v1 (what STRIPE_API_BASE takes). */
  apiBase: string;
  /** Every request received, oldest first. */
  readonly requests: RecordedRequest[];
  /** The requests to one path (e.g. `/v1/checkout/sessions`). */
  requestsTo(path: string): RecordedRequest[];
  /** Every request fails in this way until `fail(null)`. */
  fail(mode: FailureMode | null): void;
  /** The environment for buildTestApp: the keys and STRIPE_API_BASE pointing here. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startFakeStripe(secretKey = FAKE_STRIPE_SECRET_KEY): Promise<FakeStripe> {
  const requests: RecordedRequest[] = [];
  let failure: FailureMode | null = null;

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => sendJson(response, 500, stripeError('api_error', String(error))));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const text = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    const recorded: RecordedRequest = { method: request.method ?? 'GET', path, body: parseForm(text), headers: request.headers };
    requests.push(recorded);
    if (failure === 'network') {
      request.socket.destroy();
      return;
    }
    if (failure === 'server_error') return sendJson(response, 500, stripeError('api_error', 'Something went wrong on Stripe’s end.'));
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      return sendJson(response, 401, stripeError('invalid_request_error', 'Invalid API Key provided.'));
    }
    if (recorded.method === 'POST' && path === '/v1/checkout/sessions') return sendJson(response, 200, checkoutSession(recorded.body));
    const subscription = /^\/v1\/subscriptions\/([A-Za-z0-9_]+)$/.exec(path);
    if (recorded.method === 'POST' && subscription) return sendJson(response, 200, updatedSubscription(subscription[1]!, recorded.body));
    if (recorded.method === 'DELETE' && subscription) {
      return sendJson(response, 200, { id: subscription[1], object: 'subscription', status: 'canceled', metadata: {} });
    }
    sendJson(response, 404, stripeError('invalid_request_error', `Unrecognized request URL (${recorded.method}: ${path}).`));
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const apiBase = `http://127.0.0.1:${port}`;
  return {
    apiBase,
    requests,
    requestsTo: (path) => requests.filter((request) => request.path === path),
    fail(mode) {
      failure = mode;
    },
    env: () => ({ STRIPE_SECRET_KEY: secretKey, STRIPE_WEBHOOK_SECRET: FAKE_WEBHOOK_SECRET, STRIPE_API_BASE: apiBase }),
    close: () => closeServer(server),
  };
}

/** The session Stripe creates: what was asked for, with an id, a hosted-page URL and an open status. */
function checkoutSession(params: FormValue): Record<string, unknown> {
  const fields = asObject(params);
  const id = `cs_test_${randomBytes(12).toString('hex')}`;
  return {
    id,
    object: 'checkout.session',
    mode: fields.mode ?? 'payment',
    status: 'open',
    payment_status: 'unpaid',
    client_reference_id: fields.client_reference_id ?? null,
    customer_email: fields.customer_email ?? null,
    metadata: fields.metadata ?? {},
    success_url: fields.success_url ?? null,
    cancel_url: fields.cancel_url ?? null,
    subscription: null,
    invoice: null,
    url: `https://checkout.stripe.test/c/pay/${id}`,
  };
}

function updatedSubscription(id: string, params: FormValue): Record<string, unknown> {
  const fields = asObject(params);
  return { id, object: 'subscription', status: 'active', cancel_at_period_end: fields.cancel_at_period_end === 'true', metadata: {} };
}

function stripeError(type: string, message: string): { error: { type: string; message: string } } {
  return { error: { type, message } };
}

function asObject(value: FormValue): Record<string, FormValue> {
  return typeof value === 'object' && !Array.isArray(value) ? value : {};
}

/**
 * Stripe's form encoding (`line_items[0][price_data][currency]=usd`) as nested objects; keys that are all
 * indexes become arrays.
 */
function parseForm(text: string): FormValue {
  const root: Record<string, FormValue> = {};
  for (const [key, value] of new URLSearchParams(text)) {
    const [head = '', ...rest] = key.split('[');
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ''))];
    let node: Record<string, FormValue> = root;
    path.forEach((segment, index) => {
      if (index === path.length - 1) node[segment] = value;
      else node = (node[segment] ??= {}) as Record<string, FormValue>;
    });
  }
  return arraysOf(root);
}

function arraysOf(value: FormValue): FormValue {
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((key) => [key, arraysOf(value[key]!)] as const);
  if (keys.length > 0 && keys.every((key) => /^\d+$/.test(key))) {
    return entries.sort(([a], [b]) => Number(a) - Number(b)).map(([, item]) => item);
  }
  return Object.fromEntries(entries);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response
    .writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomBytes(6).toString('hex')}` })
    .end(JSON.stringify(body));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

// Webhooks

/** An event as Stripe delivers it to a webhook endpoint. */
export interface StripeEventPayload {
  id: string;
  object: 'event';
  type: string;
  created: number;
  livemode: false;
  api_version: string;
  data: { object: Record<string, unknown> };
}

/** A webhook event of the given type around `object`, with a fresh id unless one is given. */
export function stripeEvent(
  type: string,
  object: Record<string, unknown>,
  id = `evt_${randomBytes(12).toString('hex')}`,
): StripeEventPayload {
  return {
    id,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    api_version: Stripe.API_VERSION,
    data: { object },
  };
}

/**
 * The `Stripe-Signature` header Stripe would send with `payload`: `t=<unix seconds>,v1=<HMAC-SHA256 of
 * "t.payload">`. `timestamp` (unix seconds) defaults to now; an older one makes a stale signature.
 */
export function signWebhook(
  payload: string,
  { secret = FAKE_WEBHOOK_SECRET, timestamp }: { secret?: string; timestamp?: number } = {},
): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, ...(timestamp === undefined ? {} : { timestamp }) });
}
