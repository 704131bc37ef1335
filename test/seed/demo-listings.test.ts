import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DiskStorage } from '../../src/adapters/storage/disk-storage.js';
import type { DB, ListingRow } from '../../src/db/schema/index.js';
import { slugify, sortKey } from '../../src/lib/slug.js';
import { type DemoListingsSummary, seedDemoListings } from '../../src/seed/demo-listings.js';
import { DEMO_TYPES, FEATURE_COUNT, PRICE_SPREAD } from '../../src/seed/demo-listing-types.js';
import { DEMO_CITIES, distanceKm, SQFT_PER_M2 } from '../../src/seed/demo-places.js';
import { PROPERTY_FEATURES } from '../../src/seed/demo-terms.js';
import { seedDemoTerms } from '../../src/seed/seed-demo.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { startProgram } from '../helpers/programs.js';

const API = '/realty-api/v1';
const COUNT = 200;
const SEED = 7;
const NOW = new Date('2026-06-01T12:00:00.000Z');
const DAY_MS = 86_400_000;
/** Rounding of prices (to 10 or 1,000) and of sizes (to whole units) on top of the ±20 % spread. */
const ROUNDING = 0.05;

interface TermOfListing {
  listing_id: number;
  term_id: number;
  link_taxonomy: string;
  taxonomy: string;
  name: string;
  location_parent_id: number | null;
}

describeEachDialect('demo listings (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let uploads: string;
  let summary: DemoListingsSummary;
  let listings: ListingRow[];
  let termsOf: Map<number, TermOfListing[]>;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: 'https://realty.example' });
    db = t.database.db;
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-demo-'));
    await seedDemoTerms(t.services.taxonomies);
    // A feature an administrator added: demo listings use the demo features only.
    await t.services.taxonomies.createTerm('property_feature', { name: 'Helipad' });
    const storage = new DiskStorage(uploads, 'https://realty.example');
    summary = await seedDemoListings(db, t.services.users, storage, { count: COUNT, seed: SEED, now: NOW });
    listings = await db.selectFrom('listings').selectAll().orderBy('id').execute();
    const links = await db
      .selectFrom('listing_terms as lt')
      .innerJoin('terms as t', 't.id', 'lt.term_id')
      .select(['lt.listing_id', 'lt.term_id', 'lt.taxonomy as link_taxonomy', 't.taxonomy', 't.name', 't.location_parent_id'])
      .orderBy('lt.listing_id')
      .orderBy('lt.position')
      .execute();
    termsOf = new Map();
    for (const link of links) termsOf.set(link.listing_id, [...(termsOf.get(link.listing_id) ?? []), link]);
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  const only = (listing: ListingRow, taxonomy: string) => (termsOf.get(listing.id) ?? []).filter((term) => term.taxonomy === taxonomy);
  const one = (listing: ListingRow, taxonomy: string) => {
    const terms = only(listing, taxonomy);
    expect(terms, `${taxonomy} of listing ${listing.id}`).toHaveLength(1);
    return terms[0] as TermOfListing;
  };

  it('writes the requested number of listings, mostly published, with unique slugs from their titles', () => {
    expect(listings).toHaveLength(COUNT);
    const published = listings.filter((l) => l.status === 'publish').length;
    expect(summary).toEqual({ listings: COUNT, published, images: 7, mode: 'fresh' });
    expect(published / COUNT).toBeGreaterThan(0.7);
    expect(new Set(listings.map((l) => l.status))).toEqual(new Set(['publish', 'pending', 'draft', 'sold']));
    expect(new Set(listings.map((l) => l.slug)).size).toBe(COUNT);
    for (const listing of listings) {
      expect(listing.slug).toMatch(new RegExp(`^${slugify(listing.title)}-\\d+$`));
      expect(listing.sort_title).toBe(sortKey(listing.title));
      expect(listing.excerpt.length).toBeGreaterThan(20);
      expect([...listing.excerpt].length).toBeLessThanOrEqual(160);
      expect(listing.description).toMatch(/^<p>.+<\/p>$/);
    }
  });

  it('links every listing to terms of the right taxonomies, locations nested country → state → city → area', () => {
    for (const listing of listings) {
      for (const term of termsOf.get(listing.id) ?? []) expect(term.link_taxonomy).toBe(term.taxonomy);
      one(listing, 'property_type');
      const statuses = only(listing, 'property_status').map((s) => s.name);
      expect(statuses[0]).toBe(listing.price_postfix === '/month' ? 'For Rent' : 'For Sale');
      expect(statuses.slice(1)).toEqual(statuses.length > 1 ? ['New Construction'] : []);
      expect(only(listing, 'property_label').length).toBeLessThanOrEqual(1);
      const features = only(listing, 'property_feature').map((f) => f.name);
      expect(features.length).toBeGreaterThanOrEqual(FEATURE_COUNT.land[0]);
      expect(features.length).toBeLessThanOrEqual(FEATURE_COUNT.residential[1]);
      for (const name of features) expect(PROPERTY_FEATURES).toContain(name);
      const coastal = DEMO_CITIES.find((x) => x.city === one(listing, 'property_city').name)?.coastal;
      if (!coastal) expect(features).not.toContain('Sea View');
      const [country, state, city, area] = ['property_country', 'property_state', 'property_city', 'property_area'].map((x) =>
        one(listing, x),
      );
      expect(state?.location_parent_id).toBe(country?.term_id);
      expect(city?.location_parent_id).toBe(state?.term_id);
      expect(area?.location_parent_id).toBe(city?.term_id);
    }
  });

  it('prices fit the type, the city and the area; sizes and rooms fit the type', () => {
    for (const listing of listings) {
      const type = DEMO_TYPES.find((x) => x.name === one(listing, 'property_type').name);
      const city = DEMO_CITIES.find((x) => x.city === one(listing, 'property_city').name);
      const area = city?.areas.find((x) => x.name === one(listing, 'property_area').name);
      if (!type || !city || !area) throw new Error(`listing ${listing.id} is of an unknown type or place`);
      const rental = listing.price_postfix === '/month';
      expect(rental && !type.rentable).toBe(false);
      expect(listing.currency).toBe(city.currency);
      expect(listing.size_unit).toBe(city.sizeUnit);
      const toM2 = (value: number) => (city.sizeUnit === 'sqft' ? value / SQFT_PER_M2 : value);

      const priced = type.floorM2 ? listing.size : listing.land_size;
      expect(priced, `listing ${listing.id}`).not.toBeNull();
      const m2 = toM2(Number(priced));
      const range = type.floorM2 ?? type.landM2;
      expect(m2).toBeGreaterThanOrEqual((range?.[0] ?? 0) - 1);
      expect(m2).toBeLessThanOrEqual((range?.[1] ?? 0) + 1);
      const typical = m2 * (rental ? city.rentPerM2 : city.salePerM2) * area.priceFactor * type.priceFactor;
      const price = Number(listing.price);
      expect(price).toBeGreaterThan(0);
      expect(price / typical, `listing ${listing.id}: ${listing.title}`).toBeGreaterThanOrEqual(1 - PRICE_SPREAD - ROUNDING);
      expect(price / typical, `listing ${listing.id}: ${listing.title}`).toBeLessThanOrEqual(1 + PRICE_SPREAD + ROUNDING);

      if (type.bedrooms) {
        expect(listing.bedrooms).toBeGreaterThanOrEqual(type.bedrooms[0]);
        expect(listing.bedrooms).toBeLessThanOrEqual(type.bedrooms[1]);
        expect(listing.bathrooms).toBeGreaterThanOrEqual(1);
        expect(listing.rooms).toBeGreaterThan(Number(listing.bedrooms));
      } else {
        expect(listing.bedrooms).toBeNull();
      }
      if (type.kind === 'land') expect([listing.size, listing.year_built, listing.bathrooms]).toEqual([null, null, null]);
      else expect(listing.year_built).toBeGreaterThanOrEqual(city.builtSince);
    }
  });

  it('puts every listing inside its area, and so inside its city', () => {
    for (const listing of listings) {
      const city = DEMO_CITIES.find((x) => x.city === one(listing, 'property_city').name);
      const area = city?.areas.find((x) => x.name === one(listing, 'property_area').name);
      if (!city || !area) throw new Error(`listing ${listing.id} is in an unknown place`);
      const point = { latitude: Number(listing.latitude), longitude: Number(listing.longitude) };
      expect(distanceKm(point, area)).toBeLessThanOrEqual(area.radiusKm * 1.01);
      expect(distanceKm(point, city)).toBeLessThanOrEqual(city.radiusKm);
    }
  });

  it('dates published listings over the last two years and leaves drafts and pending ones unpublished', () => {
    for (const listing of listings) {
      if (listing.status === 'publish' || listing.status === 'sold') {
        const published = Date.parse(listing.published_at ?? '');
        expect(published).toBeGreaterThanOrEqual(NOW.getTime() - 731 * DAY_MS);
        expect(published).toBeLessThanOrEqual(NOW.getTime());
        expect(listing.updated_at >= (listing.published_at ?? '')).toBe(true);
      } else {
        expect(listing.published_at).toBeNull();
        expect(listing.featured).toBe(0);
      }
    }
  });

  it('keeps every listing term count equal to the published listings linked to it', async () => {
    const rows = await db
      .selectFrom('terms as t')
      .select((eb) => [
        't.id',
        't.count',
        eb
          .selectFrom('listing_terms as lt')
          .innerJoin('listings as l', 'l.id', 'lt.listing_id')
          .select((inner) => inner.fn.countAll<number>().as('n'))
          .whereRef('lt.term_id', '=', 't.id')
          .where('l.status', '=', 'publish')
          .as('published'),
      ])
      .where('t.taxonomy', 'not in', ['agent_category', 'agent_city'])
      .execute();
    expect(rows.filter((row) => Number(row.count) !== Number(row.published))).toEqual([]);
    expect(rows.some((row) => Number(row.count) > 0)).toBe(true);
  });

  it('credits agency listings to agents of that agency, and private listings to owners and sellers', async () => {
    const agents = await db
      .selectFrom('listing_agents as la')
      .innerJoin('agents as a', 'a.id', 'la.agent_id')
      .select(['la.listing_id', 'la.position', 'a.user_id', 'a.agency_id'])
      .orderBy('la.position')
      .execute();
    const agencies = new Map((await db.selectFrom('agencies').select(['id', 'user_id']).execute()).map((a) => [a.id, a.user_id]));
    const roles = new Map((await db.selectFrom('users').select(['id', 'role', 'password_hash']).execute()).map((u) => [u.id, u]));
    const displays = new Set<string>();
    for (const listing of listings) {
      const named = agents.filter((a) => a.listing_id === listing.id);
      displays.add(listing.agent_display);
      if (listing.agent_display === 'author_info') {
        expect(named).toEqual([]);
        expect(listing.agency_id).toBeNull();
        expect(['owner', 'seller']).toContain(roles.get(listing.author_id as number)?.role);
        continue;
      }
      expect(named.length).toBeGreaterThanOrEqual(1);
      expect(listing.reference).toMatch(/^[A-Z]{3}-\d{6}$/);
      for (const agent of named) expect(agent.agency_id).toBe(listing.agency_id);
      if (listing.agent_display === 'agent_info') expect(named[0]?.user_id).toBe(listing.author_id);
      else expect(agencies.get(listing.agency_id as number)).toBe(listing.author_id);
    }
    expect(displays).toEqual(new Set(['agent_info', 'agency_info', 'author_info']));
    // Demo accounts cannot sign in: none of them has a password.
    expect([...roles.values()].filter((u) => u.password_hash !== null)).toEqual([]);
  });

  it('gives each listing one to four pictures owned by its author, sharing a few stored files', async () => {
    const media = await db
      .selectFrom('media')
      .selectAll()
      .where('listing_id', 'is not', null)
      .orderBy('listing_id')
      .orderBy('position')
      .execute();
    const keys = new Set(media.map((m) => m.storage_key));
    expect(keys.size).toBeLessThanOrEqual(7);
    for (const key of keys) expect(fs.existsSync(path.join(uploads, key)), key).toBe(true);
    for (const item of media) {
      const sizes = JSON.parse(item.sizes) as Record<string, { key: string; width: number }>;
      expect(Object.keys(sizes).sort()).toEqual(['large', 'medium', 'thumbnail']);
      for (const size of Object.values(sizes)) expect(fs.existsSync(path.join(uploads, size.key)), size.key).toBe(true);
    }
    for (const listing of listings) {
      const gallery = media.filter((m) => m.listing_id === listing.id);
      expect(gallery.length).toBeGreaterThanOrEqual(1);
      expect(gallery.length).toBeLessThanOrEqual(4);
      expect(gallery.map((m) => m.position)).toEqual(gallery.map((_, i) => i));
      expect(new Set(gallery.map((m) => m.storage_key)).size).toBe(gallery.length);
      for (const item of gallery) expect([item.owner_id, item.mime_type]).toEqual([listing.author_id, 'image/jpeg']);
    }
  });

  it('gives agencies and agents their details, a logo or portrait, categories and cities', async () => {
    const agencies = await db.selectFrom('agencies').selectAll().execute();
    expect(agencies.length).toBeGreaterThan(0);
    for (const agency of agencies) {
      expect(agency.description).toMatch(/^<p>.+<\/p>$/);
      expect(agency.website).toMatch(/^https:\/\//);
      expect([agency.latitude, agency.longitude].every((value) => typeof value === 'number')).toBe(true);
      expect(JSON.parse(agency.social)).toHaveProperty('facebook');
      const logo = await db
        .selectFrom('media')
        .selectAll()
        .where('id', '=', agency.logo_media_id as number)
        .executeTakeFirstOrThrow();
      expect([logo.owner_id, logo.listing_id]).toEqual([agency.user_id, null]);
      expect(fs.existsSync(path.join(uploads, logo.storage_key))).toBe(true);
    }
    const agents = await db.selectFrom('agents').selectAll().execute();
    const agentTerms = await db.selectFrom('agent_terms').selectAll().execute();
    for (const agent of agents) {
      expect(agent.bio).not.toBe('');
      expect((JSON.parse(agent.languages) as string[]).length).toBeGreaterThan(0);
      expect(agent.picture_media_id).not.toBeNull();
      const taxonomies = new Set(agentTerms.filter((link) => link.agent_id === agent.id).map((link) => link.taxonomy));
      expect(taxonomies.has('agent_category')).toBe(true);
    }
    // The triggers of 0004 count the visible agents using each agent term.
    const counts = await db.selectFrom('terms').select(['id', 'count']).where('taxonomy', 'in', ['agent_category', 'agent_city']).execute();
    for (const term of counts)
      expect(Number(term.count), `term ${term.id}`).toBe(agentTerms.filter((link) => link.term_id === term.id).length);
  });

  it('spreads reviews over public listings, agents and agencies, with exact stored aggregates', async () => {
    const reviews = await db.selectFrom('reviews').selectAll().execute();
    const of = (type: string, id: number) => reviews.filter((review) => review.target_type === type && review.target_id === id);
    const reviewed = listings.filter((listing) => of('property', listing.id).length > 0);
    expect(reviewed.length).toBeGreaterThan(0);
    for (const listing of listings) {
      const own = of('property', listing.id);
      if (own.length > 0) expect(['publish', 'sold']).toContain(listing.status);
      const sum = own.reduce((total, review) => total + review.rating, 0);
      expect([listing.rating_sum, listing.reviews_count]).toEqual([sum, own.length]);
      expect(listing.rating).toBe(own.length ? Math.round((sum * 10) / own.length) / 10 : null);
      expect(new Set(own.map((review) => review.author_id)).size).toBe(own.length);
    }
    for (const table of ['agents', 'agencies'] as const) {
      const rows = await db.selectFrom(table).select(['id', 'rating_sum', 'reviews_count']).execute();
      const type = table === 'agents' ? 'agent' : 'agency';
      for (const row of rows) {
        const own = of(type, row.id);
        expect(own.length, `${type} ${row.id}`).toBeGreaterThan(0);
        expect([row.rating_sum, row.reviews_count]).toEqual([own.reduce((total, review) => total + review.rating, 0), own.length]);
      }
    }
    expect(reviews.every((review) => review.rating >= 1 && review.rating <= 5 && review.content !== '')).toBe(true);
  });

  it('records the creation of each listing as its first state transition', async () => {
    const transitions = await db.selectFrom('listing_transitions').selectAll().orderBy('listing_id').execute();
    expect(transitions.map((x) => [x.listing_id, x.from_state, x.to_state, x.actor_id, x.at])).toEqual(
      listings.map((l) => [l.id, null, l.status, l.author_id, l.created_at]),
    );
  });

  it('serves a seeded listing through the API with its gallery', async () => {
    const listing = listings.find((l) => l.status === 'publish') as ListingRow;
    const res = await t.app.inject({ method: 'GET', url: `${API}/properties/${listing.id}` });
    expect(res.statusCode, res.body).toBe(200);
    const record = res.json().data;
    expect([record.id, record.title, record.price]).toEqual([listing.id, listing.title, Number(listing.price)]);
    expect(record.gallery.length).toBeGreaterThanOrEqual(1);
    expect(record.gallery[0].url).toMatch(/^https:\/\/realty\.example\/uploads\/\d{4}\/\d{2}\/[0-9a-f]{32}\.jpg$/);
  });

  it('generates the same listings from the same seed, reusing the demo accounts on a second run', async () => {
    const users = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    const storage = new DiskStorage(uploads, 'https://realty.example');
    await seedDemoListings(db, t.services.users, storage, { count: 20, seed: SEED, now: NOW });
    const again = await db
      .selectFrom('listings')
      .select(['title', 'slug', 'price'])
      .where('id', '>', listings.at(-1)?.id as number)
      .orderBy('id')
      .execute();
    expect(again.map((l) => [l.title, Number(l.price)])).toEqual(listings.slice(0, 20).map((l) => [l.title, Number(l.price)]));
    expect(new Set([...listings.map((l) => l.slug), ...again.map((l) => l.slug)]).size).toBe(COUNT + 20);
    const usersAfter = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(usersAfter.n)).toBe(Number(users.n));
    // Agencies and agents got their details and reviews once.
    const directoryReviews = await db
      .selectFrom('reviews')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('target_type', '!=', 'property')
      .executeTakeFirstOrThrow();
    const aggregated = await db
      .selectFrom('agencies')
      .select((eb) => eb.fn.sum<number>('reviews_count').as('n'))
      .executeTakeFirstOrThrow();
    const agentAggregated = await db
      .selectFrom('agents')
      .select((eb) => eb.fn.sum<number>('reviews_count').as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(directoryReviews.n)).toBe(Number(aggregated.n) + Number(agentAggregated.n));

    await seedDemoListings(db, t.services.users, storage, { count: 20, seed: SEED + 1, now: NOW });
    const other = await sql<{ title: string }>`select title from listings order by id desc limit 20`.execute(db);
    expect(other.rows.map((r) => r.title)).not.toEqual(again.map((l) => l.title).reverse());
  });

  it('drafts on a worker thread the very listings it drafts here', async () => {
    const storage = new DiskStorage(uploads, 'https://realty.example');
    const before = await sql<{ id: number }>`select max(id) as id from listings`.execute(db);
    await seedDemoListings(db, t.services.users, storage, { count: 20, seed: SEED, now: NOW, draftOnWorker: true });
    const drafted = await db
      .selectFrom('listings')
      .select(['title', 'price', 'bedrooms', 'latitude', 'longitude', 'status'])
      .where('id', '>', Number(before.rows[0]!.id))
      .orderBy('id')
      .execute();
    const fields = (l: Pick<ListingRow, 'title' | 'price' | 'bedrooms' | 'latitude' | 'longitude' | 'status'>) => [
      l.title,
      Number(l.price),
      l.bedrooms,
      l.latitude,
      l.longitude,
      l.status,
    ];
    expect(drafted.map(fields)).toEqual(listings.slice(0, 20).map(fields));
  });
});

describe('seed --properties on the command line', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-seed-cli-'));
  });
  afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));

  const run = (args: string[]) =>
    new Promise<{ code: number | null; out: string }>((resolve) => {
      const child = startProgram('main.mjs', args, {
        cwd,
        env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', DATABASE_URL: 'sqlite:./cli.db' },
      });
      let out = '';
      child.stdout.on('data', (chunk) => (out += chunk));
      child.stderr.on('data', (chunk) => (out += chunk));
      child.on('exit', (code) => resolve({ code, out }));
    });

  it('refuses a count outside 1..1,000,000 before touching the database', async () => {
    // The refusals change nothing, so they run side by side.
    const bads = ['0', '1000001', 'ten'];
    const [misplaced, ...refused] = await Promise.all([
      run(['migrate', '--properties', '5']),
      ...bads.map((bad) => run(['seed', `--properties=${bad}`])),
    ]);
    for (const [n, bad] of bads.entries()) {
      const { code, out } = refused[n]!;
      expect(code, out).toBe(1);
      expect(out).toContain(`--properties must be a whole number from 1 to 1,000,000 (got "${bad}")`);
    }
    expect(misplaced).toMatchObject({
      code: 1,
      out: expect.stringContaining('--properties goes with the seed command'),
    });
    expect(fs.existsSync(path.join(cwd, 'cli.db'))).toBe(false);
  });

  it('seeds the demo terms and the listings, with a plain progress line when stderr is not a terminal', async () => {
    const { code, out } = await run(['seed', '--properties', '30']);
    expect(code, out).toBe(0);
    expect(out).toMatch(/listings 30\/30 {2}100 %/);
    expect(out).toMatch(/created \d+ demo terms, 30 demo listings \(\d+ published\) sharing 7 pictures in [\d.]+ s/);
    expect(fs.readdirSync(path.join(cwd, 'data/uploads')).length).toBeGreaterThan(0);
  });
});
