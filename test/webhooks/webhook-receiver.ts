import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a receiver got. */
export interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A webhook receiver on 127.0.0.1. Each path answers by its rule: `/ok` 200; `/flaky` 500 for its first
 * `failures` requests, then 200; `/redirect` 302 to `/ok`; `/fail…` 503; `/nul` 200 with NUL bytes in its answer; `/gone` 410. Every request is kept, in arrival order.
 */
export async function webhookReceiver(options: { failures?: number } = {}) {
  const received: Received[] = [];
  let failuresLeft = options.failures ?? 0;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const path = request.url ?? '';
      received.push({ path, headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (path === '/flaky' && failuresLeft > 0) {
        failuresLeft--;
        response.statusCode = 500;
        return response.end('not now');
      }
      if (path === '/redirect') {
        response.writeHead(302, { location: '/ok' });
        return response.end();
      }
      if (path.startsWith('/fail')) {
        response.statusCode = 503;
        return response.end('down');
      }
      if (path === '/nul') {
        return response.end(Buffer.from('ok\u0000\u0000 then more', 'utf8'));
      }
      if (path === '/gone') {
        response.statusCode = 410;
        return response.end();
      }
      response.end('thanks');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    received,
    /** The requests one path got, as parsed bodies. */
    bodiesAt: (path: string) => received.filter((r) => r.path === path).map((r) => JSON.parse(r.body) as WebhookBody),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

interface WebhookBody {
  id: string;
  type: string;
  timestamp: string;
  sequence: number;
  data: {
    id: number;
    record: { id: number; status: string; title: string } | null;
    from?: string;
    to?: string;
    changed_fields?: string[] | null;
  };
}

/** A receiver's check, as docs/webhooks.md shows it: one of the `v1,` signatures matches the secret. */
export function hasValidSignature(request: Received, secret: string): boolean {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest();
  return String(request.headers['webhook-signature'])
    .split(' ')
    .some((part) => {
      const [version, signature] = part.split(',');
      const given = Buffer.from(signature ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}
