import type { Kysely } from 'kysely';
import type { FileStorage } from '../../adapters/storage/storage.js';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { DB } from '../../db/schema/index.js';
import { AppError, type FieldError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { plainText } from '../../lib/text.js';
import { nowIso } from '../../lib/time.js';
import { accentContrastOf, primaryContrastOf, ratioText } from './brand-colors.js';
import { type Brand, toBrand, toSiteSettings } from './site-settings.mapper.js';
import * as repository from './site-settings.repository.js';
import type { SiteSettingsRecord, SubmissionField, UpdateSiteSettingsInput } from './site-settings.schemas.js';

/** The cache stamp of the settings row (migration 0026), renewed by triggers in every transaction that changes it. */
const SITE_SETTINGS_STAMP = 'site_settings';

interface Loaded {
  stamp: string;
  record: SiteSettingsRecord;
  brand: Brand;
}

/**
 * The website's brand, set by an administrator (docs/api.md 14, docs/site.md): read by every page, so kept in
 * memory while its cache stamp holds. Another process's change shows within CACHE_REVALIDATE_MS, this process's
 * own at once; no restart. It is also the site's `BrandSource` (`current`), whose version is the stamp.
 */
export class SiteSettingsService {
  private loaded: Loaded | undefined;
  private loading: { stamp: string; promise: Promise<Loaded> } | undefined;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly stamps: CacheStamps,
    private readonly storage: FileStorage,
  ) {}

  /** `GET /site-settings`: the same object while nothing changed (its serialization and ETag are kept with it). */
  async settings(): Promise<SiteSettingsRecord> {
    return (await this.load()).record;
  }

  /** The listing fields a submission needs (site settings `submission_fields`), as currently set. */
  async submissionFields(): Promise<readonly SubmissionField[]> {
    return (await this.load()).record.submission_fields;
  }

  /** The brand as the website renders it, and a version that changes whenever it does. */
  async current(): Promise<{ brand: Brand; version: string }> {
    const { brand, stamp } = await this.load();
    return { brand, version: stamp };
  }

  /**
   * `PUT /site-settings` (administrators): a partial change, checked whole (every problem reported at once, 400):
   * text plain, colours that keep the site's contrast AA, pictures that are images the caller uploaded (anyone
   * else's media is answered as an unknown one). A change that changes nothing writes nothing.
   */
  async update(caller: AuthUser, input: UpdateSiteSettingsInput): Promise<SiteSettingsRecord> {
    if (caller.role !== 'administrator') throw new AppError('forbidden');
    const errors: FieldError[] = [];
    const changes = cleanChanges(input, errors);
    await this.db.transaction().execute(async (trx) => {
      await repository.lockSettings(trx);
      const pictures = [input.logo_id, input.hero_image_id].filter((id): id is number => typeof id === 'number');
      const media = new Map((await repository.findMediaOwners(trx, pictures)).map((row) => [row.id, row]));
      for (const field of ['logo_id', 'hero_image_id'] as const) {
        const id = input[field];
        if (id === undefined || id === null) continue;
        const row = media.get(id);
        if (!row || row.owner_id !== caller.id || !row.mime_type.startsWith('image/')) {
          errors.push({ field, key: 'site_settings_rule_image_not_allowed' });
        }
      }
      if (errors.length > 0) throw new AppError('validation_failed', 'validation_failed', errors);

      const stored = await repository.findSettings(trx);
      const before = toSiteSettings(stored, this.storage);
      const row = {
        site_name: changes.site_name ?? before.site_name,
        tagline: changes.tagline ?? before.tagline,
        logo_media_id: input.logo_id !== undefined ? input.logo_id : before.logo_id,
        primary_color: changes.primary_color ?? before.primary_color,
        accent_color: changes.accent_color ?? before.accent_color,
        contact_email: changes.contact_email ?? before.contact_email,
        contact_phone: changes.contact_phone ?? before.contact_phone,
        contact_address: changes.contact_address ?? before.contact_address,
        hero_media_id: input.hero_image_id !== undefined ? input.hero_image_id : before.hero_image_id,
        home_sections: JSON.stringify(input.home_sections ?? before.home_sections),
        submission_fields: JSON.stringify(input.submission_fields ?? before.submission_fields),
      };
      if (stored && sameRow(stored, row)) return;
      await repository.saveSettings(trx, { ...row, updated_by: caller.id, updated_at: nowIso() });
    });
    return this.settings();
  }

  /**
   * The record and brand of the current stamp. The stamp is read before the row, so a change committed in
   * between is at worst read early and labelled with the older stamp, and read again at the next stamp.
   */
  private async load(): Promise<Loaded> {
    const stamp = await this.stamps.current(SITE_SETTINGS_STAMP);
    if (this.loaded?.stamp === stamp) return this.loaded;
    if (this.loading?.stamp === stamp) return this.loading.promise;
    const promise = repository.findSettings(this.db).then((row) => {
      const record = toSiteSettings(row, this.storage);
      const loaded = { stamp, record, brand: toBrand(record) };
      this.loaded = loaded;
      return loaded;
    });
    this.loading = { stamp, promise };
    try {
      return await promise;
    } finally {
      if (this.loading?.promise === promise) this.loading = undefined;
    }
  }
}

type TextChanges = Partial<
  Pick<
    SiteSettingsRecord,
    'site_name' | 'tagline' | 'primary_color' | 'accent_color' | 'contact_email' | 'contact_phone' | 'contact_address'
  >
>;

/** The text fields cleaned (plain text, one line; colours lower-cased and checked for contrast). */
function cleanChanges(input: UpdateSiteSettingsInput, errors: FieldError[]): TextChanges {
  const changes: TextChanges = {};
  const oneLine = (value: string) => plainText(value).replace(/\s+/g, ' ');
  if (input.site_name !== undefined) {
    changes.site_name = oneLine(input.site_name);
    if (changes.site_name === '') errors.push({ field: 'site_name', key: 'site_settings_rule_blank' });
  }
  if (input.tagline !== undefined) changes.tagline = oneLine(input.tagline);
  if (input.contact_address !== undefined) changes.contact_address = oneLine(input.contact_address);
  if (input.contact_email !== undefined) changes.contact_email = input.contact_email.trim().toLowerCase();
  if (input.contact_phone !== undefined) changes.contact_phone = input.contact_phone.trim();
  if (input.primary_color !== undefined) {
    changes.primary_color = input.primary_color.toLowerCase();
    const { ratio, ok } = primaryContrastOf(changes.primary_color);
    if (!ok) errors.push({ field: 'primary_color', key: 'site_settings_rule_primary_contrast', params: { ratio: ratioText(ratio) } });
  }
  if (input.accent_color !== undefined) {
    changes.accent_color = input.accent_color.toLowerCase();
    const { onDark, onWhite, ok } = accentContrastOf(changes.accent_color);
    if (!ok) {
      errors.push({
        field: 'accent_color',
        key: 'site_settings_rule_accent_contrast',
        params: { dark: ratioText(onDark), light: ratioText(onWhite) },
      });
    }
  }
  return changes;
}

function sameRow(stored: repository.StoredSettings, row: Record<string, unknown>): boolean {
  return Object.entries(row).every(([column, value]) => stored[column as keyof repository.StoredSettings] === value);
}
