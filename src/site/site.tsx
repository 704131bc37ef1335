import { hash } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { renderToString } from 'preact-render-to-string';
import { ifNoneMatch, PRIVATE_REVALIDATE } from '../http/cache.js';
import { sendMovedPermanently, toAppError } from '../http/error-handler.js';
import { translate, type Language } from '../i18n/index.js';
import { AppError } from '../lib/errors.js';
import { VersionedLruCache } from '../lib/versioned-lru-cache.js';
import type { AuthUser } from '../lib/signed-in-user.js';
import type { SiteAssets } from './assets.js';
import type { BrandSource, SiteBrand } from './brand.js';
import { bytesOf, type CompressedBody, compressBody, sendCompressed } from '../http/compressed-body.js';
import { formattersFor } from './format.js';
import { isBotPost, isSameOriginPost } from './forms.js';
import { Document } from './layout/Document.js';
import { ErrorPage, errorTitle } from './layout/ErrorPage.js';
import { layoutText } from './layout/layout.text.js';
import type { PageContext, RenderedPage, SiteVisitor } from './page.js';
import { localPath, plainPathOf, withoutTrackingParams } from './paths.js';
import type { SiteSessions } from './session.js';
import type { SiteServices } from './site-services.js';

/** The cache stamps of the data pages show (db/cache-versions.ts), read as the services' caches read them. */
export interface StampReader {
  current(name: string): Promise<string>;
}

export interface SiteSettings {
  readonly publicUrl: string;
  readonly sharedMaxAgeSeconds: number;
  readonly staleWhileRevalidateSeconds: number;
  readonly pageCacheBytes: number;
  readonly tiles: { readonly url: string; readonly attribution: string };
  readonly consoleUrl: string | null;
  /** The API's base path (`/realty-api/v1` after API_PREFIX), for islands that read it. */
  readonly apiBase: string;
  /** The Content-Security-Policy of every page. */
  readonly csp: string;
  /** The API's per-address budgets (http/rate-limit.ts), for the forms' routes as `config.rateLimit`. */
  readonly rateLimits: { readonly auth: RateBudget; readonly forms: RateBudget };
  /** REGISTRATION_ENABLED: the sign-up page offers its form, or says registration is closed. */
  readonly registrationOpen: boolean;
}

interface RateBudget {
  readonly max: number;
  readonly timeWindow: number;
}

/** A rendered public page, as sent: its status, its body in each encoding and its ETag. */
interface CachedPage {
  readonly status: number;
  readonly body: CompressedBody;
  readonly etag: string;
  /** The listing a listing page shows, whose view a cached answer still counts. */
  readonly listingId?: number;
}

/** The stamps whose data public pages show: a page rendered under other stamps may be out of date. */
const PAGE_STAMPS = ['listings', 'terms', 'directory', 'reviews'] as const;

/**
 * The website's runtime (docs/site.md): builds each page's context (language, brand, visitor), renders pages to
 * HTML and sends them with their caching headers, keeping what anonymous visitors get in memory while its data
 * holds. A page is a pure function of its data and the context; a route gathers the data through the services.
 */
export class Site {
  /** What anonymous visitors get, by language and URL, while the data it shows holds. */
  private readonly cache: VersionedLruCache<CachedPage>;

  constructor(
    readonly services: SiteServices,
    readonly sessions: SiteSessions,
    readonly assets: SiteAssets,
    private readonly brands: BrandSource,
    private readonly stamps: StampReader,
    readonly settings: SiteSettings,
  ) {
    // One page never crowds out most of the others.
    this.cache = new VersionedLruCache(settings.pageCacheBytes, (page: CachedPage) => bytesOf(page.body), settings.pageCacheBytes / 8);
  }

  /**
   * Answers a GET with a page. Anonymous visitors share one rendering per URL while the data it shows holds (its
   * version: the brand and the stamps), revalidated by ETag; a signed-in visitor's page is rendered for them alone.
   */
  async page(request: FastifyRequest, reply: FastifyReply, lang: Language, render: (ctx: PageContext) => Promise<RenderedPage>) {
    const { brand, version: brandVersion } = await this.brands.current();
    const visitor = await this.visitorOf(request, reply);
    const ctx = this.context(request, lang, brand, brandVersion, visitor);
    this.pageHeaders(reply, visitor !== null || this.sessions.hasCookie(request));
    if (visitor) {
      const page = await render(ctx);
      if (page.listingId !== undefined) this.services.views.count(page.listingId, `user:${visitor.caller.id}`);
      return this.send(request, reply, this.rendered(ctx, page));
    }

    const version = `${brandVersion}/${(await Promise.all(PAGE_STAMPS.map((name) => this.stamps.current(name)))).join('/')}`;
    const key = `${lang} ${withoutTrackingParams(request.url)}`;
    const cached = this.cache.get(key, version);
    if (cached) {
      if (cached.listingId !== undefined) this.services.views.count(cached.listingId, `ip:${request.ip}`);
      return this.send(request, reply, cached);
    }
    const page = await render(ctx);
    const rendered = this.rendered(ctx, page);
    if (rendered.status === 200) this.cache.set(key, version, rendered);
    if (page.listingId !== undefined) this.services.views.count(page.listingId, `ip:${request.ip}`);
    return this.send(request, reply, rendered);
  }

  /** Renders a page for a POST that did not succeed (a form with its errors): never cached. */
  async formPage(request: FastifyRequest, reply: FastifyReply, lang: Language, page: (ctx: PageContext) => RenderedPage) {
    const { brand, version } = await this.brands.current();
    const visitor = await this.visitorOf(request, reply);
    const ctx = this.context(request, lang, brand, version, visitor);
    this.pageHeaders(reply, true);
    return this.send(request, reply, this.rendered(ctx, page(ctx)));
  }

  /**
   * The checks every form post passes before its own: sent by a page of this site (forms.ts), and, from a
   * signed-in visitor, carrying their CSRF token (a `csrf` field) — either failing is a 403. Answers the caller
   * (null when anonymous) and whether the honeypot was filled: a bot's post is then answered as if it had
   * succeeded, and nothing is done.
   */
  async checkPost(request: FastifyRequest, reply: FastifyReply): Promise<{ caller: AuthUser | null; isBot: boolean }> {
    if (!isSameOriginPost(request, [new URL(this.settings.publicUrl).origin])) throw new AppError('forbidden');
    const body = (request.body ?? {}) as Record<string, unknown>;
    const caller = await this.callerOf(request, reply);
    if (caller && !this.sessions.checkCsrf(caller, body.csrf)) throw new AppError('forbidden');
    return { caller, isBot: isBotPost(body) };
  }

  /** The answer to a successful post: 303 to the page that shows its result (post-redirect-get). */
  seeOther(reply: FastifyReply, lang: Language, plainPath: string): FastifyReply {
    return reply.code(303).header('cache-control', 'no-store').redirect(localPath(lang, plainPath), 303);
  }

  /** The signed-in visitor of a request; a cookie naming no live session is deleted. */
  async callerOf(request: FastifyRequest, reply: FastifyReply): Promise<AuthUser | null> {
    const caller = await this.sessions.callerOf(request);
    if (!caller && this.sessions.hasCookie(request)) this.sessions.clear(reply);
    return caller;
  }

  /** The site's answer to an error inside its pages: the error page in the page's language, with the error's status. */
  async errorPage(error: FastifyError, request: FastifyRequest, reply: FastifyReply, lang: Language) {
    const appError = toAppError(error, request);
    if (appError.status >= 500) request.log.error({ err: error }, 'page failed');
    if (appError.code === 'rate_limited' && appError.messageParams.seconds !== undefined) {
      reply.header('retry-after', String(appError.messageParams.seconds));
    }
    if (appError.status === 404) {
      const location = await this.oldAddressOf(request);
      if (location !== undefined) return sendMovedPermanently(reply, location, this.settings.sharedMaxAgeSeconds);
    }
    const message = translate(lang, appError.messageKey, { ...appError.messageParams, request_id: request.id });
    return this.safely(request, reply, lang, appError.status, message);
  }

  /**
   * Where a page that would be a 404 (`/property/old-slug` of a site the listings came from) sends a GET instead: an
   * old address an import kept (modules/exchange/redirects). A failure to look is the 404 it would have been.
   */
  private async oldAddressOf(request: FastifyRequest): Promise<string | undefined> {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    try {
      return await this.services.redirects.locationFor(request.url);
    } catch (error) {
      request.log.error({ err: error }, 'redirect lookup failed');
      return undefined;
    }
  }

  /** The 404 page of a path no route of the site knows. */
  async notFoundPage(request: FastifyRequest, reply: FastifyReply, lang: Language) {
    return this.safely(request, reply, lang, 404, layoutText[lang].not_found_text);
  }

  /** The error page; if even that fails (the database is down), a plain-text line. */
  private async safely(request: FastifyRequest, reply: FastifyReply, lang: Language, status: number, message: string) {
    try {
      const { brand, version } = await this.brands.current();
      const visitor = await this.visitorOf(request, reply).catch(() => null);
      const ctx = this.context(request, lang, brand, version, visitor);
      this.pageHeaders(reply, true);
      const page = {
        status,
        meta: { title: errorTitle(lang, status), description: message, canonical: null },
        body: <ErrorPage ctx={ctx} status={status} message={message} requestId={request.id} />,
      };
      return this.send(request, reply, this.rendered(ctx, page));
    } catch (error) {
      request.log.error({ err: error }, 'error page failed');
      return reply.code(status).type('text/plain; charset=utf-8').send(`${status} ${layoutText[lang].error_title}`);
    }
  }

  private async visitorOf(request: FastifyRequest, reply: FastifyReply): Promise<SiteVisitor | null> {
    const caller = await this.callerOf(request, reply);
    if (!caller) return null;
    const account = await this.services.users.findAccount(caller.id);
    if (!account) return null;
    return { caller, displayName: account.display_name, csrfToken: this.sessions.csrfToken(caller), isStaff: caller.role !== 'buyer' };
  }

  private context(
    request: FastifyRequest,
    lang: Language,
    brand: SiteBrand,
    brandVersion: string,
    visitor: SiteVisitor | null,
  ): PageContext {
    return {
      lang,
      dir: lang === 'ar' ? 'rtl' : 'ltr',
      brand,
      visitor,
      format: formattersFor(lang),
      publicUrl: this.settings.publicUrl,
      plainPath: plainPathOf(withoutTrackingParams(request.url), lang),
      path: (plain) => localPath(lang, plain),
      asset: (name) => this.assets.url(name),
      brandStylesheet: `/site-assets/brand.css?v=${encodeURIComponent(brandVersion)}`,
      tiles: this.settings.tiles,
      consoleUrl: this.settings.consoleUrl,
    };
  }

  private rendered(ctx: PageContext, page: RenderedPage) {
    const html = `<!DOCTYPE html>${renderToString(
      <Document ctx={ctx} meta={page.meta}>
        {page.body}
      </Document>,
    )}`;
    const identity = Buffer.from(html);
    return {
      status: page.status ?? 200,
      body: compressBody(identity),
      etag: `W/"${hash('sha1', identity, 'base64url')}"`,
      ...(page.listingId !== undefined ? { listingId: page.listingId } : {}),
    };
  }

  /** The headers of every page: its CSP, and caching that lets a CDN hold public pages briefly (docs/site.md). */
  private pageHeaders(reply: FastifyReply, personal: boolean): void {
    const { sharedMaxAgeSeconds, staleWhileRevalidateSeconds } = this.settings;
    reply.headers({
      'content-security-policy': this.settings.csp,
      'referrer-policy': 'strict-origin-when-cross-origin',
      'cache-control': personal
        ? PRIVATE_REVALIDATE
        : `public, max-age=0, s-maxage=${sharedMaxAgeSeconds}, stale-while-revalidate=${staleWhileRevalidateSeconds}`,
      vary: 'Cookie',
    });
  }

  private send(request: FastifyRequest, reply: FastifyReply, page: { status: number; etag: string; body: CompressedBody }) {
    reply.header('etag', page.etag).type('text/html; charset=utf-8');
    if (page.status === 200 && ifNoneMatch(request.headers['if-none-match'], page.etag)) return reply.code(304).send();
    return sendCompressed(request, reply.code(page.status), page.body);
  }
}
