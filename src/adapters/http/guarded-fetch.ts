import { lookup as dnsLookup } from 'node:dns/promises';
import { type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { type Readable, Transform } from 'node:stream';
import { isRefusedAddress } from './refused-addresses.js';

export { isRefusedAddress } from './refused-addresses.js';

/** How a user-given URL may be fetched. */
export interface OutboundPolicy {
  /** Hosts (exact host names, lower case) that may be reached even when they resolve to private or loopback addresses (a local test server, an intranet feed). */
  allowedHosts: readonly string[];
  /** Bytes of body at most; a longer answer is refused with OutboundError('too_large') as soon as it passes the limit (Content-Length checked first). */
  maxBytes: number;
  /** Whole request time limit: name resolution, every redirect and the body until its last byte. */
  timeoutMs: number;
  /** Redirects followed, each one checked again like the first URL (default 3). */
  maxRedirects?: number;
  /** Resolves a host name to its addresses; `dns.lookup` by default. Tests give one that answers without a network. */
  resolve?: (host: string) => Promise<string[]>;
}

export type OutboundErrorReason =
  'bad_url' | 'private_address' | 'too_large' | 'timeout' | 'http_status' | 'network' | 'too_many_redirects';

/** Why a URL was not fetched. The message names the URL's host, never its path or query (they may carry a token). */
export class OutboundError extends Error {
  constructor(
    readonly reason: OutboundErrorReason,
    message: string,
    /** The HTTP status, for `http_status`. */
    readonly status?: number,
  ) {
    super(message);
    this.name = 'OutboundError';
  }
}

export interface GuardedResponse {
  /**
   * The body's bytes; it fails with an OutboundError (too_large, timeout, network) when the answer goes wrong.
   * Read it to its end or destroy it: an unread body holds its socket until the time limit.
   */
  body: Readable;
  contentType: string | undefined;
  /** The declared length of the body, when the server gave one. */
  contentLength: number | undefined;
  /** The URL that answered, after redirects. */
  finalUrl: string;
}

const DEFAULT_MAX_REDIRECTS = 3;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const REQUEST_HEADERS = { 'user-agent': 'realty-api (+feed import)', 'accept-encoding': 'identity', accept: '*/*' };

/**
 * Opens a GET of the URL under the policy: the body as a stream of bytes (status 200..299 required) and the
 * answer's content type. The time limit keeps running while the body is read: a body not read to its end in
 * time is destroyed with OutboundError('timeout').
 */
export async function openGuardedUrl(url: string, policy: OutboundPolicy): Promise<GuardedResponse> {
  const maxRedirects = policy.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  let current = parseOutboundUrl(url);
  // One deadline for the whole exchange: every step (resolution, request, body) gives up when it fires.
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new OutboundError('timeout', `${current.host} did not answer within ${policy.timeoutMs} ms`)),
    policy.timeoutMs,
  );
  try {
    for (let redirects = 0; ; redirects++) {
      const addresses = await checkedAddresses(current, policy, deadline.signal);
      const response = await sendRequest(current, addresses, deadline.signal, { method: 'GET', headers: REQUEST_HEADERS });
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location !== undefined) {
        discard(response);
        if (redirects >= maxRedirects) {
          throw new OutboundError('too_many_redirects', `${current.host} redirected more than ${maxRedirects} times`);
        }
        current = parseOutboundUrl(location, current);
        continue;
      }
      if (status < 200 || status > 299) {
        discard(response);
        throw new OutboundError('http_status', `${current.host} answered with HTTP status ${status}`, status);
      }
      const declaredLength = Number(response.headers['content-length']);
      if (declaredLength > policy.maxBytes) {
        discard(response);
        throw tooLarge(current, policy);
      }
      const body = countedBody(response, current, policy, deadline.signal);
      body.once('close', () => clearTimeout(timer));
      const contentLength = Number.isSafeInteger(declaredLength) && declaredLength >= 0 ? declaredLength : undefined;
      return { body, contentType: response.headers['content-type'], contentLength, finalUrl: current.href };
    }
  } catch (error) {
    clearTimeout(timer);
    // Whatever failed once the deadline fired (a destroyed socket, a late DNS answer) failed because of it.
    throw deadline.signal.aborted ? (deadline.signal.reason as OutboundError) : error;
  }
}

/** The whole body as a Buffer (for pictures), under the same policy. */
export async function fetchGuardedBytes(url: string, policy: OutboundPolicy): Promise<{ bytes: Buffer; contentType: string | undefined }> {
  const { body, contentType } = await openGuardedUrl(url, policy);
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return { bytes: Buffer.concat(chunks), contentType };
}

/** The URL, resolved against the one that redirected to it, if it is one the guard may fetch at all. */
function parseOutboundUrl(input: string, base?: URL): URL {
  let url: URL;
  try {
    url = new URL(input, base);
  } catch {
    // NOTE: the input is not quoted: it may carry a token, and it is not a URL anyway.
    throw new OutboundError('bad_url', base ? `${base.host} redirected to an address that is not a valid URL` : 'not a valid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new OutboundError('bad_url', `only http and https URLs are fetched, not ${url.protocol}`);
  }
  if (url.username !== '' || url.password !== '') {
    throw new OutboundError('bad_url', `the URL of ${url.host} carries a user name or password; give the URL without them`);
  }
  return url;
}

/** The host as a resolver and net.connect take it: an IPv6 literal without its URL brackets. */
function bareHost(url: URL): string {
  return url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
}

/** Compares host names as DNS does: case aside, and a final dot (the root) aside. */
function normalizeHost(host: string): string {
  const lower = host.toLowerCase();
  const bare = lower.startsWith('[') && lower.endsWith(']') ? lower.slice(1, -1) : lower;
  return bare.endsWith('.') ? bare.slice(0, -1) : bare;
}

/**
 * The addresses the request may connect to, every one of them checked. The host is resolved here, once, and
 * the socket connects to these addresses only (lookupPinnedTo): a second resolution by the HTTP client could
 * answer differently (DNS rebinding) and reach what was never checked. Empty for an IP literal, which the
 * client connects to without resolving.
 */
async function checkedAddresses(url: URL, policy: OutboundPolicy, signal: AbortSignal): Promise<LookupAddress[]> {
  const host = bareHost(url);
  const allowed = policy.allowedHosts.some((entry) => normalizeHost(entry) === normalizeHost(host));
  if (isIP(host) !== 0) {
    if (!allowed && isRefusedAddress(host)) throw privateAddress(url);
    return [];
  }
  let resolved: string[];
  try {
    resolved = await untilAborted((policy.resolve ?? resolveWithDns)(host), signal);
  } catch (error) {
    if (signal.aborted) throw signal.reason;
    throw new OutboundError('network', `${url.host} could not be resolved (${errorCode(error)})`);
  }
  if (resolved.length === 0) throw new OutboundError('network', `${url.host} resolves to no address`);
  // Every address, not the first only: the client may try any of them (happy eyeballs).
  if (!allowed && resolved.some(isRefusedAddress)) throw privateAddress(url);
  const addresses = resolved.flatMap((address) => {
    const family = isIP(address);
    return family === 0 ? [] : [{ address, family }];
  });
  if (addresses.length === 0) throw new OutboundError('network', `${url.host} resolves to no address`);
  return addresses;
}

async function resolveWithDns(host: string): Promise<string[]> {
  const answers = await dnsLookup(host, { all: true });
  return answers.map((answer) => answer.address);
}

/** A `lookup` for net.connect that answers with the checked addresses only, whatever the DNS says now. */
function lookupPinnedTo(addresses: readonly LookupAddress[]): LookupFunction {
  return (_hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    const usable = family === 4 || family === 6 ? addresses.filter((address) => address.family === family) : [...addresses];
    const first = usable[0];
    if (first === undefined) {
      callback(Object.assign(new Error(`no IPv${family} address`), { code: 'ENOTFOUND' }), '');
    } else if (options.all) {
      callback(null, usable);
    } else {
      callback(null, first.address, first.family);
    }
  };
}

/** What sendRequest sends: a GET of a feed, or a webhook's POST with its body. */
interface OutgoingRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

/**
 * Kept-alive connections for POSTs to user-given URLs (webhook deliveries): one agent per URL origin and set of
 * checked addresses, so that a pooled socket only ever leads to addresses this very check allowed (a changed DNS
 * answer is another key, and so a new connection, checked again). Every attempt still resolves and checks the
 * host (postGuarded); only the TCP (and TLS) handshake is saved. At most MAX_AGENTS origins are kept; the oldest is
 * closed past that. Idle sockets are closed after IDLE_SOCKET_MS, before the usual server keep-alive time-outs.
 */
export class KeptConnections {
  private static readonly MAX_AGENTS = 256;
  private static readonly IDLE_SOCKET_MS = 4_000;
  private readonly agents = new Map<string, http.Agent>();

  constructor(private readonly maxSocketsPerOrigin = 64) {}

  /** The agent of this URL's origin and checked addresses (made the first time). */
  agentFor(url: URL, addresses: readonly LookupAddress[]): http.Agent {
    const pinned = addresses.length > 0 ? addresses.map((address) => address.address).join(',') : bareHost(url);
    const key = `${url.protocol}//${url.host}|${pinned}`;
    let agent = this.agents.get(key);
    if (agent) {
      this.agents.delete(key); // re-inserted: the map's order is the order of last use
    } else {
      const options = {
        keepAlive: true,
        maxSockets: this.maxSocketsPerOrigin,
        maxFreeSockets: this.maxSocketsPerOrigin,
        timeout: KeptConnections.IDLE_SOCKET_MS,
        scheduling: 'lifo' as const,
      };
      agent = url.protocol === 'https:' ? new https.Agent(options) : new http.Agent(options);
      const oldest = this.agents.keys().next();
      if (this.agents.size >= KeptConnections.MAX_AGENTS && !oldest.done) {
        this.agents.get(oldest.value)?.destroy();
        this.agents.delete(oldest.value);
      }
    }
    this.agents.set(key, agent);
    return agent;
  }

  /** Closes every kept socket (at shutdown). */
  close(): void {
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
  }
}

/** A request that failed on a kept-alive socket before any answer: the server had closed it; worth one new try. */
class StaleSocketError extends Error {}

/** Sends the request and waits for the status line and headers. */
function sendRequest(
  url: URL,
  addresses: readonly LookupAddress[],
  signal: AbortSignal,
  outgoing: OutgoingRequest,
  agent: http.Agent | false = false,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? https : http).request({
      protocol: url.protocol,
      hostname: bareHost(url), // the Host header and the TLS server name stay the URL's name
      port: url.port === '' ? undefined : Number(url.port),
      path: `${url.pathname}${url.search}`,
      method: outgoing.method,
      headers: outgoing.headers,
      lookup: addresses.length > 0 ? lookupPinnedTo(addresses) : undefined,
      // No shared pool: a kept-alive socket of the global agent may lead to an address this request never checked
      // (opened by other code, or under another allow-list). Only KeptConnections' agents, keyed by the checked
      // addresses, are ever given.
      agent,
    });
    const onAbort = () => request.destroy(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    request.once('response', (response) => {
      signal.removeEventListener('abort', onAbort);
      resolve(response);
    });
    // NOTE: `on`, not `once`: a socket error may also reach the request after its response has come.
    request.on('error', (error) => {
      signal.removeEventListener('abort', onAbort);
      if (request.reusedSocket && !signal.aborted && !(error instanceof OutboundError)) return reject(new StaleSocketError());
      reject(
        error instanceof OutboundError ? error : new OutboundError('network', `${url.host} could not be reached (${errorCode(error)})`),
      );
    });
    request.end(outgoing.body);
  });
}

/** A POST's answer: whatever its status (a redirect is an answer too: it is never followed). */
export interface GuardedPostAnswer {
  status: number;
  /** The first `keepBytes` of the answer's body (UTF-8, possibly cut mid-character). */
  bodyStart: string;
}

/**
 * POSTs `body` to the URL under the policy, following no redirect (a webhook receiver that moved answers 3xx,
 * and that is its answer): the address is checked and pinned as for a GET, the whole exchange bounded by
 * `timeoutMs`, and only the first `keepBytes` of the answer read before the socket is closed. Fails with an
 * OutboundError (bad_url, private_address, timeout, network) when there is no answer to report.
 */
export async function postGuarded(
  url: string,
  request: { headers: Record<string, string>; body: string },
  policy: Pick<OutboundPolicy, 'allowedHosts' | 'timeoutMs' | 'resolve'>,
  keepBytes: number,
  /** Kept-alive connections to reuse (webhook deliveries); none: a new connection, closed after the answer. */
  connections?: KeptConnections,
): Promise<GuardedPostAnswer> {
  const target = parseOutboundUrl(url);
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new OutboundError('timeout', `${target.host} did not answer within ${policy.timeoutMs} ms`)),
    policy.timeoutMs,
  );
  try {
    const addresses = await checkedAddresses(target, { ...policy, maxBytes: 0 }, deadline.signal);
    const headers = { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)), 'accept-encoding': 'identity' };
    const outgoing = { method: 'POST' as const, headers, body: request.body };
    const agent = connections?.agentFor(target, addresses) ?? false;
    let response: IncomingMessage;
    try {
      response = await sendRequest(target, addresses, deadline.signal, outgoing, agent);
    } catch (error) {
      if (!(error instanceof StaleSocketError)) throw error;
      // The receiver had closed the kept socket: once more on a new connection, within the same deadline.
      response = await sendRequest(target, addresses, deadline.signal, outgoing, false);
    }
    const bodyStart = await firstBytes(response, keepBytes, deadline.signal);
    return { status: response.statusCode ?? 0, bodyStart };
  } catch (error) {
    throw deadline.signal.aborted ? (deadline.signal.reason as OutboundError) : error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Reads up to `limit` bytes of an answer, then closes it: a receiver's long answer is not waited for. An answer
 * that ended within the limit leaves its socket to its agent (kept alive when it is KeptConnections'); one cut
 * short, or longer than the limit, closes it.
 */
function firstBytes(response: IncomingMessage, limit: number, signal: AbortSignal): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let kept = 0;
    let done = false;
    const finish = (ended: boolean) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      if (!ended) discard(response);
      resolve(Buffer.concat(chunks).subarray(0, limit).toString('utf8'));
    };
    const onAbort = () => finish(false);
    signal.addEventListener('abort', onAbort, { once: true });
    response.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      kept += chunk.length;
      if (kept > limit) finish(false);
    });
    // The status came: a body cut short (or an error after it) still leaves an answer to report.
    response.once('end', () => finish(true));
    response.once('error', () => finish(false));
    response.once('close', () => finish(response.complete));
  });
}

/**
 * The response's bytes, counted: past maxBytes the stream fails with OutboundError('too_large') and the socket
 * is closed; a connection lost before the end fails it with 'network', the deadline with 'timeout'. Whoever
 * reads it may destroy it early: the socket closes with it.
 */
function countedBody(response: IncomingMessage, url: URL, policy: OutboundPolicy, signal: AbortSignal): Readable {
  let received = 0;
  const body = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > policy.maxBytes) callback(tooLarge(url, policy));
      else callback(null, chunk);
    },
  });
  const lost = () => new OutboundError('network', `${url.host} closed the connection before the end of the answer`);
  const onAbort = () => body.destroy(signal.reason as Error);
  signal.addEventListener('abort', onAbort, { once: true });
  response.on('error', () => body.destroy(lost()));
  response.once('close', () => {
    if (!response.complete) body.destroy(lost());
  });
  body.once('close', () => {
    signal.removeEventListener('abort', onAbort);
    response.destroy();
  });
  response.pipe(body);
  return body;
}

/** Closes an answer whose body is not wanted; an error it may still raise while closing has nobody to tell. */
function discard(response: IncomingMessage): void {
  response.on('error', () => {});
  response.destroy();
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    // Settles nothing once aborted, but keeps a late failure from being an unhandled rejection.
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

function privateAddress(url: URL): OutboundError {
  const what = isIP(bareHost(url)) === 0 ? 'resolves to' : 'is';
  return new OutboundError(
    'private_address',
    `${url.host} ${what} a private, loopback or otherwise non-public address; only a host on the allow-list may be reached there`,
  );
}

function tooLarge(url: URL, policy: OutboundPolicy): OutboundError {
  return new OutboundError('too_large', `the answer of ${url.host} is larger than ${policy.maxBytes} bytes`);
}

/** A system error's code (ECONNREFUSED, ENOTFOUND, CERT_HAS_EXPIRED…), else its message. */
function errorCode(error: unknown): string {
  if (error instanceof Error) return (error as NodeJS.ErrnoException).code ?? error.message;
  return String(error);
}
