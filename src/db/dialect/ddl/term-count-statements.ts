import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * PostgreSQL (migration 0012): term counts move once per statement that adds or removes term links, not once
 * per link. The rule is term-triggers.ts's: a link of a published listing counts. Its row trigger cost
 * 85–115 µs a link (a share lock on the listing, then an update of the term's row), about 12 links a
 * listing: most of a listing's write when many are written at once. Statement triggers read the links the
 * statement added or removed from its transition table, lock their listings (share, in id order: a
 * concurrent state change still waits for the link, or the link for it) and the terms whose counts move (in
 * id order, so two statements moving overlapping terms wait for each other instead of deadlocking; links of
 * unpublished listings lock no term, as before), and move each term once.
 *
 * SQLite has no statement triggers; its row triggers stay.
 */
export async function countTermsByStatement(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const statement of POSTGRES) await sql.raw(statement).execute(db);
}

/** The body of a function moving the counts of the links in `links` by `sign` (1 added, -1 removed). */
const moveCounts = (links: string, sign: 1 | -1) => `
   BEGIN
     PERFORM 1 FROM listings WHERE id IN (SELECT listing_id FROM ${links}) ORDER BY id FOR SHARE;
     PERFORM 1 FROM terms
      WHERE id IN (SELECT k.term_id FROM ${links} k JOIN listings l ON l.id = k.listing_id WHERE l.status = 'publish')
      ORDER BY id FOR UPDATE;
     UPDATE terms t SET count = t.count ${sign === 1 ? '+' : '-'} moved.n
       FROM (SELECT k.term_id, count(*) AS n
               FROM ${links} k JOIN listings l ON l.id = k.listing_id
              WHERE l.status = 'publish'
              GROUP BY k.term_id) moved
      WHERE t.id = moved.term_id;
     RETURN NULL;
   END`;

const POSTGRES = [
  'DROP TRIGGER listing_terms_count ON listing_terms',
  'DROP FUNCTION listing_terms_count()',
  `CREATE FUNCTION listing_terms_count_added() RETURNS trigger LANGUAGE plpgsql AS $$${moveCounts('added_links', 1)} $$`,
  `CREATE FUNCTION listing_terms_count_removed() RETURNS trigger LANGUAGE plpgsql AS $$${moveCounts('removed_links', -1)} $$`,
  `CREATE TRIGGER listing_terms_count_added AFTER INSERT ON listing_terms
   REFERENCING NEW TABLE AS added_links FOR EACH STATEMENT EXECUTE FUNCTION listing_terms_count_added()`,
  `CREATE TRIGGER listing_terms_count_removed AFTER DELETE ON listing_terms
   REFERENCING OLD TABLE AS removed_links FOR EACH STATEMENT EXECUTE FUNCTION listing_terms_count_removed()`,
];
