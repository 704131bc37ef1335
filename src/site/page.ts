import type { VNode } from 'preact';
import type { Language } from '../i18n/index.js';
import type { AuthUser } from '../lib/signed-in-user.js';
import type { AssetName } from './assets.js';
import type { SiteBrand } from './brand.js';
import type { Formatters } from './format.js';

/** The signed-in visitor as pages show them. */
export interface SiteVisitor {
  readonly caller: AuthUser;
  readonly displayName: string;
  /** The token every signed-in form posts back (session.ts). */
  readonly csrfToken: string;
  /** Staff reach the console from the header. */
  readonly isStaff: boolean;
}

/** What every page is rendered with besides its own data: pure values, no services. */
export interface PageContext {
  readonly lang: Language;
  readonly dir: 'ltr' | 'rtl';
  readonly brand: SiteBrand;
  readonly visitor: SiteVisitor | null;
  readonly format: Formatters;
  /** PUBLIC_URL: the base of canonical and shared URLs. */
  readonly publicUrl: string;
  /** The request's path and query without the language prefix: the language switch keeps the visitor here. */
  readonly plainPath: string;
  /** This language's path of a plain path (`/property/x` → `/es/property/x`). */
  path(plain: string): string;
  asset(name: AssetName): string;
  /** The brand colours' stylesheet, versioned with the brand. */
  readonly brandStylesheet: string;
  /** The map tiles (CONSOLE_TILE_URL) and their credit line, for the map islands. */
  readonly tiles: { readonly url: string; readonly attribution: string };
  /** The console's address, when it is served. */
  readonly consoleUrl: string | null;
}

export interface SocialImage {
  readonly url: string;
  readonly width?: number | null;
  readonly height?: number | null;
  readonly alt: string;
}

/** What a page tells the document's head: the words search engines and link previews read. */
export interface PageMeta {
  readonly title: string;
  readonly description: string;
  /**
   * The plain path (and query) the page is canonical at, and which its hreflang alternates name in each language;
   * null for pages that are not to be indexed at all.
   */
  readonly canonical: string | null;
  /** `noindex` keeps the page out of search engines (sign-in, account, filtered results); links are still followed. */
  readonly noindex?: boolean;
  readonly image?: SocialImage | null;
  /** `og:type`: `website` unless the page says otherwise. */
  readonly ogType?: string;
  /** JSON-LD objects, each written in a `<script type="application/ld+json">` (data, not script: CSP allows it). */
  readonly jsonLd?: readonly object[];
  /** The islands the page loads, as module scripts. */
  readonly scripts?: readonly AssetName[];
  /** Extra stylesheets (Leaflet's, for a page with a map). */
  readonly styles?: readonly AssetName[];
  /** A picture to fetch first (the listing's first photo): `<link rel="preload">` with its srcset. */
  readonly preloadImage?: { readonly href: string; readonly srcset: string; readonly sizes: string } | null;
}

/** A page as a route renders it: its status, its head and its body. */
export interface RenderedPage {
  readonly status?: number;
  readonly meta: PageMeta;
  readonly body: VNode;
  /** The listing a listing page shows: its view is counted even when the page comes from the cache. */
  readonly listingId?: number;
}
