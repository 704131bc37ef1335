import type SQLite from 'better-sqlite3';
import type { SqliteDatabase, SqliteStatement } from 'kysely';

/** Statements kept per connection: every query text the service runs, with room for the bulk inserts' shapes. */
const KEPT_STATEMENTS = 500;
/**
 * Characters of query text kept per connection. A prepared statement holds about 30 times its text in native
 * memory (500 inserts of about 1,000 values each: 53 MB), and a bulk write's last statement of each batch has
 * a length of its own: the budget keeps a bulk write's repeated shapes and the service's queries (about 8 MB).
 */
const KEPT_TEXT = 256 * 1024;

/**
 * The connection as Kysely's SQLite dialect sees it, with each query text prepared once. Kysely prepares the
 * statement again for every query, and preparing costs: a 2,000-value bulk insert is parsed in about as long
 * as it takes to run (4.2 s of a 100,000-listing seed's 32 s went to `prepare`), and a search's small reads
 * spend tens of microseconds each on it.
 *
 * A statement still being iterated (a streamed read) is busy: a query meeting it gets one of its own. SQLite
 * prepares a kept statement again by itself when the schema has changed under it (sqlite3_prepare_v3).
 * The least recently used text leaves first, when 500 are kept or their texts pass 256 KB.
 */
export function withStatementCache(connection: SQLite.Database): SqliteDatabase {
  const kept = new Map<string, SQLite.Statement>();
  let keptText = 0;
  return {
    prepare(text: string): SqliteStatement {
      const statement = kept.get(text);
      if (statement && !statement.busy) {
        kept.delete(text);
        kept.set(text, statement);
        return statement;
      }
      const fresh = connection.prepare(text);
      if (statement || text.length > KEPT_TEXT) return fresh;
      kept.set(text, fresh);
      keptText += text.length;
      while (kept.size > KEPT_STATEMENTS || keptText > KEPT_TEXT) {
        const oldest = kept.keys().next().value!;
        kept.delete(oldest);
        keptText -= oldest.length;
      }
      return fresh;
    },
    close() {
      kept.clear();
      connection.close();
    },
  };
}
