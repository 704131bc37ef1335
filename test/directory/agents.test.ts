import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { errorBody } from '../helpers/expectations.js';
import { newAgency, newAgencyWithAgent, newAgent, newListing, newMedia, newTerm, newUser, signIn, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const agentIdsOf = (res: LightMyRequestResponse): number[] => res.json().data.agents.map((a: { id: number }) => a.id);
const propertyIdsOf = (res: LightMyRequestResponse): number[] => res.json().data.properties.map((p: { id: number }) => p.id);

const AGENT_KEYS = [
  'id',
  'user_id',
  'name',
  'slug',
  'url',
  'position',
  'company',
  'bio',
  'email',
  'phone',
  'mobile',
  'whatsapp',
  'fax',
  'website',
  'license',
  'tax_number',
  'languages',
  'service_areas',
  'specialties',
  'picture_url',
  'social',
  'categories',
  'cities',
  'agency',
  'properties_count',
  'rating',
  'reviews_count',
  'visible',
].sort();
const NO_SOCIAL = { facebook: null, twitter: null, linkedin: null, instagram: null, youtube: null, pinterest: null, tiktok: null };

describeEachDialect('agents: lists, search, records and listings (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const get = (url: string, auth: Auth = {}) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth });
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };
  /** Every visible agent fits one page here; `mine` keeps the given agents in the order the API listed them. */
  const listed = async (url: string, mine: readonly number[]) => agentIdsOf(await get(url)).filter((id) => mine.includes(id));
  const nameAgent = (agentId: number, listingId: number, position = 0) =>
    db.insertInto('listing_agents').values({ listing_id: listingId, agent_id: agentId, position }).execute();

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  it('answers the full agent record', async () => {
    const { agencyId, agentUser, agentId } = await newAgencyWithAgent(db);
    const agencyRow = await db.selectFrom('agencies').select(['name', 'slug']).where('id', '=', agencyId).executeTakeFirstOrThrow();
    const sizes = JSON.stringify({ medium: { key: 'pics/portrait-medium.jpg', width: 600, height: 600 } });
    const picture = await newMedia(db, agentUser.id, { storage_key: `pics/${unique('p')}.jpg`, sizes });
    const category = await newTerm(t.services.taxonomies, 'agent_category', { name: 'Luxury homes' });
    const city = await newTerm(t.services.taxonomies, 'agent_city', { name: 'Miami' });
    await db
      .updateTable('agents')
      .set({
        position: 'Broker',
        company: 'Sun & Sea',
        bio: 'Twenty years on the coast.',
        email: 'agent@example.test',
        phone: '+1 305 555 0100',
        mobile: '+1 305 555 0101',
        whatsapp: '+1 305 555 0102',
        fax: '+1 305 555 0103',
        website: 'https://agent.example',
        license: 'FL-123',
        tax_number: 'TX-9',
        languages: JSON.stringify(['English', 'Español']),
        service_areas: 'Miami Beach',
        specialties: 'Condos',
        picture_media_id: picture.id,
        social: JSON.stringify({ facebook: 'https://facebook.com/agent', tiktok: 'https://tiktok.com/@agent' }),
        rating_sum: 14,
        reviews_count: 3,
      })
      .where('id', '=', agentId)
      .execute();
    await db
      .insertInto('agent_terms')
      .values([
        { agent_id: agentId, term_id: city.id, taxonomy: 'agent_city', position: 0 },
        { agent_id: agentId, term_id: category.id, taxonomy: 'agent_category', position: 0 },
      ])
      .execute();
    for (const status of ['publish', 'publish', 'pending', 'sold'] as const) await nameAgent(agentId, await newListing(db, { status }));
    await newListing(db, { status: 'publish' }); // not naming the agent

    const res = await get(`/agents/${agentId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, no-cache');
    expect(res.headers.etag).toMatch(/^W\//);
    const agent = res.json().data;
    expect(Object.keys(agent).sort()).toEqual(AGENT_KEYS);
    const slug = (await db.selectFrom('agents').select('slug').where('id', '=', agentId).executeTakeFirstOrThrow()).slug;
    expect(agent).toEqual({
      id: agentId,
      user_id: agentUser.id,
      name: agentUser.display_name,
      slug,
      url: `${t.config.publicUrl}/agent/${slug}`,
      position: 'Broker',
      company: 'Sun & Sea',
      bio: 'Twenty years on the coast.',
      email: 'agent@example.test',
      phone: '+1 305 555 0100',
      mobile: '+1 305 555 0101',
      whatsapp: '+1 305 555 0102',
      fax: '+1 305 555 0103',
      website: 'https://agent.example',
      license: 'FL-123',
      tax_number: 'TX-9',
      languages: ['English', 'Español'],
      service_areas: 'Miami Beach',
      specialties: 'Condos',
      picture_url: `${t.config.publicUrl}/uploads/pics/portrait-medium.jpg`,
      social: { ...NO_SOCIAL, facebook: 'https://facebook.com/agent', tiktok: 'https://tiktok.com/@agent' },
      categories: [{ id: category.id, name: 'Luxury homes', slug: category.slug }],
      cities: [{ id: city.id, name: 'Miami', slug: city.slug }],
      agency: { id: agencyId, name: agencyRow.name, slug: agencyRow.slug },
      properties_count: 2,
      rating: 4.7,
      reviews_count: 3,
      visible: true,
    });
    // A 304 for a matching ETag.
    const again = await t.app.inject({
      method: 'GET',
      url: `${API}/agents/${agentId}`,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
  });

  it('gives an agent without extras nulls and empty lists', async () => {
    const agentId = await newAgent(db, { name: 'Plain Agent' });
    const agent = (await get(`/agents/${agentId}`)).json().data;
    expect(agent).toMatchObject({
      user_id: null,
      bio: '',
      languages: [],
      picture_url: null,
      social: NO_SOCIAL,
      categories: [],
      cities: [],
      agency: null,
      properties_count: 0,
      rating: null,
      reviews_count: 0,
      visible: true,
    });
  });

  it('rounds the rating to one decimal', async () => {
    const cases: [number, number, number][] = [
      [9, 2, 4.5],
      [10, 3, 3.3],
      [5, 1, 5],
      [29, 6, 4.8],
      [7, 4, 1.8],
    ];
    for (const [sum, count, rating] of cases) {
      const agentId = await newAgent(db, { rating_sum: sum, reviews_count: count });
      expect((await get(`/agents/${agentId}`)).json().data.rating, `${sum}/${count}`).toBe(rating);
    }
  });

  it('lists visible agents by name, in every order, ties by id descending', async () => {
    const tag = unique('order');
    const ids = {
      bravo: await newAgent(db, { name: `Bravo ${tag}` }),
      alpha: await newAgent(db, { name: `alpha ${tag}`, rating_sum: 8, reviews_count: 2 }),
      emile: await newAgent(db, { name: `Émile ${tag}`, rating_sum: 9, reviews_count: 2 }),
      alphaTwin: await newAgent(db, { name: `Alpha ${tag}`, rating_sum: 4, reviews_count: 1 }),
      hidden: await newAgent(db, { name: `Aaron ${tag}`, visible: 0, rating_sum: 5, reviews_count: 1 }),
    };
    const mine = Object.values(ids);
    for (let n = 0; n < 3; n++) await nameAgent(ids.bravo, await newListing(db));
    await nameAgent(ids.emile, await newListing(db));
    await nameAgent(ids.alpha, await newListing(db));
    await nameAgent(ids.alpha, await newListing(db, { status: 'pending', published_at: null }));

    // Names fold case and accents (alpha = Alpha, Émile between Bravo and later letters); ties by id descending.
    const byName = [ids.alphaTwin, ids.alpha, ids.bravo, ids.emile];
    expect(await listed('/agents?per_page=100', mine)).toEqual(byName);
    expect(await listed('/agents?per_page=100&sortby=a_name', mine)).toEqual(byName);
    expect(await listed('/agents?per_page=100&sortby=d_name', mine)).toEqual([ids.emile, ids.bravo, ids.alphaTwin, ids.alpha]);
    // 4.5 > 4 = 4 (tie by id descending) > no reviews.
    expect(await listed('/agents?per_page=100&sortby=d_rating', mine)).toEqual([ids.emile, ids.alphaTwin, ids.alpha, ids.bravo]);
    // 3 > 1 = 1 (tie by id descending) > 0; the pending listing does not count.
    expect(await listed('/agents?per_page=100&sortby=d_properties', mine)).toEqual([ids.bravo, ids.emile, ids.alpha, ids.alphaTwin]);
  });

  it('pages with true figures, past the last page too', async () => {
    const total = (await get('/agents?per_page=1')).json().data.pagination.total_records as number;
    const visible = await db
      .selectFrom('agents')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('visible', '=', 1)
      .executeTakeFirstOrThrow();
    expect(total).toBe(Number(visible.n));
    const res = await get('/agents?per_page=2&page=2');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.agents).toHaveLength(Math.min(2, Math.max(0, total - 2)));
    expect(res.json().data.pagination).toEqual({
      total_records: total,
      total_pages: Math.ceil(total / 2),
      current_page: 2,
      per_page: 2,
      has_next_page: 2 < Math.ceil(total / 2),
      has_previous_page: true,
    });
    const all = agentIdsOf(await get('/agents?per_page=100'));
    const paged = [...agentIdsOf(await get('/agents?per_page=2')), ...agentIdsOf(await get('/agents?per_page=2&paged=2'))];
    expect(paged).toEqual(all.slice(0, 4));
    const past = await get('/agents?per_page=10&page=999');
    expect(past.json().data).toEqual({
      agents: [],
      pagination: {
        total_records: total,
        total_pages: Math.ceil(total / 10),
        current_page: 999,
        per_page: 10,
        has_next_page: false,
        has_previous_page: true,
      },
    });
  });

  it('leaves hidden agents out of every list and answers 404 to strangers', async () => {
    const { agencyId, agencyUser, agentUser, agentId } = await newAgencyWithAgent(db);
    await db.updateTable('agents').set({ visible: 0 }).where('id', '=', agentId).execute();
    expect(agentIdsOf(await get('/agents?per_page=100'))).not.toContain(agentId);
    expect(agentIdsOf(await get(`/agents/search?agency_id=${agencyId}`))).toEqual([]);
    expect(agentIdsOf(await get(`/agencies/${agencyId}/agents`))).toEqual([]);

    expectError(await get(`/agents/${agentId}`), 404, 'not_found');
    expectError(await get(`/agents/${agentId}`, await signIn(t.app, await newUser(db, { role: 'agent' }))), 404, 'not_found');
    expectError(await get(`/agents/${agentId}/properties`), 404, 'not_found');
    for (const user of [agentUser, agencyUser, await newUser(db, { role: 'administrator' }), await newUser(db, { role: 'manager' })]) {
      const res = await get(`/agents/${agentId}`, await signIn(t.app, user));
      expect(res.statusCode, user.role).toBe(200);
      expect(res.json().data.visible).toBe(false);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect((await get(`/agents/${agentId}/properties`, await signIn(t.app, user))).statusCode).toBe(200);
    }
    // Even its managers do not see it in lists.
    expect(agentIdsOf(await get('/agents?per_page=100', await signIn(t.app, agentUser)))).not.toContain(agentId);
  });

  it('searches by keyword, ignoring case and accents, with wildcards taken literally', async () => {
    const tag = unique('kw');
    const jose = await newAgent(db, { name: `José Álvarez ${tag}` });
    const joseph = await newAgent(db, { name: `JOSEPH Brown ${tag}` });
    const percent = await newAgent(db, { name: `100% Realty_Agent ${tag}` });
    await newAgent(db, { name: `Hidden Jose ${tag}`, visible: 0 });
    const search = (query: string) => get(`/agents/search?per_page=100&${query}`).then(agentIdsOf);
    expect(await search(`keyword=jose`)).toEqual(expect.arrayContaining([jose, joseph]));
    expect(await search(`keyword=${encodeURIComponent(`jos ${tag}`)}`)).toEqual([]);
    expect(await search(`keyword=${encodeURIComponent(`álvarez ${tag}`)}`)).toEqual([jose]);
    expect(await search(`keyword=${encodeURIComponent(`ALVAREZ ${tag}`)}`)).toEqual([jose]);
    expect(await search(`keyword=${encodeURIComponent(`Joseph brown ${tag}`)}`)).toEqual([joseph]);
    expect(await search(`keyword=${encodeURIComponent(`0% realty_agent ${tag}`)}`)).toEqual([percent]);
    expect(await search(`keyword=${encodeURIComponent(`0_ ${tag}`)}`)).toEqual([]);
    expect((await get(`/agents/search?keyword=${tag}`)).json().data.pagination.total_records).toBe(3);
    expectError(await get(`/agents/search?keyword=${'x'.repeat(201)}`), 400, 'validation_failed');
  });

  it('filters by cities and categories (any of the slugs), agency and language', async () => {
    const taxonomies = t.services.taxonomies;
    const [miami, tampa, orlando] = [
      await newTerm(taxonomies, 'agent_city'),
      await newTerm(taxonomies, 'agent_city'),
      await newTerm(taxonomies, 'agent_city'),
    ];
    const [luxury, rentals] = [await newTerm(taxonomies, 'agent_category'), await newTerm(taxonomies, 'agent_category')];
    const agencyId = await newAgency(db);
    const link = (agentId: number, ...terms: { id: number }[]) =>
      db
        .insertInto('agent_terms')
        .values(
          terms.map((term, position) => ({
            agent_id: agentId,
            term_id: term.id,
            taxonomy: term === luxury || term === rentals ? ('agent_category' as const) : ('agent_city' as const),
            position,
          })),
        )
        .execute();
    const a = await newAgent(db, { agency_id: agencyId, languages: JSON.stringify(['English', 'French']) });
    const b = await newAgent(db, { languages: JSON.stringify(['english', 'Spanish (Latin America)']) });
    const c = await newAgent(db, { agency_id: agencyId, languages: JSON.stringify(['Englishish']) });
    const hidden = await newAgent(db, { agency_id: agencyId, visible: 0, languages: JSON.stringify(['English']) });
    await link(a, miami, luxury);
    await link(b, tampa, luxury, rentals);
    await link(c, orlando);
    await link(hidden, miami, luxury);
    const search = (query: string) => get(`/agents/search?per_page=100&${query}`).then(agentIdsOf);
    const sorted = (ids: number[]) => [...ids].sort((x, y) => x - y);

    expect(sorted(await search(`city=${miami.slug}`))).toEqual([a]);
    expect(sorted(await search(`city=${miami.slug},${tampa.slug}`))).toEqual([a, b]);
    expect(sorted(await search(`city[]=${miami.slug}&city[]=${tampa.slug}`))).toEqual([a, b]);
    expect(sorted(await search(`city=${miami.slug}&city=${orlando.slug}`))).toEqual([a, c]);
    expect(sorted(await search(`city=${miami.slug.toUpperCase()}`))).toEqual([a]);
    expect(await search(`city=no-such-city`)).toEqual([]);
    expect(sorted(await search(`category=${luxury.slug}`))).toEqual([a, b]);
    expect(sorted(await search(`category=${rentals.slug}`))).toEqual([b]);
    // Filters combine.
    expect(await search(`category=${luxury.slug}&city=${tampa.slug}`)).toEqual([b]);
    expect(sorted(await search(`agency_id=${agencyId}`))).toEqual([a, c]);
    expect(await search(`agency_id=${agencyId}&category=${luxury.slug}`)).toEqual([a]);
    // A language matches one whole name, ignoring ASCII case.
    expect(sorted((await search('language=English')).filter((id) => [a, b, c].includes(id)))).toEqual([a, b]);
    expect(sorted((await search('language=ENGLISH')).filter((id) => [a, b, c].includes(id)))).toEqual([a, b]);
    expect(await search(`language=${encodeURIComponent('spanish (latin america)')}`)).toEqual([b]);
    expect(await search('language=Engl')).toEqual([]);
    expect(await search('language=french&agency_id=' + agencyId)).toEqual([a]);
  });

  it('refuses bad search parameters', async () => {
    for (const query of [
      'sortby=a_rating',
      'agency_id=0',
      'agency_id=abc',
      'per_page=101',
      'page=0',
      'city=',
      'city=a,,b',
      'language=',
      `language=${'x'.repeat(51)}`,
      'name=x',
    ]) {
      expectError(await get(`/agents/search?${query}`), 400, 'validation_failed');
    }
    const tooMany = Array.from({ length: 51 }, (_, i) => `c${i}`).join(',');
    const res = await get(`/agents/search?category=${tooMany}`);
    expectError(res, 400, 'validation_failed');
    expect(res.json().errors).toEqual([{ field: 'category', message: 'must have at most 50 items' }]);
    expectError(await get('/agents?keyword=x'), 400, 'validation_failed');
    expectError(await get('/agents?sortby=name'), 400, 'validation_failed');
  });

  it('answers 404 for unknown agents and 400 for malformed ids', async () => {
    expectError(await get('/agents/999999'), 404, 'not_found');
    expectError(await get('/agents/999999/properties'), 404, 'not_found');
    expectError(await get('/agents/abc'), 400, 'validation_failed');
    expectError(await get('/agents/0'), 400, 'validation_failed');
    expectError(await get('/agents/99999999999'), 400, 'validation_failed');
  });

  it('serves the same cached list to everyone, with an ETag, and follows changes at once', async () => {
    const agentId = await newAgent(db, { name: unique('Cached ') });
    const first = await get('/agents?per_page=100');
    expect(first.headers['cache-control']).toBe('public, no-cache');
    const signedIn = await get('/agents?per_page=100', await signIn(t.app, await newUser(db)));
    expect(signedIn.body).toBe(first.body);
    const notModified = await t.app.inject({
      method: 'GET',
      url: `${API}/agents?per_page=100`,
      headers: { 'if-none-match': first.headers.etag as string },
    });
    expect(notModified.statusCode).toBe(304);
    await db.updateTable('agents').set({ name: 'Renamed' }).where('id', '=', agentId).execute();
    const after = await get('/agents?per_page=100');
    expect(after.headers.etag).not.toBe(first.headers.etag);
    expect(after.json().data.agents.find((a: { id: number }) => a.id === agentId).name).toBe('Renamed');
  });

  describe('GET /agents/{id}/properties', () => {
    it('lists the published listings naming the agent, sorted and paged, with is_favorite for the caller', async () => {
      const agentId = await newAgent(db);
      const other = await newAgent(db);
      const cheap = await newListing(db, { price: 100, published_at: '2025-01-01T00:00:00.000Z' });
      const dear = await newListing(db, { price: 300, published_at: '2025-03-01T00:00:00.000Z' });
      const mid = await newListing(db, { price: 200, published_at: '2025-02-01T00:00:00.000Z' });
      const pending = await newListing(db, { status: 'pending', published_at: null });
      const sold = await newListing(db, { status: 'sold' });
      const othersListing = await newListing(db);
      for (const id of [cheap, dear, mid, pending, sold]) await nameAgent(agentId, id);
      await nameAgent(other, othersListing);
      await nameAgent(other, mid, 1);

      const res = await get(`/agents/${agentId}/properties`);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(res.json().data).sort()).toEqual(['pagination', 'properties']);
      expect(propertyIdsOf(res)).toEqual([dear, mid, cheap]);
      expect(res.json().data.pagination).toMatchObject({ total_records: 3, total_pages: 1 });
      expect(res.headers['cache-control']).toBe('public, no-cache');
      const summary = res.json().data.properties[0];
      expect(summary).toMatchObject({ id: dear, status: 'publish', is_favorite: false });
      expect(summary.agents.map((a: { id: number }) => a.id)).toEqual([agentId]);
      expect(summary).not.toHaveProperty('description');
      expect(propertyIdsOf(await get(`/agents/${agentId}/properties?sortby=a_price`))).toEqual([cheap, mid, dear]);
      expect(propertyIdsOf(await get(`/agents/${agentId}/properties?sortby=a_date`))).toEqual([cheap, mid, dear]);
      expect(propertyIdsOf(await get(`/agents/${agentId}/properties?per_page=2&page=2`))).toEqual([cheap]);
      const past = await get(`/agents/${agentId}/properties?per_page=2&page=5`);
      expect(past.json().data).toEqual({
        properties: [],
        pagination: { total_records: 3, total_pages: 2, current_page: 5, per_page: 2, has_next_page: false, has_previous_page: true },
      });

      const buyer = await newUser(db);
      await db.insertInto('favorites').values({ user_id: buyer.id, listing_id: mid, created_at: new Date().toISOString() }).execute();
      const mine = await get(`/agents/${agentId}/properties`, await signIn(t.app, buyer));
      expect(mine.headers['cache-control']).toBe('private, no-cache');
      expect(mine.json().data.properties.map((p: { id: number; is_favorite: boolean }) => [p.id, p.is_favorite])).toEqual([
        [dear, false],
        [mid, true],
        [cheap, false],
      ]);
      // The anonymous answer is not touched by the signed-in one.
      expect(
        (await get(`/agents/${agentId}/properties`)).json().data.properties.every((p: { is_favorite: boolean }) => !p.is_favorite),
      ).toBe(true);

      for (const query of ['sortby=d_name', 'keywords=x', 'per_page=0', 'min_price=-1']) {
        expectError(await get(`/agents/${agentId}/properties?${query}`), 400, 'validation_failed');
      }
    });

    it('follows publication at once: approving a pending listing changes the counts and the pages', async () => {
      const agentId = await newAgent(db);
      const pending = await newListing(db, { status: 'pending', published_at: null });
      await nameAgent(agentId, pending);
      expect((await get(`/agents/${agentId}`)).json().data.properties_count).toBe(0);
      expect(propertyIdsOf(await get(`/agents/${agentId}/properties`))).toEqual([]);
      const listed = async () => (await get('/agents?per_page=100')).json().data.agents.find((a: { id: number }) => a.id === agentId);
      expect((await listed()).properties_count).toBe(0);

      const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
      const approve = await t.app.inject({ method: 'POST', url: `${API}/users/approve-property/${pending}`, headers: admin });
      expect(approve.statusCode, approve.body).toBe(200);
      expect((await get(`/agents/${agentId}`)).json().data.properties_count).toBe(1);
      expect((await listed()).properties_count).toBe(1);
      expect(propertyIdsOf(await get(`/agents/${agentId}/properties`))).toEqual([pending]);

      const hold = await t.app.inject({
        method: 'POST',
        url: `${API}/users/disapprove-property/${pending}`,
        headers: admin,
        payload: { reason: 'No.' },
      });
      expect(hold.statusCode, hold.body).toBe(200);
      expect((await get(`/agents/${agentId}`)).json().data.properties_count).toBe(0);
      expect(propertyIdsOf(await get(`/agents/${agentId}/properties`))).toEqual([]);
    });
  });
});
