import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CacheStamps, LocalWrites } from '../../src/db/cache-versions.js';
import { createDatabase, type Database, migrateToLatest } from '../../src/db/database.js';
import { TERM_ENDPOINTS } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { TaxonomiesService } from '../../src/modules/taxonomies/taxonomies.service.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { newListing } from '../helpers/factories.js';

const features = TERM_ENDPOINTS.find((e) => e.taxonomy === 'property_feature')!;

describe('CacheStamps', () => {
  it('reads at most once per max age, and at once after a local write', async () => {
    let reads = 0;
    let stamp = 'a';
    const writes = new LocalWrites();
    const stamps = new CacheStamps(async () => (reads++, stamp), writes, 60_000);
    expect(await stamps.current('terms')).toBe('a');
    stamp = 'b'; // another process changed the data
    expect(await stamps.current('terms')).toBe('a');
    expect(reads).toBe(1);
    writes.count++; // this process wrote
    expect(await stamps.current('terms')).toBe('b');
    expect(reads).toBe(2);
  });

  it('reads on every call with max age 0', async () => {
    let reads = 0;
    const stamps = new CacheStamps(async () => String(reads++), new LocalWrites(), 0);
    await stamps.current('terms');
    await stamps.current('terms');
    expect(reads).toBe(2);
  });
});

describeEachDialect('cached term listings (%s)', (dialect) => {
  let database: TestDatabase;
  let taxonomies: TaxonomiesService;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    taxonomies = new TaxonomiesService(database.db, new CacheStamps(database.readCacheVersion, database.localWrites, 60_000));
  });
  afterAll(() => database.dispose());

  it('returns the same answer object while nothing changes, and a fresh one after any change of this process', async () => {
    const term = await taxonomies.createTerm('property_feature', { name: 'Cached Pool' });
    const query = { include: String(term.id) };
    const first = await taxonomies.listTerms(features, query);
    expect(await taxonomies.listTerms(features, query)).toBe(first);
    expect(first[0]?.count).toBe(0);

    // A write made outside the service (the listings code, a trigger) still shows at once.
    await newListing(database.db, { terms: [{ termId: term.id, taxonomy: 'property_feature' }] });
    const after = await taxonomies.listTerms(features, query);
    expect(after).not.toBe(first);
    expect(after[0]?.count).toBe(1);
  });
});

describe('cached term listings across processes', () => {
  let dir: string;
  let writer: Database;
  let reader: Database;
  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-stamps-'));
    const file = path.join(dir, 'shared.db');
    writer = createDatabase({ kind: 'sqlite', path: file });
    await migrateToLatest(writer.db);
    reader = createDatabase({ kind: 'sqlite', path: file });
  });
  afterAll(async () => {
    await writer.destroy();
    await reader.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("sees another connection's change on the next read with CACHE_REVALIDATE_MS=0, and within the max age otherwise", async () => {
    const writing = new TaxonomiesService(writer.db, new CacheStamps(writer.readCacheVersion, writer.localWrites, 0));
    const exact = new TaxonomiesService(reader.db, new CacheStamps(reader.readCacheVersion, reader.localWrites, 0));
    const lagging = new TaxonomiesService(reader.db, new CacheStamps(reader.readCacheVersion, reader.localWrites, 1000));
    const query = { search: 'shared' };
    // The stamps' clock (performance.now()) moves only when the test says so: the max age is exact.
    vi.useFakeTimers({ toFake: ['performance'] });
    try {
      expect(await exact.listTerms(features, query)).toEqual([]);
      expect(await lagging.listTerms(features, query)).toEqual([]);

      await writing.createTerm('property_feature', { name: 'Shared Sauna' });
      expect((await exact.listTerms(features, query)).map((t) => t.name)).toEqual(['Shared Sauna']);
      vi.advanceTimersByTime(999);
      expect(await lagging.listTerms(features, query)).toEqual([]);
      vi.advanceTimersByTime(1);
      expect((await lagging.listTerms(features, query)).map((t) => t.name)).toEqual(['Shared Sauna']);
    } finally {
      vi.useRealTimers();
    }
  });
});
