import { type Brand, HOME_SECTIONS } from '../modules/site-settings/index.js';

/**
 * What an administrator sets so that the website is the agency's own (docs/site.md): its name, logo, colours,
 * contact details, hero picture and the home page's sections. The site reads it through a `BrandSource`, with a
 * version that changes when it does (the pages' caches and ETags follow it). The shape is the site-settings
 * module's own `Brand`.
 */
export type SiteBrand = Brand;
export { HOME_SECTIONS };

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
