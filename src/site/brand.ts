/**
 * What an administrator sets so that the website is the agency's own (docs/site.md): its name, logo, colours,
 * contact details, hero picture and the home page's sections. The site reads it through a `BrandSource`, with a
 * version that changes when it does (the pages' caches and ETags follow it).
 */
export interface SiteBrand {
  readonly siteName: string;
  /** One line under the name on the home page's hero. */
  readonly tagline: string;
  readonly logoUrl: string | null;
  /** `#rrggbb` colours: the buttons, links and header (primary) and the highlights (accent). */
  readonly primaryColor: string;
  readonly accentColor: string;
  readonly contactEmail: string;
  readonly contactPhone: string;
  readonly contactAddress: string;
  readonly heroImageUrl: string | null;
  /** The home page's blocks, in order. */
  readonly homeSections: readonly HomeSection[];
}

export const HOME_SECTIONS = ['search', 'featured', 'newest', 'cities'] as const;
export type HomeSection = (typeof HOME_SECTIONS)[number];

export interface BrandSource {
  /** The brand as it is now, and a version that changes whenever it does. */
  current(): Promise<{ brand: SiteBrand; version: string }>;
}

export const DEFAULT_BRAND: SiteBrand = Object.freeze({
  siteName: 'Realty',
  tagline: '',
  logoUrl: null,
  primaryColor: '#1f5f8b',
  accentColor: '#e07a1f',
  contactEmail: '',
  contactPhone: '',
  contactAddress: '',
  heroImageUrl: null,
  homeSections: HOME_SECTIONS,
});
