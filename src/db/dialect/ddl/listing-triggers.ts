import { type Kysely, sql } from 'kysely';
import { deferredStampTrigger } from './deferred-stamps.js';
import { dialectOf } from '../index.js';

/**
 * `cache_versions('listings')` gets a new random value whenever anything shown in a listing record or
 * summary changes (docs/api.md 4.1): the listing row (views and state included), its term links and agents,
 * media attached to a listing, agent and agency records, an author's display name. Term names and slugs
 * have their own stamp (`terms`); cached listings check both (modules/properties/listing-records.service.ts).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createListingTriggers(db: Kysely<any>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const SQLITE_BUMP = `UPDATE cache_versions SET version = hex(randomblob(8)) WHERE name = 'listings';`;

const sqliteOnEveryChange = (table: string) =>
  ['INSERT', 'UPDATE', 'DELETE'].map(
    (event) => `CREATE TRIGGER ${table}_listings_stamp_${event.toLowerCase()} AFTER ${event} ON ${table} BEGIN ${SQLITE_BUMP} END`,
  );

const SQLITE = [
  ...sqliteOnEveryChange('listings'),
  ...sqliteOnEveryChange('listing_terms'),
  ...sqliteOnEveryChange('listing_agents'),
  ...sqliteOnEveryChange('agents'),
  ...sqliteOnEveryChange('agencies'),
  `CREATE TRIGGER media_listings_stamp_insert AFTER INSERT ON media WHEN NEW.listing_id IS NOT NULL BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER media_listings_stamp_update AFTER UPDATE ON media
   WHEN OLD.listing_id IS NOT NULL OR NEW.listing_id IS NOT NULL BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER media_listings_stamp_delete AFTER DELETE ON media WHEN OLD.listing_id IS NOT NULL BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER users_listings_stamp_name AFTER UPDATE OF display_name ON users
   WHEN OLD.display_name <> NEW.display_name BEGIN ${SQLITE_BUMP} END`,
  `CREATE TRIGGER users_listings_stamp_delete AFTER DELETE ON users BEGIN ${SQLITE_BUMP} END`,
];

/** Renewed at commit (deferred-stamps.ts); media per row, so that avatars and fresh uploads leave it alone. */
const POSTGRES = [
  ...['listings', 'listing_terms', 'listing_agents', 'agents', 'agencies'].map((table) =>
    deferredStampTrigger(`${table}_listings_stamp`, 'INSERT OR UPDATE OR DELETE', table, 'listings'),
  ),
  deferredStampTrigger('media_listings_stamp_insert', 'INSERT', 'media', 'listings', 'NEW.listing_id IS NOT NULL'),
  deferredStampTrigger(
    'media_listings_stamp_update',
    'UPDATE',
    'media',
    'listings',
    'OLD.listing_id IS NOT NULL OR NEW.listing_id IS NOT NULL',
  ),
  deferredStampTrigger('media_listings_stamp_delete', 'DELETE', 'media', 'listings', 'OLD.listing_id IS NOT NULL'),
  deferredStampTrigger(
    'users_listings_stamp_name',
    'UPDATE OF display_name',
    'users',
    'listings',
    'OLD.display_name IS DISTINCT FROM NEW.display_name',
  ),
  deferredStampTrigger('users_listings_stamp_delete', 'DELETE', 'users', 'listings'),
];
