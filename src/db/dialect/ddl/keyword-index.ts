import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../index.js';

/**
 * The keyword index over `listings.search_text`, built from the rows present. SQLite's FTS5 table reads the
 * text from `listings` (external content, `detail=none`: only which listing holds a word is kept, all that
 * `hasAllTerms` asks) and is kept in step by the standard triggers of that pattern; PostgreSQL's expression
 * index follows by itself.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function createKeywordIndex(db: Kysely<any>): Promise<void> {
  const statements = dialectOf(db) === 'postgres' ? POSTGRES_INDEX : SQLITE_INDEX;
  for (const statement of statements) await sql.raw(statement).execute(db);
}

const SQLITE_INDEX = [
  `CREATE VIRTUAL TABLE listings_fts USING fts5(search_text, content='listings', content_rowid='id', tokenize='ascii', detail=none)`,
  `INSERT INTO listings_fts(listings_fts) VALUES ('rebuild')`,
  `CREATE TRIGGER listings_fts_insert AFTER INSERT ON listings
   BEGIN INSERT INTO listings_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text); END`,
  `CREATE TRIGGER listings_fts_delete AFTER DELETE ON listings
   BEGIN INSERT INTO listings_fts(listings_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text); END`,
  `CREATE TRIGGER listings_fts_update AFTER UPDATE OF search_text ON listings WHEN OLD.search_text <> NEW.search_text
   BEGIN
     INSERT INTO listings_fts(listings_fts, rowid, search_text) VALUES ('delete', OLD.id, OLD.search_text);
     INSERT INTO listings_fts(rowid, search_text) VALUES (NEW.id, NEW.search_text);
   END`,
];

const POSTGRES_INDEX = [`CREATE INDEX listings_search_idx ON listings USING gin (array_to_tsvector(string_to_array(search_text, ' ')))`];
