import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

/**
 * Keeps the copies on `listing_terms` of migration 0006 right, whatever statement changes the listing or
 * its links: each link row carries its listing's `status` and `price` and the listing's `property_city`
 * term (`city_id`; the first by position, then id, should a listing name several), so that a term filter
 * with state, city and price reads one index without visiting the listings.
 * - a link inserted gets its listing's state and price, and the listing's city; a city link inserted sets
 *   the city of all the listing's links;
 * - a city link deleted sets the city of the listing's remaining links again (a deleted city term deletes
 *   its links by cascade, so this covers it; `city_id` is also `on delete set null`);
 * - a listing's state or price changed is copied to its links.
 * On PostgreSQL every link inserted or deleted first locks its listing's row (`for no key update`): link
 * changes and state or price changes of one listing then run one after the other, and each sees the
 * other's commit (read committed) instead of copying a value that is being replaced. Taken in a
 * before-trigger, ahead of the share lock of the term-count trigger (term-triggers.ts), it is never an
 * upgrade, which two transactions could deadlock on. Changes of different listings never wait for each
 * other here. SQLite runs one writer at a time and needs no lock.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createSearchTriggers(db: Kysely<any>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** The listing's city term, by position then id (the same choice as the migration's backfill). */
const firstCity = (listingId: string) =>
  `(SELECT c.term_id FROM listing_terms c WHERE c.listing_id = ${listingId} AND c.taxonomy = 'property_city'
    ORDER BY c.position, c.term_id LIMIT 1)`;

const SQLITE = [
  `CREATE TRIGGER listing_terms_search_insert AFTER INSERT ON listing_terms
   BEGIN
     UPDATE listing_terms SET
       status = (SELECT status FROM listings WHERE id = NEW.listing_id),
       price = (SELECT price FROM listings WHERE id = NEW.listing_id),
       city_id = ${firstCity('NEW.listing_id')}
     WHERE listing_id = NEW.listing_id AND (term_id = NEW.term_id OR NEW.taxonomy = 'property_city');
   END`,
  `CREATE TRIGGER listing_terms_search_city_delete AFTER DELETE ON listing_terms WHEN OLD.taxonomy = 'property_city'
   BEGIN
     UPDATE listing_terms SET city_id = ${firstCity('OLD.listing_id')} WHERE listing_id = OLD.listing_id;
   END`,
  `CREATE TRIGGER listings_search_terms AFTER UPDATE OF status, price ON listings
   WHEN OLD.status IS NOT NEW.status OR OLD.price IS NOT NEW.price
   BEGIN
     UPDATE listing_terms SET status = NEW.status, price = NEW.price WHERE listing_id = NEW.id;
   END`,
];

const POSTGRES = [
  // A before-trigger fills the new row itself; rows inserted earlier by the same statement are visible.
  `CREATE FUNCTION listing_terms_search_insert() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     SELECT status, price INTO NEW.status, NEW.price FROM listings WHERE id = NEW.listing_id FOR NO KEY UPDATE;
     SELECT c.term_id INTO NEW.city_id FROM (
       SELECT term_id, position FROM listing_terms WHERE listing_id = NEW.listing_id AND taxonomy = 'property_city'
       UNION ALL SELECT NEW.term_id, NEW.position WHERE NEW.taxonomy = 'property_city'
     ) c ORDER BY c.position, c.term_id LIMIT 1;
     IF NEW.taxonomy = 'property_city' THEN
       UPDATE listing_terms SET city_id = NEW.city_id
        WHERE listing_id = NEW.listing_id AND city_id IS DISTINCT FROM NEW.city_id;
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER listing_terms_search_insert BEFORE INSERT ON listing_terms
   FOR EACH ROW EXECUTE FUNCTION listing_terms_search_insert()`,
  `CREATE FUNCTION listing_terms_search_lock() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM 1 FROM listings WHERE id = OLD.listing_id FOR NO KEY UPDATE;
     RETURN OLD;
   END $$`,
  `CREATE TRIGGER listing_terms_search_lock BEFORE DELETE ON listing_terms
   FOR EACH ROW EXECUTE FUNCTION listing_terms_search_lock()`,
  // After the statement's deletions: a before-trigger changing a row the same statement then deletes fails.
  `CREATE FUNCTION listing_terms_search_city_delete() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     city integer := ${firstCity('OLD.listing_id')};
   BEGIN
     UPDATE listing_terms SET city_id = city WHERE listing_id = OLD.listing_id AND city_id IS DISTINCT FROM city;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER listing_terms_search_city_delete AFTER DELETE ON listing_terms
   FOR EACH ROW WHEN (OLD.taxonomy = 'property_city') EXECUTE FUNCTION listing_terms_search_city_delete()`,
  `CREATE FUNCTION listings_search_terms() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE listing_terms SET status = NEW.status, price = NEW.price WHERE listing_id = NEW.id;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER listings_search_terms AFTER UPDATE OF status, price ON listings
   FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status OR OLD.price IS DISTINCT FROM NEW.price)
   EXECUTE FUNCTION listings_search_terms()`,
];
