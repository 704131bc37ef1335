import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import {
  bearer,
  DEFAULT_PASSWORD,
  links,
  newAgencyWithAgent,
  newListing,
  newMedia,
  newTerm,
  newUser,
  signIn,
  tokenFor,
  unique,
} from '../helpers/factories.js';

const API = '/realty-api/v1';
const PUBLIC_URL = 'https://realty.example';
type Auth = Record<string, string>;

/** Every field of a full listing record (docs/api.md 4.1). */
const RECORD_KEYS = [
  'id',
  'title',
  'slug',
  'url',
  'description',
  'excerpt',
  'status',
  'reference',
  'price',
  'second_price',
  'currency',
  'price_prefix',
  'price_postfix',
  'formatted_price',
  'bedrooms',
  'bathrooms',
  'rooms',
  'garage',
  'garage_size',
  'size',
  'size_unit',
  'land_size',
  'land_size_unit',
  'year_built',
  'featured',
  'address',
  'property_type',
  'property_status',
  'property_label',
  'features',
  'additional_features',
  'floor_plans',
  'featured_image',
  'gallery',
  'attachments',
  'video_url',
  'virtual_tour',
  'agent_display',
  'agents',
  'agency',
  'author',
  'views',
  'rating',
  'reviews_count',
  'is_favorite',
  'created_at',
  'updated_at',
  'published_at',
  'expires_at',
].sort();
const API_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

const ref = (term: TermRecord) => ({ id: term.id, name: term.name, slug: term.slug });

/** The fields named by a 400 answer, sorted. */
function errorFields(res: LightMyRequestResponse): string[] {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body).toMatchObject({ success: false, code: 'validation_failed' });
  return (body.errors as { field: string }[]).map((e) => e.field).sort();
}

describeEachDialect('POST /properties (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let ownerAuth: Auth;
  let buyerAuth: Auth;
  let admin: UserRow;
  let adminAuth: Auth;
  let managerAuth: Auth;
  let otherSeller: UserRow;
  let type: TermRecord;
  let status: TermRecord;
  let label: TermRecord;
  let pool: TermRecord;
  let garden: TermRecord;
  let spain: TermRecord;
  let andalusia: TermRecord;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    seller = await newUser(db, { role: 'seller', display_name: 'Sam Seller' });
    admin = await newUser(db, { role: 'administrator' });
    otherSeller = await newUser(db, { role: 'seller' });
    [sellerAuth, ownerAuth, buyerAuth, adminAuth, managerAuth] = await Promise.all([
      signIn(t.app, seller),
      signIn(t.app, await newUser(db, { role: 'owner' })),
      signIn(t.app, await newUser(db, { role: 'buyer' })),
      signIn(t.app, admin),
      signIn(t.app, await newUser(db, { role: 'manager' })),
    ]);
    const taxonomies = t.services.taxonomies;
    type = await newTerm(taxonomies, 'property_type', { name: unique('Villa ') });
    status = await newTerm(taxonomies, 'property_status', { name: unique('For Sale '), color: '#ff0000' });
    label = await newTerm(taxonomies, 'property_label', { name: unique('Hot Offer ') });
    pool = await newTerm(taxonomies, 'property_feature', { name: unique('Pool ') });
    garden = await newTerm(taxonomies, 'property_feature', { name: unique('Garden ') });
    spain = await newTerm(taxonomies, 'property_country', { name: 'Spain' });
    andalusia = await newTerm(taxonomies, 'property_state', { name: 'Andalusia', country_id: spain.id });
  });
  afterAll(() => t.close());

  const post = (auth: Auth | undefined, payload: object) =>
    t.app.inject({ method: 'POST', url: `${API}/properties`, headers: auth ?? {}, payload });
  const create = async (auth: Auth, payload: object) => {
    const res = await post(auth, payload);
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data;
  };
  const mediaRecord = async (id: number, auth: Auth) =>
    (await t.app.inject({ method: 'GET', url: `${API}/media/${id}`, headers: auth })).json().data;

  describe('the record', () => {
    it('answers 201 with the full record: every field of 4.1, typed, cleaned', async () => {
      const first = await newMedia(db, seller.id);
      const second = await newMedia(db, seller.id, { mime_type: 'image/png', width: 1024, height: 768 });
      const res = await post(sellerAuth, {
        title: '  <b>Sunny</b> flat by the sea  ',
        description:
          '<p>Bright <strong>flat</strong><script>alert(1)</script></p> <img src="x" onerror="alert(1)">' +
          '<a href="https://example.test/x" onclick="steal()">site</a> <a href="javascript:alert(1)">bad</a> <h1>Big</h1>',
        reference: ' <i>REF</i>-1 ',
        price: 250000.5,
        second_price: 1200,
        currency: 'eur',
        price_prefix: 'From',
        price_postfix: '/month',
        bedrooms: 3,
        bathrooms: 2,
        rooms: 5,
        garage: 1,
        garage_size: '20 m2',
        size: 120.5,
        size_unit: 'm2',
        land_size: 300,
        land_size_unit: 'sqft',
        year_built: 2001,
        type_ids: [type.id],
        status_ids: [status.id],
        label_ids: [label.id],
        feature_ids: [pool.id, garden.id],
        country: spain.id,
        state: andalusia.id,
        city: 'Nerja',
        address: ' 1 Sea Road ',
        zipcode: '29780',
        latitude: 36.75,
        longitude: -3.875,
        media_ids: [second.id, first.id],
        featured_image_id: first.id,
        floor_plans: [{ title: 'Ground <b>floor</b>', rooms: 2, price: 100, description: '<em>Open</em> plan' }],
        additional_features: [{ title: 'Deposit', value: '2 months' }],
        video_url: 'https://video.example/v?id=1',
        virtual_tour: 'https://tour.example/t',
      });
      expect(res.statusCode, res.body).toBe(201);
      const body = res.json();
      expect(body.success).toBe(true);
      const record = body.data;
      expect(Object.keys(record).sort()).toEqual(RECORD_KEYS);
      const city = await db
        .selectFrom('terms')
        .select(['id', 'slug', 'location_parent_id'])
        .where('taxonomy', '=', 'property_city')
        .where('name', '=', 'Nerja')
        .executeTakeFirstOrThrow();
      expect(city.location_parent_id).toBe(andalusia.id);
      expect(record).toEqual({
        id: expect.any(Number),
        title: 'Sunny flat by the sea',
        slug: 'sunny-flat-by-the-sea',
        url: `${PUBLIC_URL}/property/sunny-flat-by-the-sea`,
        description: '<p>Bright <strong>flat</strong></p> <a href="https://example.test/x">site</a> <a>bad</a> Big',
        excerpt: 'Bright flat site bad Big',
        status: 'pending',
        reference: 'REF-1',
        price: 250000.5,
        second_price: 1200,
        currency: 'EUR',
        price_prefix: 'From',
        price_postfix: '/month',
        formatted_price: 'From €250,000.50/month',
        bedrooms: 3,
        bathrooms: 2,
        rooms: 5,
        garage: 1,
        garage_size: '20 m2',
        size: 120.5,
        size_unit: 'm2',
        land_size: 300,
        land_size_unit: 'sqft',
        year_built: 2001,
        featured: false,
        address: {
          address: '1 Sea Road',
          zipcode: '29780',
          country: ref(spain),
          state: ref(andalusia),
          city: { id: city.id, name: 'Nerja', slug: city.slug },
          area: null,
          latitude: 36.75,
          longitude: -3.875,
        },
        property_type: [ref(type)],
        property_status: [{ ...ref(status), color: '#ff0000' }],
        property_label: [ref(label)],
        features: [ref(pool), ref(garden)],
        additional_features: [{ title: 'Deposit', value: '2 months' }],
        floor_plans: [
          {
            title: 'Ground floor',
            rooms: 2,
            bathrooms: null,
            price: 100,
            price_postfix: '',
            size: null,
            size_postfix: '',
            description: 'Open plan',
            image_url: '',
          },
        ],
        featured_image: await mediaRecord(first.id, sellerAuth),
        gallery: [await mediaRecord(second.id, sellerAuth), await mediaRecord(first.id, sellerAuth)],
        attachments: [],
        video_url: 'https://video.example/v?id=1',
        virtual_tour: 'https://tour.example/t',
        agent_display: 'author_info',
        agents: [],
        agency: null,
        author: { id: seller.id, display_name: 'Sam Seller' },
        views: 0,
        rating: null,
        reviews_count: 0,
        is_favorite: false,
        created_at: expect.stringMatching(API_TIMESTAMP),
        updated_at: expect.stringMatching(API_TIMESTAMP),
        published_at: null,
        expires_at: null,
      });
      expect(record.gallery[0]).toMatchObject({ id: second.id, mime_type: 'image/png', width: 1024, owner_id: seller.id });
      expect(record.gallery[0].url).toBe(`${PUBLIC_URL}/uploads/${second.storage_key}`);
      expect(record.updated_at).toBe(record.created_at);

      // The owner reads the same record back.
      const read = await t.app.inject({ method: 'GET', url: `${API}/properties/${record.id}`, headers: sellerAuth });
      expect(read.json().data).toEqual(record);
    });

    it('fills the defaults of a minimal body: nulls, empty text, the default currency, the first image as featured', async () => {
      const image = await newMedia(db, seller.id);
      const record = await create(sellerAuth, { title: 'Minimal', media_ids: [image.id] });
      expect(record).toMatchObject({
        title: 'Minimal',
        description: '',
        excerpt: '',
        reference: '',
        price: null,
        second_price: null,
        currency: t.config.listings.defaultCurrency,
        formatted_price: '',
        bedrooms: null,
        bathrooms: null,
        rooms: null,
        garage: null,
        garage_size: '',
        size: null,
        size_unit: 'sqft',
        land_size: null,
        year_built: null,
        address: { address: '', zipcode: '', country: null, state: null, city: null, area: null, latitude: null, longitude: null },
        property_type: [],
        property_status: [],
        property_label: [],
        features: [],
        additional_features: [],
        floor_plans: [],
        video_url: '',
        virtual_tour: '',
        agents: [],
        agency: null,
      });
      expect(record.featured_image.id).toBe(image.id);
      expect(record.gallery.map((m: { id: number }) => m.id)).toEqual([image.id]);
    });

    it('gives a new listing with a taken title the next free slug', async () => {
      const a = await create(sellerAuth, { title: 'Twin Title' });
      const b = await create(sellerAuth, { title: 'Twin title' });
      expect([a.slug, b.slug]).toEqual(['twin-title', 'twin-title-2']);
      expect(b.url).toBe(`${PUBLIC_URL}/property/twin-title-2`);
    });

    it('creates every one of concurrent listings with one title and one new city: distinct slugs, one city term', async () => {
      const city = unique('Racetown ');
      const results = await Promise.all(Array.from({ length: 8 }, () => post(sellerAuth, { title: 'Racing Title', city })));
      expect(
        results.map((res) => res.statusCode),
        results.map((res) => res.body).join('\n'),
      ).toEqual(Array(8).fill(201));
      const slugs = results.map((res) => res.json().data.slug as string);
      expect(new Set(slugs).size).toBe(8);
      expect(slugs).toContain('racing-title');
      const cities = new Set(results.map((res) => res.json().data.address.city.id as number));
      expect(cities.size).toBe(1);
    });

    it('shows a label’s colour when the term has one, and leaves it out otherwise', async () => {
      const red = await newTerm(t.services.taxonomies, 'property_label', { color: '#aa0000' });
      const record = await create(sellerAuth, { title: 'Labels', label_ids: [label.id, red.id], status_ids: [status.id] });
      expect(record.property_label).toEqual([ref(label), { ...ref(red), color: '#aa0000' }]);
      expect(record.property_status).toEqual([{ ...ref(status), color: '#ff0000' }]);
    });
  });

  describe('agents and agencies', () => {
    it('an agent’s listing shows its own agent record by default (agent_info), without an agency', async () => {
      const username = unique('agent_');
      const user = await t.services.users.createUser({
        username,
        email: `${username}@example.test`,
        password: DEFAULT_PASSWORD,
        role: 'agent',
        firstName: 'Ana',
        lastName: 'Agent',
        phone: '+34 600 000 000',
      });
      const agent = await db.selectFrom('agents').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
      const record = await create(bearer(await tokenFor(t.app, user)), { title: 'By an agent' });
      expect(record.agent_display).toBe('agent_info');
      expect(record.agents).toEqual([
        {
          id: agent.id,
          name: 'Ana Agent',
          slug: agent.slug,
          url: `${PUBLIC_URL}/agent/${agent.slug}`,
          email: `${username}@example.test`,
          phone: '+34 600 000 000',
          agency_id: null,
        },
      ]);
      expect(record.agency).toBeNull();
      expect(record.author).toEqual({ id: user.id, display_name: 'Ana Agent' });
      expect(record.status).toBe('pending');
    });

    it('an agent of an agency gets that agency by default, and may name it but no other', async () => {
      const { agentUser, agentId, agencyId } = await newAgencyWithAgent(db);
      const other = await newAgencyWithAgent(db);
      const auth = bearer(await tokenFor(t.app, agentUser));
      const agency = await db.selectFrom('agencies').selectAll().where('id', '=', agencyId).executeTakeFirstOrThrow();
      const record = await create(auth, { title: 'Agency agent listing' });
      expect(record.agency).toEqual({
        id: agencyId,
        name: agency.name,
        slug: agency.slug,
        url: `${PUBLIC_URL}/agency/${agency.slug}`,
        email: '',
        phone: '',
      });
      expect(record.agents.map((a: { id: number; agency_id: number }) => [a.id, a.agency_id])).toEqual([[agentId, agencyId]]);
      expect(record.agent_display).toBe('agent_info');

      expect((await create(auth, { title: 'Own agency named', agency_id: agencyId })).agency.id).toBe(agencyId);
      expect((await create(auth, { title: 'No agency', agency_id: null, agent_display: 'none' })).agency).toBeNull();
      expect(errorFields(await post(auth, { title: 'Other agency', agency_id: other.agencyId }))).toEqual(['agency_id']);
      expect(errorFields(await post(auth, { title: 'Other agent', agent_ids: [other.agentId] }))).toEqual(['agent_ids.0']);
    });

    it('an agent may co-list with a colleague of the same agency', async () => {
      const { agentUser, agentId, agencyId } = await newAgencyWithAgent(db);
      const now = new Date().toISOString();
      const colleague = await db
        .insertInto('agents')
        .values({
          name: 'Colleague',
          slug: unique('colleague-'),
          sort_key: 'colleague',
          agency_id: agencyId,
          created_at: now,
          updated_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const record = await create(bearer(await tokenFor(t.app, agentUser)), { title: 'Co-listed', agent_ids: [agentId, colleague.id] });
      expect(record.agents.map((a: { id: number }) => a.id)).toEqual([agentId, colleague.id]);
    });

    it('an agency names its own agents, gets itself as agency, and shows the author by default', async () => {
      const { agencyUser, agencyId, agentId } = await newAgencyWithAgent(db);
      const other = await newAgencyWithAgent(db);
      const auth = bearer(await tokenFor(t.app, agencyUser));
      const record = await create(auth, { title: 'Agency listing', agent_ids: [agentId] });
      expect(record.agency.id).toBe(agencyId);
      expect(record.agents.map((a: { id: number }) => a.id)).toEqual([agentId]);
      expect(record.agent_display).toBe('author_info');
      expect((await create(auth, { title: 'Agency, no agents' })).agents).toEqual([]);

      const res = await post(auth, { title: 'Poaching', agent_ids: [agentId, other.agentId, 999_999], agency_id: other.agencyId });
      expect(errorFields(res)).toEqual(['agency_id', 'agent_ids.1', 'agent_ids.2']);
      expect(res.json().errors).toContainEqual({
        field: 'agent_ids.1',
        message: 'must be your own agent record or an agent of your agency',
      });
    });

    it('a seller may name no agent and no agency; a moderator may name any', async () => {
      const { agencyId, agentId } = await newAgencyWithAgent(db);
      expect(errorFields(await post(sellerAuth, { title: 'Seller naming', agent_ids: [agentId], agency_id: agencyId }))).toEqual([
        'agency_id',
        'agent_ids.0',
      ]);
      const record = await create(adminAuth, {
        title: 'Admin naming',
        agent_ids: [agentId],
        agency_id: agencyId,
        agent_display: 'agency_info',
      });
      expect(record.agents.map((a: { id: number }) => a.id)).toEqual([agentId]);
      expect(record.agency.id).toBe(agencyId);
      expect(record.agent_display).toBe('agency_info');
      expect(errorFields(await post(adminAuth, { title: 'Admin, unknown agency', agency_id: 999_999 }))).toEqual(['agency_id']);
    });
  });

  describe('creation states and roles', () => {
    it('publishes listings of administrators and managers at once, with a publication date', async () => {
      for (const auth of [adminAuth, managerAuth]) {
        const record = await create(auth, { title: 'Moderator listing' });
        expect(record.status).toBe('publish');
        expect(record.published_at).toMatch(API_TIMESTAMP);
      }
    });

    it('keeps listings of other creators pending while approval is required', async () => {
      const { agencyUser } = await newAgencyWithAgent(db);
      for (const auth of [sellerAuth, ownerAuth, bearer(await tokenFor(t.app, agencyUser))]) {
        const record = await create(auth, { title: 'Waiting listing' });
        expect(record.status).toBe('pending');
        expect(record.published_at).toBeNull();
      }
    });

    it('creates a draft on `draft: true`, whoever asks; `draft: false` changes nothing', async () => {
      expect((await create(sellerAuth, { title: 'Draft', draft: true })).status).toBe('draft');
      expect((await create(adminAuth, { title: 'Admin draft', draft: true })).status).toBe('draft');
      expect((await create(adminAuth, { title: 'Admin draft', draft: true })).published_at).toBeNull();
      expect((await create(sellerAuth, { title: 'Not a draft', draft: false })).status).toBe('pending');
    });

    it('records the creation in the history', async () => {
      const record = await create(sellerAuth, { title: 'With history' });
      const res = await t.app.inject({ method: 'GET', url: `${API}/properties/${record.id}/history`, headers: sellerAuth });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.history).toEqual([
        { from: null, to: 'pending', actor: { id: seller.id, display_name: 'Sam Seller' }, reason: '', at: record.created_at },
      ]);
    });

    it('refuses buyers (403) and anonymous callers (401)', async () => {
      const before = await db
        .selectFrom('listings')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      const buyer = await post(buyerAuth, { title: 'Buyer listing' });
      expect(buyer.statusCode).toBe(403);
      expect(buyer.json()).toMatchObject({ success: false, code: 'forbidden' });
      const anonymous = await post(undefined, { title: 'Anonymous listing' });
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.json()).toMatchObject({ success: false, code: 'unauthorized' });
      const after = await db
        .selectFrom('listings')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('updates term counts at once: a published listing counts, a pending one does not', async () => {
      const published = await newTerm(t.services.taxonomies, 'property_type');
      const waiting = await newTerm(t.services.taxonomies, 'property_type');
      await create(adminAuth, { title: 'Counted', type_ids: [published.id] });
      await create(sellerAuth, { title: 'Not counted', type_ids: [waiting.id] });
      const res = await t.app.inject({ method: 'GET', url: `${API}/property-types?include=${published.id},${waiting.id}&orderby=id` });
      expect(res.json().data.property_types.map((term: TermRecord) => [term.id, term.count])).toEqual([
        [published.id, 1],
        [waiting.id, 0],
      ]);
    });
  });

  describe('without approval, with a listing lifetime and a URL template', () => {
    let open: TestApp;
    let send: (payload: object) => Promise<LightMyRequestResponse>;
    beforeAll(async () => {
      open = await buildTestApp(dialect, {
        REQUIRE_APPROVAL: 'false',
        LISTING_TTL_DAYS: '30',
        LISTING_URL_TEMPLATE: 'https://homes.example/listing/{id}/{slug}',
      });
      const auth = bearer(await tokenFor(open.app, await newUser(open.database.db, { role: 'seller' })));
      send = (payload) => open.app.inject({ method: 'POST', url: `${API}/properties`, headers: auth, payload });
    });
    afterAll(() => open.close());

    it('publishes every creator’s listing, except drafts', async () => {
      const published = await send({ title: 'Straight to publish' });
      expect(published.statusCode, published.body).toBe(201);
      expect(published.json().data).toMatchObject({ status: 'publish', published_at: expect.stringMatching(API_TIMESTAMP) });
      expect((await send({ title: 'Still a draft', draft: true })).json().data.status).toBe('draft');
    });

    it('gives a published listing an expiry LISTING_TTL_DAYS ahead; a draft none', async () => {
      const before = Date.now();
      const { expires_at, published_at } = (await send({ title: 'Expiring' })).json().data;
      const ttl = Date.parse(expires_at) - Date.parse(published_at);
      expect(Math.abs(ttl - 30 * 86_400_000)).toBeLessThan(2000);
      expect(Date.parse(published_at)).toBeGreaterThanOrEqual(before - 1000);
      expect((await send({ title: 'Draft, no expiry', draft: true })).json().data.expires_at).toBeNull();
    });

    it('builds `url` from LISTING_URL_TEMPLATE', async () => {
      const { id, url } = (await send({ title: 'Templated Home' })).json().data;
      expect(url).toBe(`https://homes.example/listing/${id}/templated-home`);
    });
  });

  describe('mass assignment and unknown fields', () => {
    it('refuses moderator-only fields from anyone else, naming each one', async () => {
      for (const auth of [sellerAuth, ownerAuth]) {
        const res = await post(auth, {
          title: 'Sneaky',
          status: 'publish',
          featured: true,
          author_id: otherSeller.id,
          views: 1000,
          expires_at: '2099-01-01T00:00:00Z',
        });
        expect(errorFields(res)).toEqual(['author_id', 'expires_at', 'featured', 'status', 'views']);
        expect(res.json().errors).toContainEqual({ field: 'featured', message: 'is not an accepted field' });
      }
      // `featured: false` is refused too: the field itself is not the caller's to send.
      expect(errorFields(await post(sellerAuth, { title: 'Sneaky', featured: false }))).toEqual(['featured']);
    });

    it('lets a moderator set them', async () => {
      const record = await create(adminAuth, {
        title: 'Handed over',
        status: 'sold',
        featured: true,
        author_id: otherSeller.id,
        views: 42,
        expires_at: '2030-01-01T12:00:00.000Z',
      });
      expect(record).toMatchObject({
        status: 'sold',
        featured: true,
        author: { id: otherSeller.id, display_name: otherSeller.display_name },
        views: 42,
        expires_at: '2030-01-01T12:00:00Z',
      });
      expect(errorFields(await post(adminAuth, { title: 'To nobody', author_id: 999_999 }))).toEqual(['author_id']);
    });

    it('refuses unknown fields and wrong types, naming each', async () => {
      expect(errorFields(await post(sellerAuth, { title: 'Unknown', colour: 'blue', slug: 'mine', id: 5 }))).toEqual([
        'colour',
        'id',
        'slug',
      ]);
      expect(errorFields(await post(sellerAuth, { title: 'Types', bedrooms: 2.5, price: '100', featured_image_id: 'x' }))).toEqual([
        'bedrooms',
        'featured_image_id',
        'price',
      ]);
      expect(errorFields(await post(sellerAuth, { description: 'no title' }))).toEqual(['title']);
      expect(errorFields(await post(sellerAuth, { title: '<b></b>ab' }))).toEqual(['title']);
      expect(errorFields(await post(sellerAuth, { title: 'x'.repeat(201) }))).toEqual(['title']);
      expect(errorFields(await post(sellerAuth, { title: 'Floor plan', floor_plans: [{ title: 'A', colour: 'x' }] }))).toEqual([
        'floor_plans.0.colour',
      ]);
    });
  });

  describe('terms and locations', () => {
    it('refuses unknown term ids and ids of another taxonomy, naming each position', async () => {
      const res = await post(sellerAuth, {
        title: 'Bad terms',
        type_ids: [type.id, 999_999, pool.id],
        feature_ids: [garden.id, status.id],
        status_ids: [label.id],
      });
      expect(errorFields(res)).toEqual(['feature_ids.1', 'status_ids.0', 'type_ids.1', 'type_ids.2']);
      expect(res.json().errors).toContainEqual({ field: 'type_ids.2', message: 'must be a term of taxonomy property_type' });
      expect(res.json().errors).toContainEqual({ field: 'type_ids.1', message: 'does not match any term of this taxonomy' });
      expect(errorFields(await post(sellerAuth, { title: 'Bad place', country: andalusia.id, city: 999_999 }))).toEqual([
        'city',
        'country',
      ]);
      expect(errorFields(await post(sellerAuth, { title: 'Dup', type_ids: [type.id, type.id] }))).toEqual(['type_ids']);
    });

    it('creates unknown location names under the given parent and reuses known ones, ignoring case and accents', async () => {
      const first = await create(sellerAuth, {
        title: 'New places',
        country: 'Portugal',
        state: 'Algarve',
        city: 'Faro',
        area: '<b>Sé</b>',
      });
      const { country, state, city, area } = first.address;
      expect([country.name, state.name, city.name, area.name]).toEqual(['Portugal', 'Algarve', 'Faro', 'Sé']);
      expect([country.slug, state.slug, city.slug, area.slug]).toEqual(['portugal', 'algarve', 'faro', 'se']);
      const parents = await db
        .selectFrom('terms')
        .select(['id', 'location_parent_id'])
        .where('id', 'in', [country.id, state.id, city.id, area.id])
        .execute();
      expect(Object.fromEntries(parents.map((p) => [p.id, p.location_parent_id]))).toEqual({
        [country.id]: null,
        [state.id]: country.id,
        [city.id]: state.id,
        [area.id]: city.id,
      });

      const again = await create(sellerAuth, { title: 'Same places', country: 'PORTUGAL', state: ' algarve ', city: 'FÁRO', area: 'se' });
      expect(again.address).toMatchObject({ country, state, city, area });

      // A term an administrator created is reused by name too.
      expect((await create(sellerAuth, { title: 'Spain by name', country: 'spain', state: 'Andalusía' })).address).toMatchObject({
        country: ref(spain),
        state: ref(andalusia),
      });

      // The same city name under another state is another city.
      const elsewhere = await create(sellerAuth, { title: 'Other Faro', country: 'Portugal', state: 'Lisbon', city: 'Faro' });
      expect(elsewhere.address.country.id).toBe(country.id);
      expect(elsewhere.address.city.id).not.toBe(city.id);

      const states = await t.app.inject({ method: 'GET', url: `${API}/property-states?country=portugal&orderby=name` });
      expect(states.json().data.states.map((s: { name: string; parent_country: unknown }) => [s.name, s.parent_country])).toEqual([
        ['Algarve', { id: country.id, name: 'Portugal', slug: 'portugal' }],
        ['Lisbon', { id: country.id, name: 'Portugal', slug: 'portugal' }],
      ]);
    });

    it('refuses a location name with no text', async () => {
      expect(errorFields(await post(sellerAuth, { title: 'Empty place', city: '<b></b>' }))).toEqual(['city']);
    });
  });

  describe('values', () => {
    it('range-checks numbers', async () => {
      const year = new Date().getUTCFullYear();
      expect(errorFields(await post(sellerAuth, { title: 'Negative', price: -1, size: -5, bedrooms: -1 }))).toEqual([
        'bedrooms',
        'price',
        'size',
      ]);
      expect(errorFields(await post(sellerAuth, { title: 'Off the map', latitude: 91, longitude: -181 }))).toEqual([
        'latitude',
        'longitude',
      ]);
      const future = await post(sellerAuth, { title: 'Far future', year_built: year + 6 });
      expect(errorFields(future)).toEqual(['year_built']);
      expect(future.json().errors).toEqual([{ field: 'year_built', message: `must be at most ${year + 5}` }]);
      expect(errorFields(await post(sellerAuth, { title: 'Ancient', year_built: 999 }))).toEqual(['year_built']);
      expect(
        (await create(sellerAuth, { title: 'Off-plan', year_built: year + 5, latitude: -90, longitude: 180, price: 0 })).year_built,
      ).toBe(year + 5);
    });

    it('accepts only http(s) URLs for the video and the virtual tour', async () => {
      expect(
        errorFields(await post(sellerAuth, { title: 'Script', video_url: 'javascript:alert(1)', virtual_tour: 'ftp://tour.example/x' })),
      ).toEqual(['video_url', 'virtual_tour']);
      expect(errorFields(await post(sellerAuth, { title: 'Data', video_url: 'data:text/html,<script>x</script>' }))).toEqual(['video_url']);
      expect((await create(sellerAuth, { title: 'No video', video_url: '' })).video_url).toBe('');
    });

    it('refuses a currency that is not a three-letter code', async () => {
      expect(errorFields(await post(sellerAuth, { title: 'Money', currency: 'EURO' }))).toEqual(['currency']);
    });
  });

  describe('gallery', () => {
    it('refuses media that are not the caller’s own free images', async () => {
      const othersUpload = await newMedia(db, otherSeller.id);
      const pdf = await newMedia(db, seller.id, {
        mime_type: 'application/pdf',
        width: null,
        height: null,
        storage_key: `${unique('test/')}.pdf`,
      });
      const elsewhere = await newListing(db, { author_id: seller.id });
      const attached = await newMedia(db, seller.id, { listing_id: elsewhere });
      const mine = await newMedia(db, seller.id);
      const res = await post(sellerAuth, { title: 'Borrowed', media_ids: [mine.id, othersUpload.id, pdf.id, attached.id, 999_999] });
      expect(errorFields(res)).toEqual(['media_ids.1', 'media_ids.2', 'media_ids.3', 'media_ids.4']);
      expect(res.json().errors).toContainEqual({ field: 'media_ids.2', message: 'must be an image' });
      expect(res.json().errors).toContainEqual({
        field: 'media_ids.1',
        message: 'must be one of your uploads that is not in another listing',
      });
      // Nothing was attached by the refused request.
      expect((await db.selectFrom('media').select('listing_id').where('id', '=', mine.id).executeTakeFirstOrThrow()).listing_id).toBeNull();
    });

    it('refuses more than 50 images and repeated ids', async () => {
      const ids = Array.from({ length: 51 }, (_, i) => i + 1);
      const res = await post(sellerAuth, { title: 'Too many', media_ids: ids });
      expect(errorFields(res)).toEqual(['media_ids']);
      expect(res.json().errors).toEqual([{ field: 'media_ids', message: 'must have at most 50 items' }]);
      const image = await newMedia(db, seller.id);
      expect(errorFields(await post(sellerAuth, { title: 'Twice', media_ids: [image.id, image.id] }))).toEqual(['media_ids']);
    });

    it('accepts 50 images', async () => {
      const images = await Promise.all(Array.from({ length: 50 }, () => newMedia(db, seller.id)));
      const record = await create(sellerAuth, { title: 'Fifty', media_ids: images.map((m) => m.id) });
      expect(record.gallery.map((m: { id: number }) => m.id)).toEqual(images.map((m) => m.id));
    });

    it('refuses a featured image outside the gallery', async () => {
      const [a, b] = [await newMedia(db, seller.id), await newMedia(db, seller.id)];
      const res = await post(sellerAuth, { title: 'Featured elsewhere', media_ids: [a.id], featured_image_id: b.id });
      expect(errorFields(res)).toEqual(['featured_image_id']);
      expect(res.json().errors).toEqual([{ field: 'featured_image_id', message: 'must be one of the gallery’s images' }]);
      expect(errorFields(await post(sellerAuth, { title: 'Featured, no gallery', featured_image_id: a.id }))).toEqual([
        'featured_image_id',
      ]);
    });

    it('reports every problem of one request together', async () => {
      const res = await post(sellerAuth, {
        title: 'All wrong',
        status: 'publish',
        type_ids: [999_999],
        media_ids: [999_999],
        agency_id: 999_999,
      });
      expect(errorFields(res)).toEqual(['agency_id', 'media_ids.0', 'status', 'type_ids.0']);
    });
  });

  it('keeps the term links of a listing in the given order', async () => {
    const id = await newListing(db, { author_id: seller.id, terms: links('property_feature', garden, pool) });
    const res = await t.app.inject({ method: 'GET', url: `${API}/properties/${id}` });
    expect(res.json().data.features).toEqual([ref(garden), ref(pool)]);
  });
});
