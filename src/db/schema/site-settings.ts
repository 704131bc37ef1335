import type { Insertable, Selectable } from 'kysely';

/** The website's brand (migration 0025): one row, id 1, absent until an administrator first changes it. */
export interface SiteSettingsTables {
  site_settings: SiteSettingsTable;
}

interface SiteSettingsTable {
  id: number;
  site_name: string;
  tagline: string;
  logo_media_id: number | null;
  /** `#rrggbb`. */
  primary_color: string;
  accent_color: string;
  contact_email: string;
  contact_phone: string;
  contact_address: string;
  hero_media_id: number | null;
  /** JSON: the home page's section names, in order. */
  home_sections: string;
  /** JSON: the listing fields required before a listing is submitted (migration 0035), by input name. */
  submission_fields: string;
  updated_by: number | null;
  updated_at: string;
}

export type SiteSettingsRow = Selectable<SiteSettingsTable>;
export type NewSiteSettings = Insertable<SiteSettingsTable>;
