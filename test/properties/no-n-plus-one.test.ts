import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStorage } from '../../src/adapters/storage/index.js';
import { buildApp, createServices, type Services } from '../../src/app.js';
import { CacheStamps } from '../../src/db/cache-versions.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { ListingRecords } from '../../src/modules/properties/listing-records.service.js';
import { TEST_JWT_SECRET, testConfig } from '../helpers/app.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { bearer, links, newAgencyWithAgent, newListing, newTerm, tokenFor, unique } from '../helpers/factories.js';
import { SelectCounter } from '../helpers/select-counter.js';

const API = '/realty-api/v1';
const LISTINGS = 100;
const IMAGES_PER_LISTING = 7;

/**
 * A page of summaries costs a fixed number of queries, whatever its size (../shared/CONVENTIONS.md habit 5): listings
 * with terms in four taxonomies, two agents, an agency and a gallery longer than the summary's five images.
 */
describeEachDialect('no N+1 in listing pages (%s)', (dialect) => {
  const config = testConfig();
  let database: TestDatabase;
  /** Counts every SELECT the application below runs through the database (not the cache-stamp reads). */
  const appSelects = new SelectCounter();
  let services: Services;
  let app: FastifyInstance;
  let agencyUser: UserRow;
  let ids: number[];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const db = database.db;
    const deps = { config, database: { ...database, db: db.withPlugin(appSelects) }, jwtSecret: TEST_JWT_SECRET };
    services = createServices(deps);
    app = await buildApp(deps, services);
    await app.ready();

    const directory = await newAgencyWithAgent(db);
    agencyUser = directory.agencyUser;
    const now = new Date().toISOString();
    const secondAgent = await db
      .insertInto('agents')
      .values({
        name: 'Second agent',
        slug: unique('agent-'),
        sort_key: 'second agent',
        agency_id: directory.agencyId,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const term = (taxonomy: Parameters<typeof newTerm>[1]) => newTerm(services.taxonomies, taxonomy);
    const [type, status, pool, garden, city] = [
      await term('property_type'),
      await term('property_status'),
      await term('property_feature'),
      await term('property_feature'),
      await term('property_city'),
    ];
    const terms = [
      ...links('property_type', type),
      ...links('property_status', status),
      ...links('property_feature', pool, garden),
      ...links('property_city', city),
    ];
    ids = [];
    for (let i = 0; i < LISTINGS; i++) {
      ids.push(await newListing(db, { author_id: agencyUser.id, agency_id: directory.agencyId, terms, title: `Listing ${i}` }));
    }
    await db
      .insertInto('listing_agents')
      .values(
        ids.flatMap((id) =>
          [directory.agentId, secondAgent.id].map((agentId, position) => ({ listing_id: id, agent_id: agentId, position })),
        ),
      )
      .execute();
    await db
      .insertInto('media')
      .values(
        ids.flatMap((id) =>
          Array.from({ length: IMAGES_PER_LISTING }, (_, position) => ({
            owner_id: agencyUser.id,
            listing_id: id,
            position,
            storage_key: unique('image-'),
            mime_type: 'image/jpeg',
            width: 800,
            height: 600,
            size_bytes: 1000,
            created_at: now,
          })),
        ),
      )
      .execute();
    // The last image is the featured one: beyond the summary's five, it is loaded all the same.
    await db
      .updateTable('listings')
      .set((eb) => ({
        featured_image_id: eb
          .selectFrom('media')
          .select((m) => m.fn.max('media.id').as('id'))
          .whereRef('media.listing_id', '=', 'listings.id'),
      }))
      .execute();
    for (const id of ids) {
      await database.db.insertInto('favorites').values({ user_id: agencyUser.id, listing_id: id, created_at: now }).execute();
    }
  });
  afterAll(async () => {
    await app?.close();
    await services?.shutdown();
    await database?.dispose();
  });

  /** Summaries built by a ListingRecords of its own (empty cache), and the SELECTs that took. */
  const buildSummaries = async (listingIds: number[]) => {
    const counter = new SelectCounter();
    const stamps = new CacheStamps(database.readCacheVersion, database.localWrites, 0);
    const records = new ListingRecords(database.db.withPlugin(counter), stamps, {
      publicUrl: config.publicUrl,
      listingUrlTemplate: config.listings.urlTemplate,
      storage: createStorage(config),
    });
    const summaries = await records.summariesOf(listingIds);
    return { selects: counter.selects, summaries: summaries.map((loaded) => loaded.record) };
  };

  it('builds 5 or 100 summaries in the same five queries: listings, terms, agents, galleries, agencies', async () => {
    const five = await buildSummaries(ids.slice(0, 5));
    const hundred = await buildSummaries(ids);
    expect(five.selects).toBe(5);
    expect(hundred.selects).toBe(5);
    expect(hundred.summaries.map((summary) => summary.id)).toEqual(ids);
    for (const summary of hundred.summaries) {
      expect(summary.property_type).toHaveLength(1);
      expect(summary.property_status).toHaveLength(1);
      expect(summary.features).toHaveLength(2);
      expect(summary.address.city).not.toBeNull();
      expect(summary.agents).toHaveLength(2);
      expect(summary.agency).not.toBeNull();
      expect(summary.gallery).toHaveLength(5);
      expect(summary.featured_image).toMatchObject({ id: expect.any(Number) });
      expect(summary.gallery.map((media) => (media as { id: number }).id)).not.toContain((summary.featured_image as { id: number }).id);
    }
  });

  describe('through the routes', () => {
    let auth: Record<string, string>;
    beforeAll(async () => {
      auth = bearer(await tokenFor(app, agencyUser));
    });

    /** SELECTs of one request, on empty listing caches (a write renews the stamp and so empties them). */
    const selectsOf = async (url: string) => {
      await database.db.updateTable('listings').set({ views: 0 }).where('id', '=', ids[0]!).execute();
      const before = appSelects.selects;
      const res = await app.inject({ method: 'GET', url: `${API}${url}`, headers: auth });
      expect(res.statusCode, res.body).toBe(200);
      return { selects: appSelects.selects - before, count: res.json().data.properties.length as number };
    };

    it.each([
      ['/users/my-properties?per_page=5', '/users/my-properties?per_page=100', 100],
      ['/users/favorite-properties?per_page=5', '/users/favorite-properties?per_page=100', 100],
      [`/properties/{id}/similar?limit=5`, `/properties/{id}/similar?limit=20`, 20],
    ])('%s and %s take the same queries', async (small, large, largeCount) => {
      const [smallUrl, largeUrl] = [small, large].map((url) => url.replace('{id}', String(ids[0])));
      await selectsOf(smallUrl!); // warms the session cache, where there is one
      const few = await selectsOf(smallUrl!);
      const many = await selectsOf(largeUrl!);
      expect(few.count).toBe(5);
      expect(many.count).toBe(largeCount);
      expect(many.selects).toBe(few.selects);
    });
  });
});
