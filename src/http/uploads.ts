import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { IMMUTABLE_CACHE_CONTROL } from '../adapters/storage/storage.js';

/** A stored key as the media module makes them (`2026/11/<hex>-medium.jpg`): lower-case segments, no dot-files. */
const STORED_FILE = /^\/uploads\/(?:[a-z0-9][a-z0-9_-]*\/)*[a-z0-9][a-z0-9_-]*\.[a-z0-9]+$/;

const UPLOAD_HEADERS = {
  'cache-control': IMMUTABLE_CACHE_CONTROL,
  'x-content-type-options': 'nosniff',
  // Defence in depth for a file that is also valid HTML or script (a polyglot): never run as a page.
  'content-security-policy': "default-src 'none'; sandbox",
  // Web clients on other origins show these images; the API's same-origin policy would block them.
  'cross-origin-resource-policy': 'cross-origin',
};

/**
 * Serves local uploads (disk storage) at `/uploads/<key>`, outside the API prefix. Anything that is not
 * the plain form of a stored key (traversal, encoded dots, directories, dot-files) is answered like an
 * unknown file: 404 with the contract's body. No directory listings.
 */
export async function registerUploadsRoute(app: FastifyInstance, dir: string): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRequest', (request, reply, done) => {
      const path = request.url.split('?')[0] ?? '';
      if (STORED_FILE.test(path)) done();
      else reply.callNotFound();
    });
    await scope.register(fastifyStatic, {
      root: dir,
      prefix: '/uploads/',
      decorateReply: false,
      list: false,
      index: false,
      dotfiles: 'ignore',
      cacheControl: false,
      // The directory appears with the first upload (disk-storage.ts); until then every file is a 404.
      suppressWarning: true,
      setHeaders: (reply) => {
        reply.headers(UPLOAD_HEADERS);
      },
    });
  });
}
