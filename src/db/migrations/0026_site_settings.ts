import { type Kysely, sql } from 'kysely';
import { createSiteSettingsStamp } from '../dialect/ddl/site-settings-stamp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * The website's brand, set by an administrator (modules/site-settings, docs/site.md): one row (`id` 1), absent
 * until the first change, when the defaults of the code apply. Pictures are media rows; deleting one clears it
 * here. `home_sections` is JSON text (an array of section names, in order). Its cache stamp `site_settings` is
 * renewed by triggers in the writing transaction (dialect/ddl/site-settings-stamp.ts).
 */
export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('site_settings')
    .addColumn('id', 'integer', (col) => col.primaryKey().check(sql`id = 1`))
    .addColumn('site_name', 'text', (col) => col.notNull())
    .addColumn('tagline', 'text', (col) => col.notNull())
    .addColumn('logo_media_id', 'integer', (col) => col.references('media.id').onDelete('set null'))
    .addColumn('primary_color', 'text', (col) => col.notNull())
    .addColumn('accent_color', 'text', (col) => col.notNull())
    .addColumn('contact_email', 'text', (col) => col.notNull())
    .addColumn('contact_phone', 'text', (col) => col.notNull())
    .addColumn('contact_address', 'text', (col) => col.notNull())
    .addColumn('hero_media_id', 'integer', (col) => col.references('media.id').onDelete('set null'))
    .addColumn('home_sections', 'text', (col) => col.notNull())
    .addColumn('updated_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('updated_at', 'text', (col) => col.notNull())
    .execute();
  await db.insertInto('cache_versions').values({ name: 'site_settings', version: 'initial' }).execute();
  await createSiteSettingsStamp(db);
}
