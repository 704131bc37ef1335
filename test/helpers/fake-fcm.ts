import { generateKeyPairSync, type KeyObject, randomBytes, verify } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FcmConfig } from '../../src/config-push.js';
import { readBody } from './read-body.js';

/**
 * A local stand-in for Google's OAuth token endpoint and the FCM HTTP v1 `messages:send` endpoint, on
 * 127.0.0.1 only. It holds a service account of its own (a fresh RSA key pair): the token endpoint verifies the
 * RS256 assertion against the public half and issues short-lived access tokens, and the send endpoint checks
 * them, records the messages it accepts, and fails on demand.
 */

const FAKE_FCM_PROJECT_ID = 'realty-test';
export const FAKE_FCM_CLIENT_EMAIL = 'push@realty-test.iam.gserviceaccount.com';
export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';

/** A message as FCM accepted it, with the access token it came with. */
interface ReceivedMessage {
  token: string;
  notification: { title: string; body: string };
  data: Record<string, string>;
  accessToken: string;
}

/** The claims of an assertion the token endpoint accepted. */
interface AcceptedAssertion {
  header: Record<string, unknown>;
  claims: { iss: string; scope: string; aud: string; iat: number; exp: number };
}

/** An HTTP status to answer with, `network` to drop the connection, `hang` never to answer. */
type FcmFailure = number | 'network' | 'hang';

export interface FakeFcm {
  tokenUrl: string;
  apiUrl: string;
  /** The service account as Google's JSON key file has it. */
  serviceAccount: { type: 'service_account'; project_id: string; client_email: string; private_key: string };
  /** Accepted messages, oldest first. */
  readonly messages: ReceivedMessage[];
  /** Assertions exchanged for tokens, oldest first. */
  readonly assertions: AcceptedAssertion[];
  /** Access tokens issued so far. */
  readonly issuedTokens: string[];
  /** Requests that reached `messages:send`, answered or not. */
  sendRequests(): number;
  /** Token requests, accepted or not. */
  tokenRequests(): number;
  /** `expires_in` of the tokens issued from now on (default 3599, as Google). */
  setTokenTtl(seconds: number): void;
  /** Milliseconds the token endpoint waits before answering. */
  setTokenDelay(ms: number): void;
  /** Sends to these device tokens answer 404 UNREGISTERED. */
  unregister(...tokens: string[]): void;
  /** Sends to these device tokens answer 400 INVALID_ARGUMENT on `message.token`. */
  rejectAsInvalid(...tokens: string[]): void;
  /** The next `times` sends (after authentication) fail this way; a number is an HTTP status. */
  failNext(times: number, failure?: FcmFailure): void;
  /** Every access token issued so far is refused with 401 from now on. */
  expireTokens(): void;
  /** Forgets all failures, unregistered tokens and records. */
  reset(): void;
  /** FcmConfig pointing here. */
  config(): FcmConfig;
  /** The environment for loadConfig: the FCM_* variables pointing here. */
  env(): Record<string, string>;
  close(): Promise<void>;
}

export async function startFakeFcm(): Promise<FakeFcm> {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const privatePem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const messages: ReceivedMessage[] = [];
  const assertions: AcceptedAssertion[] = [];
  const issuedTokens: string[] = [];
  const validTokens = new Map<string, number>(); // token → expiry (epoch ms)
  const unregistered = new Set<string>();
  const invalid = new Set<string>();
  let failures: FcmFailure[] = [];
  let tokenTtl = 3599;
  let tokenDelay = 0;
  let sendCount = 0;
  let tokenCount = 0;
  let tokenUrl = '';

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => sendJson(response, 500, googleError(500, 'INTERNAL', String(error))));
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const body = await readBody(request);
    const path = new URL(request.url ?? '/', 'http://127.0.0.1').pathname;
    if (request.method === 'POST' && path === '/token') return issueToken(body, response);
    const send = /^\/v1\/projects\/([^/]+)\/messages:send$/.exec(path);
    if (request.method === 'POST' && send) return acceptMessage(decodeURIComponent(send[1]!), request, body, response);
    sendJson(response, 404, googleError(404, 'NOT_FOUND', `no route ${request.method} ${path}`));
  }

  async function issueToken(body: string, response: ServerResponse): Promise<void> {
    tokenCount++;
    if (tokenDelay > 0) await new Promise((resolve) => setTimeout(resolve, tokenDelay));
    const form = new URLSearchParams(body);
    if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
      return sendJson(response, 400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type.' });
    }
    const accepted = verifyAssertion(form.get('assertion') ?? '', publicKey, tokenUrl);
    if (typeof accepted === 'string') return sendJson(response, 400, { error: 'invalid_grant', error_description: accepted });
    assertions.push(accepted);
    const token = `ya29.fake-${randomBytes(16).toString('hex')}`;
    issuedTokens.push(token);
    validTokens.set(token, Date.now() + tokenTtl * 1000);
    sendJson(response, 200, { access_token: token, expires_in: tokenTtl, token_type: 'Bearer' });
  }

  function acceptMessage(projectId: string, request: IncomingMessage, body: string, response: ServerResponse): void {
    sendCount++;
    const accessToken = /^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1];
    const expiry = accessToken === undefined ? undefined : validTokens.get(accessToken);
    if (accessToken === undefined || expiry === undefined || expiry <= Date.now()) {
      return sendJson(response, 401, googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.'));
    }
    if (projectId !== FAKE_FCM_PROJECT_ID) {
      return sendJson(response, 403, googleError(403, 'PERMISSION_DENIED', 'Permission denied on the project.'));
    }
    const failure = failures.shift();
    if (failure === 'network') return void request.socket.destroy();
    if (failure === 'hang') return;
    if (failure === 400)
      return sendJson(response, 400, googleError(400, 'INVALID_ARGUMENT', 'Invalid value at message.android.ttl', 'INVALID_ARGUMENT'));
    if (failure !== undefined)
      return sendJson(response, failure, googleError(failure, statusName(failure), 'The service is currently unavailable.'));

    const message = parseMessage(body);
    if (typeof message === 'string')
      return sendJson(response, 400, googleError(400, 'INVALID_ARGUMENT', message, 'INVALID_ARGUMENT', 'message'));
    if (unregistered.has(message.token)) {
      return sendJson(response, 404, googleError(404, 'NOT_FOUND', 'Requested entity was not found.', 'UNREGISTERED'));
    }
    if (invalid.has(message.token)) {
      const error = googleError(
        400,
        'INVALID_ARGUMENT',
        'The registration token is not a valid FCM registration token',
        'INVALID_ARGUMENT',
        'message.token',
      );
      return sendJson(response, 400, error);
    }
    messages.push({ ...message, accessToken });
    sendJson(response, 200, { name: `projects/${projectId}/messages/${messages.length}` });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  tokenUrl = `${base}/token`;
  const serviceAccount = {
    type: 'service_account' as const,
    project_id: FAKE_FCM_PROJECT_ID,
    client_email: FAKE_FCM_CLIENT_EMAIL,
    private_key: privatePem,
  };
  return {
    tokenUrl,
    apiUrl: base,
    serviceAccount,
    messages,
    assertions,
    issuedTokens,
    sendRequests: () => sendCount,
    tokenRequests: () => tokenCount,
    setTokenTtl(seconds) {
      tokenTtl = seconds;
    },
    setTokenDelay(ms) {
      tokenDelay = ms;
    },
    unregister: (...tokens) => tokens.forEach((token) => unregistered.add(token)),
    rejectAsInvalid: (...tokens) => tokens.forEach((token) => invalid.add(token)),
    failNext(times, failure = 503) {
      failures = Array.from({ length: times }, () => failure);
    },
    expireTokens: () => validTokens.clear(),
    reset() {
      failures = [];
      unregistered.clear();
      invalid.clear();
      messages.length = 0;
      assertions.length = 0;
      issuedTokens.length = 0;
      sendCount = 0;
      tokenCount = 0;
      tokenTtl = 3599;
      tokenDelay = 0;
    },
    config: () => ({ projectId: FAKE_FCM_PROJECT_ID, clientEmail: FAKE_FCM_CLIENT_EMAIL, privateKey: privatePem, tokenUrl, apiUrl: base }),
    env: () => ({
      FCM_PROJECT_ID: FAKE_FCM_PROJECT_ID,
      FCM_CLIENT_EMAIL: FAKE_FCM_CLIENT_EMAIL,
      FCM_PRIVATE_KEY: privatePem.replace(/\n/g, '\\n'),
      FCM_TOKEN_URL: tokenUrl,
      FCM_API_URL: base,
    }),
    close: () => closeServer(server),
  };
}

/** Checks what Google checks of a service-account assertion; a string is the reason it is refused. */
function verifyAssertion(assertion: string, publicKey: KeyObject, tokenUrl: string): AcceptedAssertion | string {
  const parts = assertion.split('.');
  if (parts.length !== 3) return 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe.';
  const [headerPart, claimsPart, signaturePart] = parts as [string, string, string];
  let header: Record<string, unknown>;
  let claims: AcceptedAssertion['claims'];
  try {
    header = JSON.parse(Buffer.from(headerPart, 'base64url').toString('utf8')) as Record<string, unknown>;
    claims = JSON.parse(Buffer.from(claimsPart, 'base64url').toString('utf8')) as AcceptedAssertion['claims'];
  } catch {
    return 'Invalid JWT: not JSON.';
  }
  if (header.alg !== 'RS256') return 'Invalid JWT: alg must be RS256.';
  const signed = verify('sha256', Buffer.from(`${headerPart}.${claimsPart}`), publicKey, Buffer.from(signaturePart, 'base64url'));
  if (!signed) return 'Invalid JWT Signature.';
  const now = Math.floor(Date.now() / 1000);
  if (claims.iss !== FAKE_FCM_CLIENT_EMAIL) return 'Invalid JWT: unknown issuer.';
  if (claims.aud !== tokenUrl) return 'Invalid JWT: aud must be the token URL.';
  if (claims.scope !== FCM_SCOPE) return 'Invalid JWT: scope.';
  if (!Number.isInteger(claims.iat) || !Number.isInteger(claims.exp)) return 'Invalid JWT: iat and exp must be integers.';
  if (claims.iat > now + 60 || claims.exp <= now || claims.exp - claims.iat > 3600) {
    return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  }
  return { header, claims };
}

/** The FCM v1 message this fake needs: a token, a notification and string data; a string says what is wrong. */
function parseMessage(body: string): Omit<ReceivedMessage, 'accessToken'> | string {
  let parsed: { message?: { token?: unknown; notification?: { title?: unknown; body?: unknown }; data?: Record<string, unknown> } };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    return 'Invalid JSON payload received.';
  }
  const message = parsed.message;
  if (typeof message?.token !== 'string' || message.token === '') return 'message.token is required';
  const { title, body: text } = message.notification ?? {};
  if (typeof title !== 'string' || typeof text !== 'string') return 'message.notification needs title and body';
  const data = message.data ?? {};
  for (const [key, value] of Object.entries(data)) {
    if (typeof value !== 'string') return `Invalid value at 'message.data[${key}].value' (TYPE_STRING)`;
  }
  return { token: message.token, notification: { title, body: text }, data: data as Record<string, string> };
}

/** google.rpc.Status as FCM sends it, with an FcmError detail and a field violation when given. */
function googleError(code: number, status: string, message: string, errorCode?: string, field?: string): Record<string, unknown> {
  const details: Record<string, unknown>[] = [];
  if (errorCode) details.push({ '@type': 'type.googleapis.com/google.firebase.fcm.v1.FcmError', errorCode });
  if (field) details.push({ '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field, description: message }] });
  return { error: { code, message, status, ...(details.length > 0 ? { details } : {}) } };
}

function statusName(code: number): string {
  const names: Record<number, string> = {
    401: 'UNAUTHENTICATED',
    403: 'PERMISSION_DENIED',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
    503: 'UNAVAILABLE',
  };
  return names[code] ?? 'UNKNOWN';
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}
