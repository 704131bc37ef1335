import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT } from 'jose';

/** Local stand-ins for Google's key server and Facebook's Graph API, on 127.0.0.1 only. */

type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

async function listen(handler: Handler): Promise<{ server: Server; base: string }> {
  const server = createServer((request, response) => handler(request, response, new URL(request.url ?? '/', 'http://127.0.0.1')));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, base: `http://127.0.0.1:${port}` };
}

function close(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** A base URL on which nothing listens: requests to it are refused at once. */
export async function unreachableUrl(): Promise<string> {
  const { server, base } = await listen(() => undefined);
  await close(server);
  return base;
}

export const GOOGLE_ISSUER = 'https://accounts.google.com';

interface IdTokenOptions {
  /** Claims merged over the defaults (issuer, audience, subject, e-mail, names, expiry in an hour). */
  claims?: JWTPayload & Record<string, unknown>;
  /** Sign with a key the key server does not publish, under the published key's `kid`. */
  foreignKey?: boolean;
  kid?: string;
}

export interface FakeGoogle {
  jwksUrl: string;
  clientId: string;
  /** How many times the key set was fetched. */
  readonly jwksRequests: number;
  signIdToken(options?: IdTokenOptions): Promise<string>;
  close(): Promise<void>;
}

/** A JWKS server publishing the public half of a fresh RS256 key pair, and a signer of ID tokens with it. */
export async function startFakeGoogle(clientId = 'client-1.apps.googleusercontent.com'): Promise<FakeGoogle> {
  const kid = 'test-key-1';
  const [keys, foreign] = await Promise.all([generateKeyPair('RS256'), generateKeyPair('RS256')]);
  const publicJwk = { ...(await exportJWK(keys.publicKey)), kid, alg: 'RS256', use: 'sig' };
  let jwksRequests = 0;
  const { server, base } = await listen((request, response, url) => {
    if (url.pathname !== '/certs') return sendJson(response, 404, { error: 'not found' });
    jwksRequests++;
    sendJson(response, 200, { keys: [publicJwk] });
  });
  return {
    jwksUrl: `${base}/certs`,
    clientId,
    get jwksRequests() {
      return jwksRequests;
    },
    signIdToken: ({ claims = {}, foreignKey = false, kid: headerKid = kid } = {}) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({
        iss: GOOGLE_ISSUER,
        aud: clientId,
        sub: '1000001',
        email: 'someone@gmail.test',
        email_verified: true,
        given_name: 'Some',
        family_name: 'One',
        name: 'Some One',
        iat: now,
        exp: now + 3600,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: headerKid, typ: 'JWT' })
        .sign(foreignKey ? foreign.privateKey : keys.privateKey);
    },
    close: () => close(server),
  };
}

export interface GraphUser {
  id: string;
  email?: string;
  first_name?: string;
  last_name?: string;
  name?: string;
}

interface GraphTokenEntry {
  /** What `debug_token` reports for the token; `app_id` defaults to the fake's app, `is_valid` to true. */
  debug?: { is_valid?: boolean; app_id?: string; user_id?: string };
  /** What `me` answers for the token; absent: `me` refuses it as Facebook does an invalid token. */
  me?: GraphUser;
  /** Answer every request about this token with this status (e.g. 500) instead. */
  failWith?: number;
}

export interface FakeGraph {
  graphUrl: string;
  appId: string;
  appSecret: string;
  register(token: string, entry: GraphTokenEntry): void;
  /** Registers a valid token of this app for the user; returns the token. */
  userToken(user: GraphUser): string;
  close(): Promise<void>;
}

const OAUTH_ERROR = { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } };

/** A Graph API answering `/debug_token` and `/me` from a table of tokens the test registers. */
export async function startFakeGraph(appId = '424242', appSecret = 'fake-app-secret'): Promise<FakeGraph> {
  const tokens = new Map<string, GraphTokenEntry>();
  let counter = 0;
  const { server, base } = await listen((_request, response, url) => {
    const query = url.searchParams;
    if (url.pathname === '/debug_token') {
      // Only this app's credentials may inspect tokens.
      if (query.get('access_token') !== `${appId}|${appSecret}`) return sendJson(response, 400, OAUTH_ERROR);
      const entry = tokens.get(query.get('input_token') ?? '');
      if (entry?.failWith) return sendJson(response, entry.failWith, { error: { message: 'Service temporarily unavailable' } });
      if (!entry) return sendJson(response, 200, { data: { is_valid: false, error: { code: 190, message: 'Invalid token' } } });
      return sendJson(response, 200, {
        data: { app_id: appId, type: 'USER', is_valid: true, user_id: entry.me?.id, scopes: ['email', 'public_profile'], ...entry.debug },
      });
    }
    if (url.pathname === '/me') {
      const entry = tokens.get(query.get('access_token') ?? '');
      if (entry?.failWith) return sendJson(response, entry.failWith, { error: { message: 'Service temporarily unavailable' } });
      if (!entry?.me) return sendJson(response, 400, OAUTH_ERROR);
      const fields = (query.get('fields') ?? 'id,name').split(',');
      return sendJson(response, 200, Object.fromEntries(Object.entries(entry.me).filter(([key]) => fields.includes(key))));
    }
    sendJson(response, 404, { error: { message: 'Unknown path' } });
  });
  return {
    graphUrl: base,
    appId,
    appSecret,
    register: (token, entry) => void tokens.set(token, entry),
    userToken: (user) => {
      const token = `EAAfake${++counter}${user.id}`;
      tokens.set(token, { me: user });
      return token;
    },
    close: () => close(server),
  };
}
