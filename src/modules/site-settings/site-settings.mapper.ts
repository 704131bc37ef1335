import type { FileStorage } from '../../adapters/storage/storage.js';
import { toApiTimestamp } from '../../lib/time.js';
import { sizeUrl } from '../media/index.js';
import type { StoredSettings } from './site-settings.repository.js';
import {
  HOME_SECTIONS,
  type HomeSection,
  type SiteSettingsRecord,
  SUBMISSION_FIELDS,
  type SubmissionField,
} from './site-settings.schemas.js';

/** The brand as the website reads it (src/site/brand.ts `SiteBrand`). */
export interface Brand {
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

/** What applies until an administrator changes anything (the site's DEFAULT_BRAND; a test holds the two equal). */
export const DEFAULT_SETTINGS: SiteSettingsRecord = Object.freeze({
  site_name: 'Realty',
  tagline: '',
  logo_id: null,
  logo_url: null,
  primary_color: '#1f5f8b',
  accent_color: '#e07a1f',
  contact_email: '',
  contact_phone: '',
  contact_address: '',
  hero_image_id: null,
  hero_image_url: null,
  home_sections: [...HOME_SECTIONS],
  submission_fields: [],
  updated_at: null,
});

/** Row → API record: pictures as URLs of their stored sizes (the logo's medium, the hero's large). */
export function toSiteSettings(row: StoredSettings | undefined, storage: FileStorage): SiteSettingsRecord {
  if (!row) return DEFAULT_SETTINGS;
  const url = (sizes: string | null, size: 'medium' | 'large') => (sizes === null ? null : sizeUrl(sizes, size, storage) || null);
  return {
    site_name: row.site_name,
    tagline: row.tagline,
    logo_id: row.logo_media_id,
    logo_url: url(row.logo_sizes, 'medium'),
    primary_color: row.primary_color,
    accent_color: row.accent_color,
    contact_email: row.contact_email,
    contact_phone: row.contact_phone,
    contact_address: row.contact_address,
    hero_image_id: row.hero_media_id,
    hero_image_url: url(row.hero_sizes, 'large'),
    home_sections: storedNames(row.home_sections, HOME_SECTIONS),
    submission_fields: storedNames(row.submission_fields, SUBMISSION_FIELDS),
    updated_at: toApiTimestamp(row.updated_at),
  };
}

export function toBrand(record: SiteSettingsRecord): Brand {
  return Object.freeze({
    siteName: record.site_name,
    tagline: record.tagline,
    logoUrl: record.logo_url,
    primaryColor: record.primary_color,
    accentColor: record.accent_color,
    contactEmail: record.contact_email,
    contactPhone: record.contact_phone,
    contactAddress: record.contact_address,
    heroImageUrl: record.hero_image_url,
    homeSections: Object.freeze([...record.home_sections]),
  });
}

/** A stored JSON list, keeping only names this version knows (a name removed later is skipped, not an error). */
function storedNames<Name extends HomeSection | SubmissionField>(json: string, known: readonly Name[]): Name[] {
  const parsed: unknown = JSON.parse(json);
  return Array.isArray(parsed) ? parsed.filter((name): name is Name => (known as readonly unknown[]).includes(name)) : [];
}
