import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

/** A body kept with its compressed forms, made once, so that serving it again costs no compression. */
export interface CompressedBody {
  readonly identity: Buffer;
  readonly gzip: Buffer;
  readonly br: Buffer;
}

/** Smaller bodies are sent as they are: compressing them saves less than the header costs. */
const MIN_COMPRESSED_BYTES = 1024;

export function compressBody(identity: Buffer): CompressedBody {
  if (identity.length < MIN_COMPRESSED_BYTES) return { identity, gzip: identity, br: identity };
  return {
    identity,
    gzip: gzipSync(identity, { level: 6 }),
    // Quality 5 compresses HTML nearly as well as 11 at a small part of the cost.
    br: brotliCompressSync(identity, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: identity.length },
    }),
  };
}

/** Sends the best form the client accepts (brotli, then gzip), with Content-Encoding and `Vary: Accept-Encoding`. */
export function sendCompressed(request: FastifyRequest, reply: FastifyReply, body: CompressedBody): FastifyReply {
  const accepted = acceptedEncodings(request.headers['accept-encoding']);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
  if (body.br !== body.identity && accepted.has('br')) return reply.header('content-encoding', 'br').send(body.br);
  if (body.gzip !== body.identity && accepted.has('gzip')) return reply.header('content-encoding', 'gzip').send(body.gzip);
  return reply.send(body.identity);
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
