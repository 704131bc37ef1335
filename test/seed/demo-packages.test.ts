import { afterAll, beforeAll, expect, it } from 'vitest';
import { seedDemoPackages } from '../../src/seed/demo-packages.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';

describeEachDialect('demo membership packages (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.dispose());

  it('creates the four demo packages in the given currency once, in minor units', async () => {
    expect(await seedDemoPackages(database.db, 'EUR')).toBe(4);
    const rows = await database.db.selectFrom('packages').selectAll().orderBy('sort_order').execute();
    expect(rows.map((row) => [row.title, row.price_minor, row.currency, row.listings_included, row.billing_period])).toEqual([
      ['Starter', 0, 'EUR', 1, 'one_time'],
      ['Basic', 1900, 'EUR', 10, 'month'],
      ['Professional', 4900, 'EUR', 50, 'month'],
      ['Agency', 39900, 'EUR', null, 'year'],
    ]);
    expect(rows.filter((row) => row.popular === 1).map((row) => row.title)).toEqual(['Professional']);
    expect(await seedDemoPackages(database.db, 'EUR')).toBe(0);
  });
});
