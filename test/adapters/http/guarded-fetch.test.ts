import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  fetchGuardedBytes,
  KeptConnections,
  openGuardedUrl,
  OutboundError,
  type OutboundErrorReason,
  type OutboundPolicy,
  postGuarded,
} from '../../../src/adapters/http/guarded-fetch.js';

// A local server stands for the feeds and pictures on the internet (this machine has none): reached only by
// allowing its host, which is also what these tests check. Addresses the guard refuses are never connected to.
const FEED = '<feed><listing id="1"/></feed>';
let server: http.Server;
let server6: http.Server | undefined;
let port: number;
let base: string;
/** The Host header of each request the server received, in order. */
const hosts: string[] = [];
/** For each silent or stalled request, in order of arrival: resolves when the server sees its socket close. */
const stalledSockets: Promise<void>[] = [];

/**
 * Runs `exchange`, which must make exactly one silent or stalled request, then waits for the server to see that
 * request's socket close (the test times out if it stays open).
 */
async function closesItsSocket(exchange: () => Promise<void>): Promise<void> {
  const before = stalledSockets.length;
  await exchange();
  expect(stalledSockets).toHaveLength(before + 1);
  await stalledSockets.at(-1);
}

function route(request: IncomingMessage, response: ServerResponse): void {
  hosts.push(request.headers.host ?? '');
  const url = new URL(request.url ?? '/', 'http://server');
  const redirect = (location: string): void => void response.writeHead(302, { location }).end();
  const match = /^\/chain\/(\d+)$/.exec(url.pathname);
  if (match) {
    const left = Number(match[1]);
    return left === 0 ? void response.end('end of chain') : redirect(`/chain/${left - 1}`);
  }
  switch (url.pathname) {
    case '/feed':
      return void response.writeHead(200, { 'content-type': 'application/xml' }).end(FEED);
    case '/headers':
      return void response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(request.headers));
    case '/redirect':
      return redirect(url.searchParams.get('to') ?? '/');
    case '/dir/relative':
      return redirect('../feed');
    case '/loop':
      return redirect('/loop');
    case '/declared':
      return void response
        .writeHead(200, { 'content-length': url.searchParams.get('n') ?? '0' })
        .end('x'.repeat(Number(url.searchParams.get('n'))));
    case '/chunked': {
      // Without Content-Length: the body comes in 100-byte chunks until n bytes.
      response.writeHead(200, { 'content-type': 'application/octet-stream' });
      const n = Number(url.searchParams.get('n'));
      for (let sent = 0; sent < n; sent += 100) response.write(Buffer.alloc(Math.min(100, n - sent), 0x61));
      return void response.end();
    }
    case '/silent':
    case '/stall':
      stalledSockets.push(new Promise((resolve) => request.socket.once('close', () => resolve())));
      if (url.pathname === '/stall') response.writeHead(200).write('partial');
      return;
    case '/cut':
      response.writeHead(200, { 'content-length': '100' }).write('only ten b');
      return void setTimeout(() => request.socket.destroy(), 20);
    case '/error':
      return void response.writeHead(500).end('failed');
    default:
      return void response.writeHead(404).end('not found');
  }
}

function listen(target: http.Server, listenPort: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    target.once('error', reject);
    target.listen(listenPort, host, () => resolve());
  });
}

beforeAll(async () => {
  server = http.createServer(route);
  await listen(server, 0, '127.0.0.1');
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
  // The same routes on IPv6 loopback, same port, where the machine has it: `localhost` may resolve to ::1 first.
  const candidate = http.createServer(route);
  server6 = await listen(candidate, port, '::1').then(
    () => candidate,
    () => undefined,
  );
});

afterAll(async () => {
  for (const target of [server, server6]) {
    if (!target) continue;
    target.closeAllConnections();
    await new Promise((resolve) => target.close(resolve));
  }
});

function policy(overrides: Partial<OutboundPolicy> = {}): OutboundPolicy {
  return { allowedHosts: ['127.0.0.1'], maxBytes: 10_000, timeoutMs: 5_000, ...overrides };
}

/** The OutboundError a promise fails with (the test fails if it succeeds or fails otherwise). */
async function failure(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

async function reason(promise: Promise<unknown>): Promise<OutboundErrorReason> {
  return (await failure(promise)).reason;
}

async function text(body: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('openGuardedUrl and fetchGuardedBytes on an allowed host', () => {
  it('streams the body and gives the content type and final URL', async () => {
    const answer = await openGuardedUrl(`${base}/feed`, policy());
    expect(answer.contentType).toBe('application/xml');
    expect(answer.finalUrl).toBe(`${base}/feed`);
    expect(await text(answer.body)).toBe(FEED);
  });

  it('fetches the bytes', async () => {
    const { bytes, contentType } = await fetchGuardedBytes(`${base}/feed`, policy());
    expect(bytes.toString('utf8')).toBe(FEED);
    expect(contentType).toBe('application/xml');
  });

  it('sends its user agent, asks for no compression, and keeps the host name in the Host header', async () => {
    const { bytes } = await fetchGuardedBytes(`http://localhost:${port}/headers`, policy({ allowedHosts: ['localhost'] }));
    expect(JSON.parse(bytes.toString('utf8'))).toMatchObject({
      'user-agent': 'realty-api (+feed import)',
      'accept-encoding': 'identity',
      host: `localhost:${port}`,
    });
  });

  it('reaches an IP literal in any form the URL parser normalizes (decimal, hex) when its address is allowed', async () => {
    for (const url of [`http://2130706433:${port}/feed`, `http://0x7f.1:${port}/feed`]) {
      const answer = await fetchGuardedBytes(url, policy());
      expect(answer.bytes.toString('utf8')).toBe(FEED);
    }
  });

  it('reaches bracketed IPv6 loopback when allowed', async (context) => {
    if (!server6) context.skip('no IPv6 loopback on this machine');
    const { bytes } = await fetchGuardedBytes(`http://[::1]:${port}/feed`, policy({ allowedHosts: ['::1'] }));
    expect(bytes.toString('utf8')).toBe(FEED);
  });
});

describe('refused addresses', () => {
  it('refuses the local server when its host is not allowed, by every spelling of it', async () => {
    const urls = [
      `${base}/feed`,
      `http://localhost:${port}/feed`,
      `http://2130706433:${port}/feed`,
      `http://0x7f.1:${port}/feed`,
      `http://0177.0.0.1:${port}/feed`,
      `http://127.1:${port}/feed`,
      `http://0:${port}/feed`,
      `http://[::1]:${port}/feed`,
      `http://[::ffff:127.0.0.1]:${port}/feed`,
      `https://127.0.0.1:${port}/feed`,
    ];
    const requestsBefore = hosts.length;
    for (const url of urls) expect(await reason(openGuardedUrl(url, policy({ allowedHosts: [] }))), url).toBe('private_address');
    expect(hosts).toHaveLength(requestsBefore);
  });

  it('names the host in the message, never the path or query', async () => {
    const refused = await failure(openGuardedUrl(`http://localhost:${port}/feed?token=s3cret`, policy({ allowedHosts: [] })));
    expect(refused.message).toContain(`localhost:${port}`);
    expect(refused.message).not.toMatch(/s3cret|\/feed/);
    const missing = await failure(openGuardedUrl(`${base}/missing?token=s3cret`, policy()));
    expect(missing.message).toContain(`127.0.0.1:${port}`);
    expect(missing.message).not.toMatch(/s3cret|missing/);
  });
});

describe('host resolution (an injected resolver, no network)', () => {
  it('refuses a host when any of its addresses is refused', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => (asked.push(host), ['8.8.8.8', '10.0.0.1']);
    expect(await reason(openGuardedUrl('https://feed.example/feed.xml', policy({ allowedHosts: [], resolve })))).toBe('private_address');
    expect(asked).toEqual(['feed.example']);
    const mapped = async () => ['2606:4700::1111', '::ffff:169.254.169.254'];
    expect(await reason(openGuardedUrl('https://feed.example/', policy({ allowedHosts: [], resolve: mapped })))).toBe('private_address');
  });

  it('connects to the address it checked, not to a second resolution, keeping the name in the Host header', async () => {
    // `feed.test` resolves nowhere but in this resolver: the answer proves the socket went to its address.
    let calls = 0;
    const resolve = async () => (calls++, ['127.0.0.1']);
    const answer = await fetchGuardedBytes(`http://FEED.test.:${port}/headers`, policy({ allowedHosts: ['Feed.Test'], resolve }));
    expect(JSON.parse(answer.bytes.toString('utf8'))).toMatchObject({ host: `feed.test.:${port}` });
    expect(calls).toBe(1);
  });

  it('resolves again at each redirect', async () => {
    const asked: string[] = [];
    const resolve = async (host: string) => (asked.push(host), ['127.0.0.1']);
    const to = encodeURIComponent(`http://pictures.test:${port}/feed`);
    const answer = await fetchGuardedBytes(
      `http://feed.test:${port}/redirect?to=${to}`,
      policy({ allowedHosts: ['feed.test', 'pictures.test'], resolve }),
    );
    expect(answer.bytes.toString('utf8')).toBe(FEED);
    expect(asked).toEqual(['feed.test', 'pictures.test']);
  });

  it('fails with network when the host resolves to nothing or not at all', async () => {
    expect(await reason(openGuardedUrl('https://feed.example/', policy({ resolve: async () => [] })))).toBe('network');
    const notFound = async () => Promise.reject(Object.assign(new Error('getaddrinfo ENOTFOUND'), { code: 'ENOTFOUND' }));
    const error = await failure(openGuardedUrl('https://feed.example/', policy({ resolve: notFound })));
    expect([error.reason, error.message]).toEqual(['network', 'feed.example could not be resolved (ENOTFOUND)']);
  });

  it('times out while resolving', async () => {
    const never = () => new Promise<string[]>(() => {});
    expect(await reason(openGuardedUrl('https://feed.example/', policy({ resolve: never, timeoutMs: 100 })))).toBe('timeout');
  });
});

describe('redirects', () => {
  it('refuses a redirect from an allowed host to a refused address', async () => {
    const to = encodeURIComponent(`http://127.0.0.2:${port}/feed`);
    const url = `http://localhost:${port}/redirect?to=${to}`;
    expect(await reason(openGuardedUrl(url, policy({ allowedHosts: ['localhost'] })))).toBe('private_address');
  });

  it('follows a relative redirect against the current URL', async () => {
    const answer = await openGuardedUrl(`${base}/dir/relative`, policy());
    expect(answer.finalUrl).toBe(`${base}/feed`);
    expect(await text(answer.body)).toBe(FEED);
  });

  it('follows three redirects by default, refuses the fourth, and follows maxRedirects', async () => {
    expect((await fetchGuardedBytes(`${base}/chain/3`, policy())).bytes.toString('utf8')).toBe('end of chain');
    expect(await reason(openGuardedUrl(`${base}/chain/4`, policy()))).toBe('too_many_redirects');
    expect(await reason(openGuardedUrl(`${base}/loop`, policy()))).toBe('too_many_redirects');
    expect(await reason(openGuardedUrl(`${base}/chain/1`, policy({ maxRedirects: 0 })))).toBe('too_many_redirects');
    expect((await fetchGuardedBytes(`${base}/chain/5`, policy({ maxRedirects: 5 }))).bytes.toString('utf8')).toBe('end of chain');
  });

  it('refuses a redirect to another scheme or to a URL with credentials', async () => {
    for (const to of ['ftp://127.0.0.1/feed', 'file:///etc/passwd', `http://user:pass@127.0.0.1:${port}/feed`]) {
      expect(await reason(openGuardedUrl(`${base}/redirect?to=${encodeURIComponent(to)}`, policy())), to).toBe('bad_url');
    }
  });
});

describe('limits and failures', () => {
  it('refuses a body whose Content-Length passes maxBytes before reading it, and takes one at the limit', async () => {
    expect(await reason(openGuardedUrl(`${base}/declared?n=101`, policy({ maxBytes: 100 })))).toBe('too_large');
    expect((await fetchGuardedBytes(`${base}/declared?n=100`, policy({ maxBytes: 100 }))).bytes).toHaveLength(100);
  });

  it('stops a body without length as soon as it passes maxBytes', async () => {
    const answer = await openGuardedUrl(`${base}/chunked?n=5000`, policy({ maxBytes: 1000 }));
    let read = 0;
    const error = await failure(
      (async () => {
        for await (const chunk of answer.body) read += (chunk as Buffer).length;
      })(),
    );
    expect(error.reason).toBe('too_large');
    expect(read).toBeLessThanOrEqual(1000);
    expect(await reason(fetchGuardedBytes(`${base}/chunked?n=1001`, policy({ maxBytes: 1000 })))).toBe('too_large');
    expect((await fetchGuardedBytes(`${base}/chunked?n=1000`, policy({ maxBytes: 1000 }))).bytes).toHaveLength(1000);
  });

  it('times out on a server that never answers, and closes the socket', async () => {
    await closesItsSocket(async () => {
      expect(await reason(openGuardedUrl(`${base}/silent`, policy({ timeoutMs: 200 })))).toBe('timeout');
    });
  });

  it('times out on a body that stops coming, the limit covering the whole exchange', async () => {
    await closesItsSocket(async () => {
      const answer = await openGuardedUrl(`${base}/stall`, policy({ timeoutMs: 300 }));
      expect(await reason(text(answer.body))).toBe('timeout');
    });
  });

  it('closes the socket when the reader destroys the body early', async () => {
    await closesItsSocket(async () => {
      const answer = await openGuardedUrl(`${base}/stall`, policy());
      expect(answer.body.destroyed).toBe(false);
      answer.body.destroy();
    });
  });

  it('fails with http_status and the status on an answer outside 2xx', async () => {
    const missing = await failure(openGuardedUrl(`${base}/missing`, policy()));
    expect([missing.reason, missing.status]).toEqual(['http_status', 404]);
    const failed = await failure(fetchGuardedBytes(`${base}/error`, policy()));
    expect([failed.reason, failed.status]).toEqual(['http_status', 500]);
  });

  it('fails with network when nothing listens or the connection drops mid-body', async () => {
    const closed = http.createServer();
    await listen(closed, 0, '127.0.0.1');
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    expect(await reason(openGuardedUrl(`http://127.0.0.1:${closedPort}/feed`, policy()))).toBe('network');
    expect(await reason(fetchGuardedBytes(`${base}/cut`, policy()))).toBe('network');
  });

  it('refuses URLs that are not plain http(s) before any connection', async () => {
    const urls = [
      'ftp://127.0.0.1/feed.xml',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/plain,hello',
      `http://user:pass@127.0.0.1:${port}/feed`,
      `http://user@127.0.0.1:${port}/feed`,
      'not a url',
      '',
      'http://',
      'http://exa mple.com/',
    ];
    for (const url of urls) expect(await reason(openGuardedUrl(url, policy())), url).toBe('bad_url');
  });
});

describe('postGuarded with kept-alive connections (webhook deliveries)', () => {
  /** A receiver that counts the connections it was given and the requests on each. */
  async function receiver(answer: (request: IncomingMessage, response: ServerResponse) => void = (_q, r) => void r.end('ok')) {
    const sockets: unknown[] = [];
    const target = http.createServer(answer);
    target.on('connection', (socket) => sockets.push(socket));
    await listen(target, 0, '127.0.0.1');
    const targetPort = (target.address() as AddressInfo).port;
    return {
      sockets,
      port: targetPort,
      close: async () => {
        target.closeAllConnections();
        await new Promise((resolve) => target.close(resolve));
      },
    };
  }
  const post = (url: string, connections: KeptConnections | undefined, overrides: Partial<OutboundPolicy> = {}) =>
    postGuarded(url, { headers: { 'content-type': 'application/json' }, body: '{}' }, policy(overrides), 256, connections);

  it('reuses one connection for attempts to the same checked address, and opens one per attempt without a pool', async () => {
    const target = await receiver();
    const connections = new KeptConnections(4);
    try {
      for (let i = 0; i < 5; i++) expect((await post(`http://127.0.0.1:${target.port}/hook`, connections)).status).toBe(200);
      expect(target.sockets).toHaveLength(1);
      for (let i = 0; i < 3; i++) await post(`http://127.0.0.1:${target.port}/hook`, undefined);
      expect(target.sockets).toHaveLength(4);
    } finally {
      connections.close();
      await target.close();
    }
  });

  it('checks the host at every attempt: a kept connection never reaches an address the guard now refuses', async () => {
    const target = await receiver();
    const connections = new KeptConnections(4);
    let answer = ['127.0.0.1'];
    const resolve = async () => answer;
    try {
      const url = `http://hook.example:${target.port}/hook`;
      expect((await post(url, connections, { allowedHosts: ['hook.example'], resolve })).status).toBe(200);
      // The name now resolves elsewhere, and the allow-list no longer holds it: refused before any request.
      answer = ['10.0.0.7'];
      expect(await reason(post(url, connections, { allowedHosts: [], resolve }))).toBe('private_address');
      expect(target.sockets).toHaveLength(1);
    } finally {
      connections.close();
      await target.close();
    }
  });

  it('tries once more on a new connection when the receiver drops a kept one as a request arrives on it', async () => {
    // Answers the first request of each connection; a second one on the same connection is dropped unanswered, as
    // a receiver whose keep-alive time ran out at that moment does.
    const served = new WeakSet<object>();
    const target = await receiver((request, response) => {
      if (served.has(request.socket)) return void request.socket.destroy();
      served.add(request.socket);
      response.end('ok');
    });
    const connections = new KeptConnections(4);
    try {
      expect((await post(`http://127.0.0.1:${target.port}/hook`, connections)).status).toBe(200);
      expect((await post(`http://127.0.0.1:${target.port}/hook`, connections)).status).toBe(200);
      expect(target.sockets).toHaveLength(2);
    } finally {
      connections.close();
      await target.close();
    }
  });

  it('closes the connection of an answer longer than what it keeps', async () => {
    const target = await receiver((_request, response) => void response.end('x'.repeat(10_000)));
    const connections = new KeptConnections(4);
    try {
      const first = await post(`http://127.0.0.1:${target.port}/hook`, connections);
      expect([first.status, first.bodyStart.length]).toEqual([200, 256]);
      await post(`http://127.0.0.1:${target.port}/hook`, connections);
      expect(target.sockets).toHaveLength(2);
    } finally {
      connections.close();
      await target.close();
    }
  });
});
