import { type Kysely, sql } from 'kysely';
import { deferredStampTrigger } from './deferred-stamps.js';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Counted views get a stamp of their own, `listing_views`, and leave `listings` alone. The view counter adds its
 * counts every few seconds (`SET views = views + n`, nothing else): under the `listings` stamp every flush made
 * every cached listing answer and every cached website page stale, so a busy site rendered all its pages again
 * every five seconds. The records that show `views` (the API's listing records) check both stamps; the website's
 * pages, which show no view count, check `listings` only.
 *
 * An update is the view counter's when it changes `views` and leaves `updated_at` as it was: every other writer
 * that changes what a listing shows either leaves `views` as it was or (an administrator's edit) sets
 * `updated_at`, and so still renews `listings`.
 */
export async function createListingViewsStamp(db: AnyDb): Promise<void> {
  await db.insertInto('cache_versions').values({ name: 'listing_views', version: 'initial' }).execute();
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const SQLITE_BUMP = (stamp: string) => `UPDATE cache_versions SET version = hex(randomblob(8)) WHERE name = '${stamp}';`;

const SQLITE = [
  'DROP TRIGGER listings_listings_stamp_update',
  `CREATE TRIGGER listings_listings_stamp_update AFTER UPDATE ON listings
   WHEN OLD.views = NEW.views OR OLD.updated_at IS NOT NEW.updated_at BEGIN ${SQLITE_BUMP('listings')} END`,
  `CREATE TRIGGER listings_views_stamp AFTER UPDATE OF views ON listings
   WHEN OLD.views <> NEW.views BEGIN ${SQLITE_BUMP('listing_views')} END`,
];

const POSTGRES = [
  'DROP TRIGGER listings_listings_stamp ON listings',
  deferredStampTrigger('listings_listings_stamp', 'INSERT OR DELETE', 'listings', 'listings'),
  deferredStampTrigger(
    'listings_listings_stamp_update',
    'UPDATE',
    'listings',
    'listings',
    'OLD.views = NEW.views OR OLD.updated_at IS DISTINCT FROM NEW.updated_at',
  ),
  deferredStampTrigger('listings_views_stamp', 'UPDATE OF views', 'listings', 'listing_views', 'OLD.views IS DISTINCT FROM NEW.views'),
];
