import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

interface FakeS3Object {
  body: Buffer;
  contentType: string | undefined;
  cacheControl: string | undefined;
}

export interface FakeS3 {
  /** Endpoint to give the SDK (path-style: `<url>/<bucket>/<key>`). */
  url: string;
  /** Stored objects by `<bucket>/<key>`. */
  objects: Map<string, FakeS3Object>;
  /** Every request, as `METHOD /path?query`. */
  requests: string[];
  /** Keys (`<bucket>/<key>`) that DeleteObjects reports as failed (AccessDenied) instead of deleting. */
  undeletable: Set<string>;
  close(): Promise<void>;
}

/**
 * A small S3-compatible server on 127.0.0.1 for tests: path-style PUT, GET, HEAD and DELETE of objects, and
 * DeleteObjects (`POST /<bucket>?delete`) with the XML the AWS SDK sends. Signatures are not checked.
 */
export async function startFakeS3(): Promise<FakeS3> {
  const objects = new Map<string, FakeS3Object>();
  const requests: string[] = [];
  const undeletable = new Set<string>();

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.statusCode = 500;
      response.end(String(error));
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://fake-s3');
    requests.push(`${request.method} ${url.pathname}${url.search}`);
    const [bucket = '', ...rest] = url.pathname.slice(1).split('/');
    const key = rest.map(decodeURIComponent).join('/');
    const id = `${decodeURIComponent(bucket)}/${key}`;
    const body = await readBody(request);

    if (request.method === 'POST' && key === '' && url.searchParams.has('delete')) {
      const keys = [...body.toString('utf8').matchAll(/<Key>([^<]*)<\/Key>/g)].map((m) => unescapeXml(m[1] ?? ''));
      const errors: string[] = [];
      for (const name of keys) {
        const full = `${decodeURIComponent(bucket)}/${name}`;
        if (undeletable.has(full))
          errors.push(`<Error><Key>${name}</Key><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`);
        else objects.delete(full);
      }
      return xml(response, 200, `<DeleteResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">${errors.join('')}</DeleteResult>`);
    }
    if (key === '') return xml(response, 400, '<Error><Code>InvalidRequest</Code></Error>');

    switch (request.method) {
      case 'PUT':
        objects.set(id, {
          body,
          contentType: header(request, 'content-type'),
          cacheControl: header(request, 'cache-control'),
        });
        response.writeHead(200, { etag: '"fake"' }).end();
        return;
      case 'GET':
      case 'HEAD': {
        const object = objects.get(id);
        if (!object) return xml(response, 404, `<Error><Code>NoSuchKey</Code><Key>${key}</Key></Error>`);
        response.writeHead(200, {
          'content-type': object.contentType ?? 'application/octet-stream',
          'content-length': object.body.length,
          ...(object.cacheControl ? { 'cache-control': object.cacheControl } : {}),
        });
        response.end(request.method === 'GET' ? object.body : undefined);
        return;
      }
      case 'DELETE':
        objects.delete(id);
        response.writeHead(204).end();
        return;
      default:
        xml(response, 405, '<Error><Code>MethodNotAllowed</Code></Error>');
    }
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    objects,
    requests,
    undeletable,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function header(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function xml(response: ServerResponse, status: number, content: string): void {
  response.writeHead(status, { 'content-type': 'application/xml' }).end(`<?xml version="1.0" encoding="UTF-8"?>${content}`);
}

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
