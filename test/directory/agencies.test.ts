import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgency, newAgencyWithAgent, newAgent, newListing, newMedia, newUser, signIn, unique } from '../helpers/factories.js';
import { errorBody } from '../helpers/expectations.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const agencyIdsOf = (res: LightMyRequestResponse): number[] => res.json().data.agencies.map((a: { id: number }) => a.id);
const agentIdsOf = (res: LightMyRequestResponse): number[] => res.json().data.agents.map((a: { id: number }) => a.id);
const propertyIdsOf = (res: LightMyRequestResponse): number[] => res.json().data.properties.map((p: { id: number }) => p.id);

const AGENCY_KEYS = [
  'id',
  'user_id',
  'name',
  'slug',
  'url',
  'description',
  'email',
  'phone',
  'mobile',
  'whatsapp',
  'fax',
  'website',
  'license',
  'tax_number',
  'address',
  'latitude',
  'longitude',
  'logo_url',
  'social',
  'agents_count',
  'properties_count',
  'rating',
  'reviews_count',
].sort();
const NO_SOCIAL = { facebook: null, twitter: null, linkedin: null, instagram: null, youtube: null, pinterest: null, tiktok: null };

describeEachDialect('agencies: lists, records, agents, listings and updates (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const get = (url: string, auth: Auth = {}) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth });
  const put = (auth: Auth | undefined, id: number, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `${API}/agencies/${id}`, headers: auth ?? {}, payload: payload as object });
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };
  const nameAgent = (agentId: number, listingId: number) =>
    db.insertInto('listing_agents').values({ listing_id: listingId, agent_id: agentId }).execute();
  /** Every agency fits one page here; `mine` keeps the given agencies in the order the API listed them. */
  const listed = async (url: string, mine: readonly number[]) => agencyIdsOf(await get(url)).filter((id) => mine.includes(id));

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  it('answers the full agency record, counting visible agents and each published listing once', async () => {
    const { agencyId, agencyUser, agentId } = await newAgencyWithAgent(db);
    const sizes = JSON.stringify({ medium: { key: 'logos/logo-medium.png', width: 600, height: 200 } });
    const logo = await newMedia(db, agencyUser.id, { storage_key: `logos/${unique('l')}.png`, mime_type: 'image/png', sizes });
    await db
      .updateTable('agencies')
      .set({
        description: '<p>Since 1990.</p>',
        email: 'office@agency.example',
        phone: '+1 212 555 0100',
        mobile: '+1 212 555 0101',
        whatsapp: '+1 212 555 0102',
        fax: '+1 212 555 0103',
        website: 'https://agency.example',
        license: 'NY-1',
        tax_number: 'US-99',
        address: '1 Main St, New York',
        latitude: 40.7128,
        longitude: -74.006,
        logo_media_id: logo.id,
        social: JSON.stringify({ instagram: 'https://instagram.com/agency' }),
        rating_sum: 9,
        reviews_count: 2,
      })
      .where('id', '=', agencyId)
      .execute();
    const secondAgent = await newAgent(db, { agency_id: agencyId });
    await newAgent(db, { agency_id: agencyId, visible: 0 });
    // Own listing; an agent's listing of no agency; one both ways (counted once); one of the second agent's
    // with another agency; a pending one; another agency's listing.
    const otherAgency = await newAgency(db);
    await newListing(db, { agency_id: agencyId });
    await nameAgent(agentId, await newListing(db));
    const both = await newListing(db, { agency_id: agencyId });
    await nameAgent(agentId, both);
    await nameAgent(secondAgent, both);
    await nameAgent(secondAgent, await newListing(db, { agency_id: otherAgency }));
    await nameAgent(agentId, await newListing(db, { agency_id: agencyId, status: 'pending', published_at: null }));
    await newListing(db, { agency_id: otherAgency });

    const res = await get(`/agencies/${agencyId}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('public, no-cache');
    const agency = res.json().data;
    expect(Object.keys(agency).sort()).toEqual(AGENCY_KEYS);
    const row = await db.selectFrom('agencies').select(['name', 'slug']).where('id', '=', agencyId).executeTakeFirstOrThrow();
    expect(agency).toEqual({
      id: agencyId,
      user_id: agencyUser.id,
      name: row.name,
      slug: row.slug,
      url: `${t.config.publicUrl}/agency/${row.slug}`,
      description: '<p>Since 1990.</p>',
      email: 'office@agency.example',
      phone: '+1 212 555 0100',
      mobile: '+1 212 555 0101',
      whatsapp: '+1 212 555 0102',
      fax: '+1 212 555 0103',
      website: 'https://agency.example',
      license: 'NY-1',
      tax_number: 'US-99',
      address: '1 Main St, New York',
      latitude: 40.7128,
      longitude: -74.006,
      logo_url: `${t.config.publicUrl}/uploads/logos/logo-medium.png`,
      social: { ...NO_SOCIAL, instagram: 'https://instagram.com/agency' },
      agents_count: 2,
      properties_count: 4,
      rating: 4.5,
      reviews_count: 2,
    });
    expect((await get(`/agencies/${otherAgency}`)).json().data).toMatchObject({
      user_id: null,
      agents_count: 0,
      properties_count: 2,
      logo_url: null,
      latitude: null,
      social: NO_SOCIAL,
      rating: null,
    });
  });

  it('lists agencies by name, rating and listings, ties by id descending, with keyword and paging', async () => {
    const tag = unique('ag');
    const ids = {
      beta: await newAgency(db, { name: `Beta ${tag}`, rating_sum: 8, reviews_count: 2 }),
      alpha: await newAgency(db, { name: `Álpha ${tag}`, rating_sum: 5, reviews_count: 1 }),
      alphaTwin: await newAgency(db, { name: `alpha ${tag}`, rating_sum: 4, reviews_count: 1 }),
      gamma: await newAgency(db, { name: `Gamma ${tag}` }),
    };
    const mine = Object.values(ids);
    const gammaAgent = await newAgent(db, { agency_id: ids.gamma });
    for (let n = 0; n < 2; n++) await nameAgent(gammaAgent, await newListing(db));
    await newListing(db, { agency_id: ids.gamma });
    await newListing(db, { agency_id: ids.alpha });
    await newListing(db, { agency_id: ids.beta, status: 'draft', published_at: null });

    const byName = [ids.alphaTwin, ids.alpha, ids.beta, ids.gamma];
    expect(await listed('/agencies?per_page=100', mine)).toEqual(byName);
    expect(await listed('/agencies?per_page=100&sortby=a_name', mine)).toEqual(byName);
    expect(await listed('/agencies?per_page=100&sortby=d_name', mine)).toEqual([ids.gamma, ids.beta, ids.alphaTwin, ids.alpha]);
    expect(await listed('/agencies?per_page=100&sortby=d_rating', mine)).toEqual([ids.alpha, ids.alphaTwin, ids.beta, ids.gamma]);
    expect(await listed('/agencies?per_page=100&sortby=d_properties', mine)).toEqual([ids.gamma, ids.alpha, ids.alphaTwin, ids.beta]);

    expect(await listed(`/agencies?keyword=${encodeURIComponent(`ALPHA ${tag}`)}`, mine)).toEqual([ids.alphaTwin, ids.alpha]);
    expect(agencyIdsOf(await get(`/agencies?keyword=${tag}&per_page=2&page=2`))).toEqual([ids.beta, ids.gamma]);
    const past = await get(`/agencies?keyword=${tag}&per_page=3&page=3`);
    expect(past.statusCode).toBe(200);
    expect(past.json().data).toEqual({
      agencies: [],
      pagination: { total_records: 4, total_pages: 2, current_page: 3, per_page: 3, has_next_page: false, has_previous_page: true },
    });
    expect(agencyIdsOf(await get(`/agencies?keyword=${tag}_`))).toEqual([]);
    for (const query of ['sortby=a_rating', 'per_page=101', 'paged=0', `keyword=${'k'.repeat(201)}`, 'city=x']) {
      expectError(await get(`/agencies?${query}`), 400, 'validation_failed');
    }
  });

  it('lists an agency’s visible agents, paged and sorted; unknown agency → 404', async () => {
    const agencyId = await newAgency(db);
    const tag = unique('m');
    const carl = await newAgent(db, { agency_id: agencyId, name: `Carl ${tag}`, rating_sum: 5, reviews_count: 1 });
    const anna = await newAgent(db, { agency_id: agencyId, name: `Anna ${tag}` });
    const bert = await newAgent(db, { agency_id: agencyId, name: `Bert ${tag}`, rating_sum: 3, reviews_count: 1 });
    await newAgent(db, { agency_id: agencyId, name: `Aaron ${tag}`, visible: 0 });
    await newAgent(db, { name: `Abe ${tag}` }); // another agency's (none)
    const res = await get(`/agencies/${agencyId}/agents`);
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json().data).sort()).toEqual(['agents', 'pagination']);
    expect(agentIdsOf(res)).toEqual([anna, bert, carl]);
    expect(res.json().data.agents[0]).toMatchObject({ id: anna, agency: { id: agencyId }, visible: true });
    expect(res.json().data.pagination).toMatchObject({ total_records: 3, total_pages: 1 });
    expect(agentIdsOf(await get(`/agencies/${agencyId}/agents?sortby=d_rating`))).toEqual([carl, bert, anna]);
    expect(agentIdsOf(await get(`/agencies/${agencyId}/agents?per_page=2&page=2`))).toEqual([carl]);
    expect(agentIdsOf(await get(`/agencies/${agencyId}/agents?per_page=2&page=3`))).toEqual([]);
    expect((await get(`/agencies/${agencyId}`)).json().data.agents_count).toBe(3);
    expectError(await get('/agencies/999999/agents'), 404, 'not_found');
    expectError(await get(`/agencies/${agencyId}/agents?keyword=x`), 400, 'validation_failed');
  });

  it('lists the agency’s published listings and its agents’, each once, following approval at once', async () => {
    const { agencyId, agentId } = await newAgencyWithAgent(db);
    const own = await newListing(db, { agency_id: agencyId, price: 300 });
    const agents = await newListing(db, { price: 100 });
    await nameAgent(agentId, agents);
    const both = await newListing(db, { agency_id: agencyId, price: 200 });
    await nameAgent(agentId, both);
    const pending = await newListing(db, { agency_id: agencyId, status: 'pending', published_at: null, price: 50 });
    await newListing(db); // someone else's

    const res = await get(`/agencies/${agencyId}/properties`);
    expect(res.statusCode, res.body).toBe(200);
    expect(propertyIdsOf(res)).toEqual([both, agents, own]); // newest publication first
    expect(res.json().data.pagination.total_records).toBe(3);
    expect(propertyIdsOf(await get(`/agencies/${agencyId}/properties?sortby=a_price`))).toEqual([agents, both, own]);
    expect(propertyIdsOf(await get(`/agencies/${agencyId}/properties?sortby=d_price&per_page=1&page=3`))).toEqual([agents]);

    const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
    const approve = await t.app.inject({ method: 'POST', url: `${API}/users/approve-property/${pending}`, headers: admin });
    expect(approve.statusCode, approve.body).toBe(200);
    expect(propertyIdsOf(await get(`/agencies/${agencyId}/properties?sortby=a_price`))).toEqual([pending, agents, both, own]);
    expect((await get(`/agencies/${agencyId}`)).json().data.properties_count).toBe(4);
    const listedAgency = (await get('/agencies?per_page=100')).json().data.agencies.find((a: { id: number }) => a.id === agencyId);
    expect(listedAgency.properties_count).toBe(4);

    const signedIn = await get(`/agencies/${agencyId}/properties`, admin);
    expect(signedIn.headers['cache-control']).toBe('private, no-cache');
    expectError(await get('/agencies/999999/properties'), 404, 'not_found');
    expectError(await get(`/agencies/${agencyId}/properties?sortby=a_name`), 400, 'validation_failed');
  });

  it('answers 404 for unknown agencies and 400 for malformed ids', async () => {
    expectError(await get('/agencies/999999'), 404, 'not_found');
    expectError(await get('/agencies/x'), 400, 'validation_failed');
    expectError(await get('/agencies/-1/agents'), 400, 'validation_failed');
  });

  describe('PUT /agencies/{id}', () => {
    it('updates every field the agency’s user may set, sanitizing the description', async () => {
      const { agencyId, agencyUser } = await newAgencyWithAgent(db);
      const auth = await signIn(t.app, agencyUser);
      const slug = (await db.selectFrom('agencies').select('slug').where('id', '=', agencyId).executeTakeFirstOrThrow()).slug;
      const logo = await newMedia(db, agencyUser.id);
      const res = await put(auth, agencyId, {
        name: ' <i>Harbour</i> Homes ',
        description:
          '<p onclick="x()">Trusted <script>alert(1)</script><a href="javascript:x">link</a> <a href="https://h.example">site</a></p>',
        email: 'Office@Harbour.Example',
        phone: '+44 20 0000 0000',
        mobile: '+44 7000 000000',
        whatsapp: '+44 7000 000001',
        fax: '+44 20 0000 0001',
        website: 'https://harbour.example',
        license: '<b>UK-7</b>',
        tax_number: 'GB-1',
        address: '2 Quay St<br>',
        latitude: -33.5,
        longitude: 151.25,
        logo_id: logo.id,
        social: { pinterest: 'https://pinterest.com/h', twitter: 'https://x.com/h' },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data).toMatchObject({
        id: agencyId,
        name: 'Harbour Homes',
        slug,
        description: '<p>Trusted <a>link</a> <a href="https://h.example">site</a></p>',
        email: 'office@harbour.example',
        website: 'https://harbour.example',
        license: 'UK-7',
        address: '2 Quay St',
        latitude: -33.5,
        longitude: 151.25,
        logo_url: expect.stringContaining('/uploads/'),
        social: { ...NO_SOCIAL, pinterest: 'https://pinterest.com/h', twitter: 'https://x.com/h' },
      });
      expect((await get(`/agencies/${agencyId}`)).json().data).toEqual(res.json().data);
      const cleared = await put(auth, agencyId, { latitude: null, longitude: null, logo_id: null, social: { twitter: null } });
      expect(cleared.json().data).toMatchObject({
        name: 'Harbour Homes',
        latitude: null,
        longitude: null,
        logo_url: null,
        social: { ...NO_SOCIAL, pinterest: 'https://pinterest.com/h' },
      });
    });

    it('lets the agency’s user and administrators update; its agents and others get 403', async () => {
      const { agencyId, agencyUser, agentUser } = await newAgencyWithAgent(db);
      const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
      for (const [auth, license] of [
        [await signIn(t.app, agencyUser), 'by-agency'],
        [admin, 'by-admin'],
      ] as const) {
        const res = await put(auth, agencyId, { license });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().data.license).toBe(license);
      }
      const other = await newAgencyWithAgent(db);
      for (const user of [agentUser, other.agencyUser, other.agentUser, await newUser(db), await newUser(db, { role: 'manager' })]) {
        expectError(await put(await signIn(t.app, user), agencyId, { license: 'hijacked' }), 403, 'forbidden');
      }
      expectError(await put(undefined, agencyId, { license: 'hijacked' }), 401, 'unauthorized');
      expectError(await put(admin, 999_999, { license: 'x' }), 404, 'not_found');
      expect((await get(`/agencies/${agencyId}`)).json().data.license).toBe('by-admin');
    });

    it('refuses fields that are not the agency’s to set, and checks the logo and every value', async () => {
      const { agencyId, agencyUser, agentUser } = await newAgencyWithAgent(db);
      const auth = await signIn(t.app, agencyUser);
      const before = await db.selectFrom('agencies').selectAll().where('id', '=', agencyId).executeTakeFirstOrThrow();
      for (const field of [
        'user_id',
        'slug',
        'rating',
        'rating_sum',
        'reviews_count',
        'agents_count',
        'properties_count',
        'logo_media_id',
        'visible',
      ]) {
        const res = await put(auth, agencyId, { license: 'changed', [field]: field === 'slug' ? 'mine' : 1 });
        expectError(res, 400, 'validation_failed');
        expect(res.json().errors).toEqual([{ field, message: 'is not an accepted field' }]);
      }
      expect(await db.selectFrom('agencies').selectAll().where('id', '=', agencyId).executeTakeFirstOrThrow()).toEqual(before);

      const logos: [number, number][] = [
        [(await newMedia(db, agentUser.id)).id, 400], // its agent's upload is not the agency's
        [(await newMedia(db, (await newUser(db)).id)).id, 400],
        [(await newMedia(db, agencyUser.id, { mime_type: 'application/pdf' })).id, 400],
        [999_999, 400],
        [(await newMedia(db, agencyUser.id)).id, 200],
      ];
      for (const [logoId, status] of logos) {
        const res = await put(auth, agencyId, { logo_id: logoId });
        expect(res.statusCode, res.body).toBe(status);
        if (status === 400) expect(res.json().errors).toEqual([{ field: 'logo_id', message: expect.any(String) }]);
      }
      // An administrator may use the agency's upload, or their own.
      const admin = await newUser(db, { role: 'administrator' });
      expect((await put(await signIn(t.app, admin), agencyId, { logo_id: (await newMedia(db, admin.id)).id })).statusCode).toBe(200);

      const bad: Record<string, unknown>[] = [
        { name: '' },
        { name: '<p></p>' },
        { description: 'x'.repeat(20_001) },
        { latitude: 91 },
        { longitude: -181 },
        { latitude: '1' },
        { email: 'nope' },
        { website: 'mailto:x@y.z' },
        { address: 'x'.repeat(501) },
        { social: { facebook: 'http://' } },
        { social: { friendster: 'https://f.example' } },
      ];
      for (const payload of bad) {
        const res = await put(auth, agencyId, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().errors[0].field, JSON.stringify(payload)).toMatch(new RegExp(`^${Object.keys(payload)[0]}`));
      }
    });
  });
});
