import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0013: the copies on term links (search-triggers.ts: each link carries its listing's `status`,
 * `price` and first `property_city` term) cost nothing when the writer already gives them right, as the
 * bulk write path does (modules/properties/bulk/). The rule and the end state are search-triggers.ts's,
 * whatever a writer gives; only the work changes.
 *
 * - PostgreSQL: the row trigger filling a link's copies (a plpgsql call, a row lock and two look-ups per
 *   link, most of a bulk write into a live database) runs only for links inserted without copies
 *   (`status` null: the row path of the properties module). A statement trigger then checks every link the
 *   statement added against its listing, set-wise, and rewrites only those whose copies differ (the
 *   transition table holds links as inserted: one a later row of the statement changed is read again);
 *   where a city link came in, the city of the listing's other links too. It first locks the listings of the added
 *   links (`for no key update`, in id order), as the row trigger did, and is named to run before the
 *   term-count trigger (same event: alphabetical order), whose share lock is then never an upgrade.
 * - SQLite: the row trigger's update touches only the links whose copies differ (an update of a link to the
 *   values it holds also fired the link's update triggers: a `listings` stamp renewal per link).
 */
export async function checkTermCopiesByStatement(db: AnyDb): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES : SQLITE;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

/** The listing's city term, by position then id (search-triggers.ts). */
const firstCity = (listingId: string) =>
  `(SELECT c.term_id FROM listing_terms c WHERE c.listing_id = ${listingId} AND c.taxonomy = 'property_city'
    ORDER BY c.position, c.term_id LIMIT 1)`;

const SQLITE_STATUS = `(SELECT status FROM listings WHERE id = NEW.listing_id)`;
const SQLITE_PRICE = `(SELECT price FROM listings WHERE id = NEW.listing_id)`;

const SQLITE = [
  `DROP TRIGGER listing_terms_search_insert`,
  `CREATE TRIGGER listing_terms_search_insert AFTER INSERT ON listing_terms
   BEGIN
     UPDATE listing_terms SET status = ${SQLITE_STATUS}, price = ${SQLITE_PRICE}, city_id = ${firstCity('NEW.listing_id')}
     WHERE listing_id = NEW.listing_id AND (term_id = NEW.term_id OR NEW.taxonomy = 'property_city')
       AND (status IS NOT ${SQLITE_STATUS} OR price IS NOT ${SQLITE_PRICE} OR city_id IS NOT ${firstCity('NEW.listing_id')});
   END`,
];

const POSTGRES = [
  `DROP TRIGGER listing_terms_search_insert ON listing_terms`,
  `CREATE TRIGGER listing_terms_search_insert BEFORE INSERT ON listing_terms
   FOR EACH ROW WHEN (NEW.status IS NULL) EXECUTE FUNCTION listing_terms_search_insert()`,
  // One pass over the added links and their listings (a hash join of the transition table with one row per
  // listing) finds what differs; links are then read and written per listing by index, so that no plan
  // depends on estimates of the transition table (a join planned from them read every link of the table).
  `CREATE FUNCTION listing_terms_copies_added() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     fix record;
   BEGIN
     PERFORM 1 FROM listings WHERE id IN (SELECT listing_id FROM added_links) ORDER BY id FOR NO KEY UPDATE;
     FOR fix IN
       WITH truth AS MATERIALIZED (
         SELECT l.id, l.status, l.price, ${firstCity('l.id')} AS city_id
           FROM listings l WHERE l.id IN (SELECT listing_id FROM added_links)
       )
       SELECT t.id, t.status, t.price, t.city_id,
              array_agg(k.term_id) FILTER (WHERE k.status IS DISTINCT FROM t.status OR k.price IS DISTINCT FROM t.price
                                              OR k.city_id IS DISTINCT FROM t.city_id) AS differing,
              bool_or(k.taxonomy = 'property_city') AS city_added
         FROM truth t JOIN added_links k ON k.listing_id = t.id
        GROUP BY t.id, t.status, t.price, t.city_id
     LOOP
       IF fix.differing IS NOT NULL THEN
         UPDATE listing_terms SET status = fix.status, price = fix.price, city_id = fix.city_id
          WHERE listing_id = fix.id AND term_id = ANY (fix.differing)
            AND (status IS DISTINCT FROM fix.status OR price IS DISTINCT FROM fix.price OR city_id IS DISTINCT FROM fix.city_id);
       END IF;
       IF fix.city_added THEN
         UPDATE listing_terms SET city_id = fix.city_id WHERE listing_id = fix.id AND city_id IS DISTINCT FROM fix.city_id;
       END IF;
     END LOOP;
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER listing_terms_copies_added AFTER INSERT ON listing_terms
   REFERENCING NEW TABLE AS added_links FOR EACH STATEMENT EXECUTE FUNCTION listing_terms_copies_added()`,
];
