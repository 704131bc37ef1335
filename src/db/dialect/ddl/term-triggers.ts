import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

/**
 * Database-side bookkeeping of terms, in the transaction that makes the change, whatever code path makes it.
 *
 * `terms.count` stays equal to the number of *published* listings linked to each term:
 * - a link added or removed on a published listing moves the count by one;
 * - a listing entering or leaving `publish` moves the count of each of its terms by one;
 * - a listing about to be deleted first drops its links (while its state is still readable), so the
 *   link trigger does the bookkeeping and a cascade never has to guess the state of a deleted row.
 * On PostgreSQL the link trigger first takes a share lock on the listing: a concurrent state change then
 * waits for the link (or the link for it), and each side's next statement sees the other's commit.
 * SQLite has a single writer, so it needs no lock.
 *
 * `cache_versions('terms')` gets a new random value whenever any term row changes (counts included), so a
 * cached term listing can tell with one look-up whether it is still the answer. Random rather than
 * incremented: a value seen inside a transaction that then rolls back can never come back and
 * vouch for stale data.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createTermTriggers(db: Kysely<any>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const SQLITE = [
  `CREATE TRIGGER listing_terms_count_insert AFTER INSERT ON listing_terms
   WHEN (SELECT status FROM listings WHERE id = NEW.listing_id) = 'publish'
   BEGIN UPDATE terms SET count = count + 1 WHERE id = NEW.term_id; END`,
  `CREATE TRIGGER listing_terms_count_delete AFTER DELETE ON listing_terms
   WHEN (SELECT status FROM listings WHERE id = OLD.listing_id) = 'publish'
   BEGIN UPDATE terms SET count = count - 1 WHERE id = OLD.term_id; END`,
  `CREATE TRIGGER listings_count_status AFTER UPDATE OF status ON listings
   WHEN (OLD.status = 'publish') <> (NEW.status = 'publish')
   BEGIN
     UPDATE terms SET count = count + (CASE WHEN NEW.status = 'publish' THEN 1 ELSE -1 END)
     WHERE id IN (SELECT term_id FROM listing_terms WHERE listing_id = NEW.id);
   END`,
  `CREATE TRIGGER listings_detach_terms BEFORE DELETE ON listings
   BEGIN DELETE FROM listing_terms WHERE listing_id = OLD.id; END`,
  ...['INSERT', 'UPDATE', 'DELETE'].map(
    (event) => `CREATE TRIGGER terms_version_${event.toLowerCase()} AFTER ${event} ON terms
     BEGIN UPDATE cache_versions SET version = hex(randomblob(8)) WHERE name = 'terms'; END`,
  ),
];

const POSTGRES = [
  `CREATE FUNCTION listing_terms_count() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       PERFORM 1 FROM listings WHERE id = NEW.listing_id FOR SHARE;
       UPDATE terms SET count = count + 1 WHERE id = NEW.term_id
         AND EXISTS (SELECT 1 FROM listings WHERE id = NEW.listing_id AND status = 'publish');
       RETURN NEW;
     END IF;
     PERFORM 1 FROM listings WHERE id = OLD.listing_id FOR SHARE;
     UPDATE terms SET count = count - 1 WHERE id = OLD.term_id
       AND EXISTS (SELECT 1 FROM listings WHERE id = OLD.listing_id AND status = 'publish');
     RETURN OLD;
   END $$`,
  `CREATE TRIGGER listing_terms_count AFTER INSERT OR DELETE ON listing_terms
   FOR EACH ROW EXECUTE FUNCTION listing_terms_count()`,
  `CREATE FUNCTION listings_count_status() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF (OLD.status = 'publish') <> (NEW.status = 'publish') THEN
       UPDATE terms SET count = count + (CASE WHEN NEW.status = 'publish' THEN 1 ELSE -1 END)
       WHERE id IN (SELECT term_id FROM listing_terms WHERE listing_id = NEW.id);
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER listings_count_status AFTER UPDATE OF status ON listings
   FOR EACH ROW EXECUTE FUNCTION listings_count_status()`,
  `CREATE FUNCTION listings_detach_terms() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM listing_terms WHERE listing_id = OLD.id;
     RETURN OLD;
   END $$`,
  `CREATE TRIGGER listings_detach_terms BEFORE DELETE ON listings
   FOR EACH ROW EXECUTE FUNCTION listings_detach_terms()`,
  `CREATE FUNCTION terms_version() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE cache_versions SET version = md5(random()::text || clock_timestamp()::text) WHERE name = 'terms';
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER terms_version AFTER INSERT OR UPDATE OR DELETE ON terms
   FOR EACH STATEMENT EXECUTE FUNCTION terms_version()`,
];
