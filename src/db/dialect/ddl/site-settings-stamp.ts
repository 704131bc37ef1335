import { type Kysely, sql } from 'kysely';
import { deferredStampTrigger } from './deferred-stamps.js';
import { dialectOf } from '../index.js';

/**
 * `cache_versions('site_settings')` (migration 0026) moves with any change to the `site_settings` row: a write of
 * the brand, or its logo or hero picture cleared because the media was deleted (the foreign key's SET NULL is an
 * update too). Every process keeps the brand in memory while the stamp holds (modules/site-settings), so a change
 * shows everywhere without a restart, whatever code (or manual SQL) made it. On PostgreSQL the stamp is renewed at
 * commit, taking the stamp rows in name order as every other stamp does (deferred-stamps.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createSiteSettingsStamp(db: Kysely<any>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const BUMP = `UPDATE cache_versions SET version = hex(randomblob(8)) WHERE name = 'site_settings';`;

const SQLITE = ['INSERT', 'UPDATE', 'DELETE'].map(
  (event) => `CREATE TRIGGER site_settings_stamp_${event.toLowerCase()} AFTER ${event} ON site_settings BEGIN ${BUMP} END`,
);

const POSTGRES = [deferredStampTrigger('site_settings_stamp', 'INSERT OR UPDATE OR DELETE', 'site_settings', 'site_settings')];
