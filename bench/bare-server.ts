/**
 * The baseline: a bare Fastify server (no plugins, no logger) on 127.0.0.1:$PORT. GET or POST /bare/<i> answers with
 * the i-th string of the JSON array in the file named by the first argument: the real responses of the
 * scenarios, so that each bare body has the size of its real one. Sent as ready UTF-8 bytes, the cheapest
 * way to send a body, as the API sends its cached answers. An entry may be `{ base64, type, encoding? }` instead:
 * the very bytes of an answer that is not JSON (the website suite's pages and sitemap shards), sent with its own
 * Content-Type and, for bytes the server sent compressed, its Content-Encoding.
 */
import fs from 'node:fs';
import Fastify from 'fastify';

const bodiesFile = process.argv[2];
if (!bodiesFile) throw new Error('usage: bare-server.ts <bodies.json>');
const entries = JSON.parse(fs.readFileSync(bodiesFile, 'utf8')) as (string | { base64: string; type: string; encoding?: string })[];
const bodies = entries.map((entry) =>
  typeof entry === 'string'
    ? { bytes: Buffer.from(entry), type: 'application/json; charset=utf-8', headers: {} }
    : {
        bytes: Buffer.from(entry.base64, 'base64'),
        type: entry.type,
        headers: entry.encoding ? { 'content-encoding': entry.encoding, vary: 'Accept-Encoding' } : {},
      },
);

const app = Fastify({ logger: false });
bodies.forEach(({ bytes, type, headers }, index) => {
  app.route({
    method: ['GET', 'POST'],
    url: `/bare/${index}`,
    handler: async (_request, reply) => reply.headers(headers).type(type).send(bytes),
  });
});
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
