import SQLite from 'better-sqlite3';
import { type Generated, Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { withStatementCache } from '../../src/db/sqlite-statement-cache.js';

describe('withStatementCache', () => {
  const opened: SQLite.Database[] = [];
  afterEach(() => {
    for (const connection of opened.splice(0)) if (connection.open) connection.close();
  });
  function connection(): SQLite.Database {
    const made = new SQLite(':memory:');
    opened.push(made);
    made.exec('create table t (id integer primary key, name text)');
    return made;
  }

  it('prepares a query text once and hands the same statement back', () => {
    const cache = withStatementCache(connection());
    const first = cache.prepare('select * from t where id = ?');
    expect(cache.prepare('select * from t where id = ?')).toBe(first);
    expect(cache.prepare('select * from t where id = ? ')).not.toBe(first);
  });

  it('gives a statement of its own to a query meeting one still being iterated', () => {
    const raw = connection();
    raw.exec("insert into t (name) values ('a'), ('b')");
    const cache = withStatementCache(raw);
    const streaming = cache.prepare('select name from t order by id');
    const rows = streaming.iterate([]);
    expect(rows.next().value).toEqual({ name: 'a' });
    const other = cache.prepare('select name from t order by id');
    expect(other).not.toBe(streaming);
    expect(other.all([])).toEqual([{ name: 'a' }, { name: 'b' }]);
    expect(rows.next().value).toEqual({ name: 'b' });
    rows.return?.();
    expect(cache.prepare('select name from t order by id')).toBe(streaming);
  });

  it('lets the least recently used text go first once 500 are kept', () => {
    const cache = withStatementCache(connection());
    const oldest = cache.prepare('select 0');
    const used = cache.prepare('select 1');
    for (let n = 2; n < 500; n++) cache.prepare(`select ${n}`);
    expect(cache.prepare('select 1')).toBe(used); // now the most recent
    cache.prepare('select 500');
    expect(cache.prepare('select 1')).toBe(used);
    expect(cache.prepare('select 0')).not.toBe(oldest);
  });

  it('keeps no more than 256 KB of query text, the least recently used leaving first', () => {
    const cache = withStatementCache(connection());
    const padded = (n: number) => `select ${n} /* ${'x'.repeat(50_000)} */`; // about 50 KB each
    const first = cache.prepare(padded(0));
    const second = cache.prepare(padded(1));
    for (let n = 2; n < 5; n++) cache.prepare(padded(n));
    expect(cache.prepare(padded(0))).toBe(first); // five fit, and 0 is now the most recent
    cache.prepare(padded(5)); // the sixth pushes out the least recent: 1
    expect(cache.prepare(padded(0))).toBe(first);
    expect(cache.prepare(padded(1))).not.toBe(second);
    expect(cache.prepare(padded(2))).toBe(cache.prepare(padded(2)));
    const huge = `select 1 /* ${'x'.repeat(300_000)} */`;
    expect(cache.prepare(huge)).not.toBe(cache.prepare(huge)); // larger than the budget: never kept
  });

  it('keeps answering right through Kysely when the schema changes under a kept statement', async () => {
    const db = new Kysely<{ t: { id: Generated<number>; name: string } }>({
      dialect: new SqliteDialect({ database: withStatementCache(connection()) }),
    });
    await db.insertInto('t').values({ name: 'a' }).execute();
    const read = () => db.selectFrom('t').selectAll().execute();
    expect(await read()).toEqual([{ id: 1, name: 'a' }]);
    await sql`alter table t add column extra text default 'x'`.execute(db);
    await sql`create index t_name on t (name)`.execute(db);
    expect(await read()).toEqual([{ id: 1, name: 'a', extra: 'x' }]);
    await expect(db.insertInto('t').values({ id: 1, name: 'again' }).execute()).rejects.toThrow(/UNIQUE/);
    await db.insertInto('t').values({ name: 'b' }).execute();
    expect((await read()).map((row) => row.name)).toEqual(['a', 'b']);
    await db.destroy();
  });
});
