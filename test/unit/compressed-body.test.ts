import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bytesOf, compressBody, sendCompressed } from '../../src/http/compressed-body.js';

describe('a body kept compressed', () => {
  const app = Fastify();
  let current = compressBody(Buffer.alloc(0));
  beforeAll(async () => {
    app.get('/', (request, reply) => sendCompressed(request, reply, current));
    await app.ready();
  });
  afterAll(() => app.close());

  /** The body as a client that accepts `encoding` reads it, and the coding it was sent in. */
  async function read(encoding: string | undefined): Promise<{ text: string; coding: string | undefined }> {
    const res = await app.inject({ method: 'GET', url: '/', headers: encoding ? { 'accept-encoding': encoding } : {} });
    const coding = res.headers['content-encoding'] as string | undefined;
    const raw = res.rawPayload;
    const text = (coding === 'br' ? brotliDecompressSync(raw) : coding === 'gzip' ? gunzipSync(raw) : raw).toString();
    expect(res.headers.vary).toBe('Accept-Encoding');
    return { text, coding };
  }

  it('reads the same to every client, whatever codings it accepts', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 3000 }), async (text) => {
        current = compressBody(Buffer.from(text));
        for (const encoding of [undefined, 'gzip', 'br', 'gzip, br', 'br;q=0, gzip', 'identity', 'gzip;q=0, br;q=0'])
          expect((await read(encoding)).text).toBe(text);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps only the compressed forms of a page, and sends brotli first, then gzip, then the inflated bytes', async () => {
    const page = '<!doctype html><p>A bright villa with a garden.</p>'.repeat(200);
    current = compressBody(Buffer.from(page));
    expect(bytesOf(current)).toBeLessThan(Buffer.byteLength(page) / 4);
    expect((await read('gzip, deflate, br')).coding).toBe('br');
    expect((await read('gzip')).coding).toBe('gzip');
    expect(await read(undefined)).toEqual({ text: page, coding: undefined });
  });

  it('sends a small body as it is', async () => {
    current = compressBody(Buffer.from('<p>short</p>'));
    expect(await read('br')).toEqual({ text: '<p>short</p>', coding: undefined });
  });
});
