import type { AppModule, Platform } from '../module.js';
import { siteSettingsRoutes } from './site-settings.routes.js';
import { SiteSettings } from './site-settings.schemas.js';
import { SiteSettingsService } from './site-settings.service.js';

export interface SiteSettingsServices {
  /** The website's brand (docs/api.md 14); also the website's BrandSource. */
  siteSettings: SiteSettingsService;
}

/** The website's brand set by an administrator (docs/api.md 14, docs/site.md), kept in memory while its stamp holds. */
export function createSiteSettingsModule({ database, stamps, storage }: Platform): AppModule<SiteSettingsServices> {
  const siteSettings = new SiteSettingsService(database.db, stamps, storage);
  return {
    services: { siteSettings },
    schemas: [SiteSettings],
    routes: async (api) => {
      await api.register(siteSettingsRoutes, { siteSettings });
    },
  };
}

export { accentContrastOf, contrastRatio, primaryContrastOf } from './brand-colors.js';
export { type Brand, DEFAULT_SETTINGS } from './site-settings.mapper.js';
export { HOME_SECTIONS, type SubmissionField } from './site-settings.schemas.js';
export type { SiteSettingsService } from './site-settings.service.js';
