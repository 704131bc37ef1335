import { lockTransactionKey } from '../../db/dialect/index.js';
import type { Executor } from '../../db/executor.js';
import type { NewSiteSettings, SiteSettingsRow } from '../../db/schema/index.js';

/** The one row of the brand's settings (id 1). */
const SETTINGS_ID = 1;

/** The settings row with the stored sizes of its pictures, or undefined while the defaults apply. */
export interface StoredSettings extends SiteSettingsRow {
  logo_sizes: string | null;
  hero_sizes: string | null;
}

export async function findSettings(db: Executor): Promise<StoredSettings | undefined> {
  return db
    .selectFrom('site_settings as s')
    .leftJoin('media as logo', 'logo.id', 's.logo_media_id')
    .leftJoin('media as hero', 'hero.id', 's.hero_media_id')
    .selectAll('s')
    .select(['logo.sizes as logo_sizes', 'hero.sizes as hero_sizes'])
    .where('s.id', '=', SETTINGS_ID)
    .executeTakeFirst();
}

/** Media rows by id, with what decides whether they may be the brand's pictures. */
export async function findMediaOwners(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('media').select(['id', 'owner_id', 'mime_type']).where('id', 'in', ids).execute();
}

/** Holds other writers of the settings until the caller's transaction ends: each change reads what the last one wrote. */
export async function lockSettings(trx: Executor): Promise<void> {
  await lockTransactionKey(trx, 'site_settings');
}

/** Writes the whole row, inserting it on the first change. */
export async function saveSettings(db: Executor, row: Omit<NewSiteSettings, 'id'>): Promise<void> {
  await db
    .insertInto('site_settings')
    .values({ id: SETTINGS_ID, ...row })
    .onConflict((conflict) => conflict.column('id').doUpdateSet(row))
    .execute();
}
