import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, type BrotliOptions, constants, gunzipSync, gzip, gzipSync, type ZlibOptions } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * A body kept in the forms it is sent in, made once, so that serving it again costs no compression. A body worth
 * compressing keeps its two compressed forms only: browsers and crawlers all take one of them, and the rare client
 * that takes neither gets the gzip form inflated (~0.1 ms for a page), which keeps a cached page at a third of the
 * memory it would take with its plain bytes beside it.
 */
export type CompressedBody =
  { readonly kind: 'plain'; readonly identity: Buffer } | { readonly kind: 'compressed'; readonly gzip: Buffer; readonly br: Buffer };

/** Smaller bodies are sent as they are: compressing them saves less than the header costs. */
const MIN_COMPRESSED_BYTES = 1024;

const GZIP: ZlibOptions = { level: 6 };
/** Quality 5 compresses HTML and feeds nearly as well as 11 at a small part of the cost. */
const brotliOptions = (identity: Buffer): BrotliOptions => ({
  params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
});

/** Compresses on the calling thread: for bodies of a page's size. */
export function compressBody(identity: Buffer): CompressedBody {
  if (identity.length < MIN_COMPRESSED_BYTES) return { kind: 'plain', identity };
  return { kind: 'compressed', gzip: gzipSync(identity, GZIP), br: brotliCompressSync(identity, brotliOptions(identity)) };
}

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/** As compressBody, on libuv's thread pool: for bodies of megabytes (a feed), whose compression would hold up other requests. */
export async function compressBodyOffThread(identity: Buffer): Promise<CompressedBody> {
  if (identity.length < MIN_COMPRESSED_BYTES) return { kind: 'plain', identity };
  const [gzipped, br] = await Promise.all([gzipAsync(identity, GZIP), brotliAsync(identity, brotliOptions(identity))]);
  return { kind: 'compressed', gzip: gzipped, br };
}

/** The memory a body holds. */
export function bytesOf(body: CompressedBody): number {
  return body.kind === 'plain' ? body.identity.length : body.gzip.length + body.br.length;
}

/** Sends the best form the client accepts (brotli, then gzip), with Content-Encoding and `Vary: Accept-Encoding`. */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: CompressedBody): FastifyReply {
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (body.kind === 'plain') return reply.send(body.identity);
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  if (accepted.has('br')) return reply.header('content-encoding', 'br').send(body.br);
  if (accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(body.gzip);
  return reply.send(gunzipSync(body.gzip));
}

/** Whether the request's Accept-Encoding takes `coding` (a `q=0` refuses it). */
export function acceptsEncoding(request: FastifyRequest, coding: 'gzip' | 'br'): boolean {
  return acceptedEncodings(request.headers['accept-encoding']).has(coding);
}

/** The codings an Accept-Encoding header accepts (a `q=0` refuses one). */
function acceptedEncodings(header: string | string[] | undefined): Set<string> {
  const accepted = new Set<string>();
  for (const part of String(header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (name && (q === undefined || Number(q.slice(2)) > 0)) accepted.add(name);
  }
  return accepted;
}
