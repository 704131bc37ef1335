import { hash } from 'node:crypto';
import { createGunzip } from 'node:zlib';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ifNoneMatch } from '../../../http/cache.js';
import type { Language } from '../../../i18n/index.js';
import { acceptsEncoding } from '../../../http/compressed-body.js';
import { SITE_LANGUAGES } from '../../paths.js';
import { PAGE_ROUTE } from '../../site-routes.js';
import { SHARD_KINDS, type ShardAnswer, type ShardKind, type SitemapAnswer, type Sitemaps } from './sitemaps.js';

export interface SeoDependencies {
  readonly sitemaps: Sitemaps;
  /** The text of /robots.txt (robots.ts). */
  readonly robots: string;
  /** The pages' caching (SITE_SHARED_MAX_AGE, SITE_STALE_WHILE_REVALIDATE): a CDN holds these documents as it holds pages. */
  readonly caching: { readonly sharedMaxAgeSeconds: number; readonly staleWhileRevalidateSeconds: number };
}

/** A record shard's name: `listings-<n>.xml`, the number written without leading zeros (one URL per shard). */
const SHARD_NAME = new RegExp(`^(${SHARD_KINDS.join('|')})-(0|[1-9][0-9]{0,8})\\.xml$`);

/**
 * What makes the site found (docs/site.md, "Search engines"): `/robots.txt`, the sitemap index `/sitemap.xml`
 * and its shards `/sitemaps/<lang>/<name>.xml`, outside the language prefixes. Each answer has an ETag (304 on a
 * matching revalidation) and the pages' Cache-Control; an unknown shard is the site's 404 page. A shard is sent
 * as its gzipped bytes to a client that takes gzip (every crawler), with Content-Encoding set so that
 * @fastify/compress leaves it alone, and unzipped as it is sent to one that does not.
 */
export function seoRoutes(app: FastifyInstance, { sitemaps, robots, caching }: SeoDependencies): void {
  const cacheControl = `public, max-age=0, s-maxage=${caching.sharedMaxAgeSeconds}, stale-while-revalidate=${caching.staleWhileRevalidateSeconds}`;
  const XML = 'application/xml; charset=utf-8';
  const robotsAnswer: SitemapAnswer = { etag: `W/"${hash('sha1', robots, 'base64url')}"`, body: robots };
  const send = (request: FastifyRequest, reply: FastifyReply, answer: SitemapAnswer, type: string) => {
    reply.headers({ etag: answer.etag, 'cache-control': cacheControl }).type(type);
    if (ifNoneMatch(request.headers['if-none-match'], answer.etag)) return reply.code(304).send();
    return reply.send(answer.body);
  };
  const sendShard = async (request: FastifyRequest, reply: FastifyReply, shard: ShardAnswer) => {
    reply.headers({ etag: shard.etag, 'cache-control': cacheControl, vary: 'Accept-Encoding' }).type(XML);
    if (ifNoneMatch(request.headers['if-none-match'], shard.etag)) return reply.code(304).send();
    const gzip = await shard.gzip();
    if (acceptsEncoding(request, 'gzip')) return reply.header('content-encoding', 'gzip').send(gzip);
    const identity = createGunzip();
    identity.end(gzip);
    return reply.send(identity);
  };

  app.get('/robots.txt', PAGE_ROUTE, (request, reply) => send(request, reply, robotsAnswer, 'text/plain; charset=utf-8'));
  app.get('/sitemap.xml', PAGE_ROUTE, async (request, reply) => send(request, reply, await sitemaps.index(), XML));
  app.get('/sitemaps/:lang/:name', PAGE_ROUTE, async (request, reply) => {
    const params = request.params as { lang: string; name: string };
    const lang = SITE_LANGUAGES.find((candidate) => candidate === params.lang) as Language | undefined;
    if (lang === undefined) return reply.callNotFound();
    if (params.name === 'pages.xml') return send(request, reply, await sitemaps.pages(lang), XML);
    const match = SHARD_NAME.exec(params.name);
    const shard = match ? await sitemaps.shard(lang, match[1] as ShardKind, Number(match[2])) : null;
    if (!shard) return reply.callNotFound();
    return sendShard(request, reply, shard);
  });
}
