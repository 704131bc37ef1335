import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { jsonArrayOf } from '../../src/db/dialect/json-rows.js';
import type { DB } from '../../src/db/schema/index.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newListing } from '../helpers/factories.js';

/** Doubles whose shortest exact form needs every digit, extremes, and text that JSON escapes. */
const VALUES = {
  price: 0.1 + 0.2,
  second_price: -0.9999999999999999,
  size: 1e300,
  land_size: 5e-324,
  latitude: -25.761700000000001,
  longitude: 0.8470934835829034,
  title: 'Quote " backslash \\ tab \t, 東京 🏠',
};

describeEachDialect('a row as a JSON array (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  it('gives back every value exactly, nulls and 64-bit integers included, in the order named', async () => {
    const id = await newListing(db, VALUES);
    const columns = ['id', ...(Object.keys(VALUES) as (keyof typeof VALUES)[]), 'bedrooms', 'geo_key', 'geo_x'] as const;
    const { row, geo_key, geo_x } = await db
      .selectFrom('listings')
      .select((eb) => [
        jsonArrayOf(
          db,
          columns.map((column) => eb.ref(column)),
        ).as('row'),
        'geo_key',
        'geo_x',
      ])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // The point's key (40 bits) and unit vector are the insert's, from the coordinates.
    expect(Number(geo_key)).toBeGreaterThan(2 ** 32);
    expect(JSON.parse(row)).toEqual([id, ...Object.values(VALUES), null, Number(geo_key), geo_x]);
  });
});
