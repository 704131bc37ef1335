import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertRows } from '../../src/db/dialect/bulk-load.js';
import type { DB } from '../../src/db/schema/index.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';

const COLUMNS = ['id', 'label', 'amount', 'note'];

/** Text COPY must escape or would split at (tab, newline, carriage return, backslash, `\N`), and any Unicode but NUL. */
const text = fc.oneof(
  fc.constantFrom('', '\\N', '\\', 'tab\there', 'line\nbreak', 'carriage\rreturn', '\\t literal', 'back\\\\slashes', '東京 🏠'),
  fc.string({ unit: 'grapheme' }).filter((value) => !value.includes('\u0000')),
);
/** Doubles in their shortest exact form; the databases keep neither -0 nor NaN as JavaScript does. */
const amount = fc.option(
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((value) => (Object.is(value, -0) ? 0 : value)),
  { nil: null },
);

describeEachDialect('bulk row inserts (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
    await sql`create table bulk_probe (id integer primary key, label text not null, amount double precision, note text)`.execute(db);
  });
  afterAll(() => database.dispose());

  it('gives back every value as written: escapes, nulls, Unicode and doubles', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(text, amount, fc.option(text, { nil: null })), { minLength: 1, maxLength: 40 }),
        async (values) => {
          const rows = values.map(([label, value, note], n) => [n + 1, label, value, note]);
          await db.transaction().execute(async (trx) => {
            await sql`delete from bulk_probe`.execute(trx);
            await insertRows(trx, 'bulk_probe', COLUMNS, rows);
          });
          const stored = await db
            .selectFrom('bulk_probe' as never)
            .select(COLUMNS as never[])
            .orderBy('id' as never)
            .execute();
          expect(stored.map((row) => COLUMNS.map((column) => (row as Record<string, unknown>)[column]))).toEqual(rows);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('writes nothing of a statement that fails, and the transaction reports it', async () => {
    await sql`delete from bulk_probe`.execute(db);
    const write = db.transaction().execute((trx) =>
      insertRows(trx, 'bulk_probe', COLUMNS, [
        [1, 'first', 1, null],
        [1, 'the same id again', 2, null],
      ]),
    );
    await expect(write).rejects.toThrow(/unique|duplicate/i);
    const { rows } = await sql<{ n: number }>`select count(*) as n from bulk_probe`.execute(db);
    expect(Number(rows[0]!.n)).toBe(0);
  });
});
