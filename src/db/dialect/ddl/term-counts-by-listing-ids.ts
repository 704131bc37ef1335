import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/**
 * Migration 0018, PostgreSQL: the statement triggers moving term counts (term-count-statements.ts) find the
 * published listings of the links a statement added or removed by their ids, instead of joining the links to
 * `listings`. The planner estimated that join from the transition table and the published listings, and
 * chose a hash join reading every published listing (a sequential or index scan of the whole table, twice per
 * statement: measured 11-50 ms per 100 listings' links at 10,000 listings, growing with the table), whatever
 * the statement's size. Now the listing ids are an array, looked up in the primary key (`= ANY`), and the
 * links are counted against the array of published ones: the work follows the statement, not the table.
 *
 * The rule, the locks and their order are term-count-statements.ts's: the listings of the links share-locked
 * in id order, then (only for links of published listings) their terms locked for update in id order, then
 * each term moved once. SQLite has no statement triggers: nothing changes there.
 */
export async function countTermsByListingIds(db: AnyDb): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const statement of POSTGRES) await sql.raw(statement).execute(db);
}

/** The body of a function moving the counts of the links in `links` by `sign` (1 added, -1 removed). */
const moveCounts = (links: string, sign: 1 | -1) => `
   DECLARE
     linked integer[] := ARRAY(SELECT DISTINCT listing_id FROM ${links});
     published integer[];
   BEGIN
     PERFORM 1 FROM listings WHERE id = ANY (linked) ORDER BY id FOR SHARE;
     published := ARRAY(SELECT id FROM listings WHERE id = ANY (linked) AND status = 'publish');
     IF cardinality(published) = 0 THEN RETURN NULL; END IF;
     PERFORM 1 FROM terms WHERE id IN (SELECT term_id FROM ${links} WHERE listing_id = ANY (published)) ORDER BY id FOR UPDATE;
     UPDATE terms t SET count = t.count ${sign === 1 ? '+' : '-'} moved.n
       FROM (SELECT term_id, count(*) AS n FROM ${links} WHERE listing_id = ANY (published) GROUP BY term_id) moved
      WHERE t.id = moved.term_id;
     RETURN NULL;
   END`;

const POSTGRES = [
  `CREATE OR REPLACE FUNCTION listing_terms_count_added() RETURNS trigger LANGUAGE plpgsql AS $$${moveCounts('added_links', 1)} $$`,
  `CREATE OR REPLACE FUNCTION listing_terms_count_removed() RETURNS trigger LANGUAGE plpgsql AS $$${moveCounts('removed_links', -1)} $$`,
];
