import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgencyWithAgent, newAgent, newMedia, newTerm, newUser, signIn, unique } from '../helpers/factories.js';
import { errorBody } from '../helpers/expectations.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const NO_SOCIAL = { facebook: null, twitter: null, linkedin: null, instagram: null, youtube: null, pinterest: null, tiktok: null };

describeEachDialect('PUT /agents/{id} (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const put = (auth: Auth | undefined, id: number, payload: unknown) =>
    t.app.inject({ method: 'PUT', url: `${API}/agents/${id}`, headers: auth ?? {}, payload: payload as object });
  const get = (url: string, auth: Auth = {}) => t.app.inject({ method: 'GET', url: `${API}${url}`, headers: auth });
  const expectError = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject(errorBody(code));
  };
  const fieldsOf = (res: LightMyRequestResponse) => (res.json().errors as { field: string }[]).map((e) => e.field).sort();
  /** An agency with one agent, and tokens for both users. */
  const directory = async () => {
    const created = await newAgencyWithAgent(db);
    return { ...created, agentAuth: await signIn(t.app, created.agentUser), agencyAuth: await signIn(t.app, created.agencyUser) };
  };

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  it('updates every field the agent’s user may set, cleaning text, and answers the record', async () => {
    const { agentId, agentUser, agentAuth } = await directory();
    const before = await db.selectFrom('agents').select(['slug', 'sort_key']).where('id', '=', agentId).executeTakeFirstOrThrow();
    const sizes = JSON.stringify({ medium: { key: 'agents/me-medium.jpg', width: 600, height: 400 } });
    const picture = await newMedia(db, agentUser.id, { storage_key: `agents/${unique('me')}.jpg`, sizes });
    const [luxury, rentals] = [
      await newTerm(t.services.taxonomies, 'agent_category'),
      await newTerm(t.services.taxonomies, 'agent_category'),
    ];
    const city = await newTerm(t.services.taxonomies, 'agent_city');
    const res = await put(agentAuth, agentId, {
      name: '  <b>Ana</b> Ruiz ',
      position: '<i>Senior</i> broker',
      company: 'Ruiz & Co',
      bio: '<script>alert(1)</script>Hello <em>there</em>',
      email: 'Ana.Ruiz@Example.TEST',
      phone: '+34 910 000 001',
      mobile: '+34 600 000 001',
      whatsapp: '+34 600 000 002',
      fax: '',
      website: 'https://ana.example/about?x=1',
      license: 'LIC-1',
      tax_number: 'ES-123',
      languages: ['Spanish', ' <b>English</b> ', 'spanish', 'Français'],
      service_areas: 'Madrid centro',
      specialties: 'Lofts',
      picture_id: picture.id,
      social: { facebook: 'https://facebook.com/ana', linkedin: 'http://linkedin.com/in/ana' },
      category_ids: [rentals.id, luxury.id],
      city_ids: [city.id],
      visible: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const agent = res.json().data;
    expect(agent).toMatchObject({
      id: agentId,
      user_id: agentUser.id,
      name: 'Ana Ruiz',
      slug: before.slug,
      position: 'Senior broker',
      company: 'Ruiz & Co',
      bio: 'alert(1)Hello there',
      email: 'ana.ruiz@example.test',
      phone: '+34 910 000 001',
      mobile: '+34 600 000 001',
      whatsapp: '+34 600 000 002',
      fax: '',
      website: 'https://ana.example/about?x=1',
      license: 'LIC-1',
      tax_number: 'ES-123',
      languages: ['Spanish', 'English', 'Français'],
      service_areas: 'Madrid centro',
      specialties: 'Lofts',
      picture_url: `${t.config.publicUrl}/uploads/agents/me-medium.jpg`,
      social: { ...NO_SOCIAL, facebook: 'https://facebook.com/ana', linkedin: 'http://linkedin.com/in/ana' },
      categories: [
        { id: rentals.id, name: rentals.name, slug: rentals.slug },
        { id: luxury.id, name: luxury.name, slug: luxury.slug },
      ],
      cities: [{ id: city.id, name: city.name, slug: city.slug }],
      visible: true,
    });
    // The slug stays; the sort key follows the new name.
    const after = await db.selectFrom('agents').select(['slug', 'sort_key']).where('id', '=', agentId).executeTakeFirstOrThrow();
    expect(after).toEqual({ slug: before.slug, sort_key: 'ana ruiz' });
    expect((await get(`/agents/${agentId}`)).json().data).toEqual(agent);
  });

  it('keeps omitted fields, merges `social`, replaces term lists and clears with null and []', async () => {
    const { agentId, agentUser, agentAuth } = await directory();
    const picture = await newMedia(db, agentUser.id);
    const [a, b] = [await newTerm(t.services.taxonomies, 'agent_category'), await newTerm(t.services.taxonomies, 'agent_category')];
    expect(
      (
        await put(agentAuth, agentId, {
          company: 'Kept Co',
          picture_id: picture.id,
          social: { facebook: 'https://facebook.com/x', twitter: 'https://twitter.com/x' },
          category_ids: [a.id],
        })
      ).statusCode,
    ).toBe(200);
    const res = await put(agentAuth, agentId, { social: { twitter: null, youtube: 'https://youtube.com/@x' }, category_ids: [b.id, a.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      company: 'Kept Co',
      picture_url: expect.stringContaining('/uploads/'),
      social: { ...NO_SOCIAL, facebook: 'https://facebook.com/x', youtube: 'https://youtube.com/@x' },
      categories: [{ id: b.id }, { id: a.id }],
    });
    const cleared = await put(agentAuth, agentId, { picture_id: null, category_ids: [] });
    expect(cleared.json().data).toMatchObject({ company: 'Kept Co', picture_url: null, categories: [] });
    const empty = await put(agentAuth, agentId, {});
    expect(empty.statusCode).toBe(200);
    expect(empty.json().data.company).toBe('Kept Co');
  });

  it('lets the agent’s user, its agency’s user and administrators update; others get 403, anonymous 401', async () => {
    const { agentId, agentAuth, agencyAuth } = await directory();
    const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
    for (const [auth, company] of [
      [agentAuth, 'By agent'],
      [agencyAuth, 'By agency'],
      [admin, 'By admin'],
    ] as const) {
      const res = await put(auth, agentId, { company });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().data.company).toBe(company);
    }
    const otherDirectory = await directory();
    const strangers = [
      await signIn(t.app, await newUser(db)),
      otherDirectory.agentAuth, // another agent
      otherDirectory.agencyAuth, // another agency
      await signIn(t.app, await newUser(db, { role: 'manager' })),
    ];
    for (const auth of strangers) expectError(await put(auth, agentId, { company: 'Hijacked' }), 403, 'forbidden');
    expectError(await put(undefined, agentId, { company: 'Hijacked' }), 401, 'unauthorized');
    expect((await get(`/agents/${agentId}`)).json().data.company).toBe('By admin');
  });

  it('answers 404 for a hidden agent the caller cannot see, and for unknown ids', async () => {
    const { agentId, agentAuth, agencyAuth } = await directory();
    expect((await put(agentAuth, agentId, { visible: false })).json().data.visible).toBe(false);
    expectError(await put(await signIn(t.app, await newUser(db, { role: 'agent' })), agentId, { company: 'x' }), 404, 'not_found');
    // Managers may see it, not change it.
    expectError(await put(await signIn(t.app, await newUser(db, { role: 'manager' })), agentId, { company: 'x' }), 403, 'forbidden');
    expect((await put(agencyAuth, agentId, { visible: true })).json().data.visible).toBe(true);
    expectError(await put(agentAuth, 999_999, { company: 'x' }), 404, 'not_found');
    expectError(await put(agentAuth, 0, { company: 'x' }), 400, 'validation_failed');
  });

  it('refuses fields that are not the agent’s to set (mass assignment), changing nothing', async () => {
    const { agentId, agentAuth } = await directory();
    const otherAgency = await newAgencyWithAgent(db);
    const before = await db.selectFrom('agents').selectAll().where('id', '=', agentId).executeTakeFirstOrThrow();
    for (const field of [
      'user_id',
      'agency_id',
      'slug',
      'rating',
      'rating_sum',
      'reviews_count',
      'properties_count',
      'id',
      'url',
      'agency',
      'picture_media_id',
    ]) {
      const value =
        field === 'slug' || field === 'url' ? 'taken-over' : field === 'agency' ? { id: otherAgency.agencyId } : otherAgency.agencyId;
      const res = await put(agentAuth, agentId, { company: 'Changed', [field]: value });
      expectError(res, 400, 'validation_failed');
      expect(res.json().errors).toEqual([{ field, message: 'is not an accepted field' }]);
    }
    const after = await db.selectFrom('agents').selectAll().where('id', '=', agentId).executeTakeFirstOrThrow();
    expect(after).toEqual(before);
  });

  it('accepts a picture uploaded by the caller or by the agent’s user, nothing else', async () => {
    const { agentId, agentUser, agentAuth, agencyUser, agencyAuth } = await directory();
    const stranger = await newUser(db);
    const cases: [Auth, number, number][] = [
      [agentAuth, (await newMedia(db, agentUser.id)).id, 200],
      [agencyAuth, (await newMedia(db, agentUser.id)).id, 200], // the agent's user's upload
      [agencyAuth, (await newMedia(db, agencyUser.id)).id, 200], // the caller's own
      [agentAuth, (await newMedia(db, agencyUser.id)).id, 400], // the agency's upload is not the agent's
      [agentAuth, (await newMedia(db, stranger.id)).id, 400],
      [agentAuth, (await newMedia(db, agentUser.id, { mime_type: 'application/pdf', width: null, height: null })).id, 400],
      [agentAuth, 999_999, 400],
    ];
    for (const [auth, mediaId, status] of cases) {
      const res = await put(auth, agentId, { picture_id: mediaId });
      expect(res.statusCode, `${mediaId}: ${res.body}`).toBe(status);
      if (status === 400) {
        expect(res.json().errors).toEqual([
          { field: 'picture_id', message: 'must be an image uploaded by you or by the record’s own user' },
        ]);
      }
    }
  });

  it('checks term ids against their taxonomy, naming each bad item', async () => {
    const { agentId, agentAuth } = await directory();
    const category = await newTerm(t.services.taxonomies, 'agent_category');
    const city = await newTerm(t.services.taxonomies, 'agent_city');
    const type = await newTerm(t.services.taxonomies, 'property_type');
    const res = await put(agentAuth, agentId, { category_ids: [category.id, 999_999, city.id], city_ids: [type.id, city.id] });
    expectError(res, 400, 'validation_failed');
    expect(res.json().errors).toEqual([
      { field: 'category_ids.1', message: 'does not match any term of this taxonomy' },
      { field: 'category_ids.2', message: 'must be a term of taxonomy agent_category' },
      { field: 'city_ids.0', message: 'must be a term of taxonomy agent_city' },
    ]);
    expect((await get(`/agents/${agentId}`)).json().data.categories).toEqual([]);
    expectError(await put(agentAuth, agentId, { category_ids: [category.id, category.id] }), 400, 'validation_failed');
    expectError(await put(agentAuth, agentId, { city_ids: Array.from({ length: 51 }, (_, i) => i + 1) }), 400, 'validation_failed');
  });

  it('keeps agent term counts equal to the visible agents using each term', async () => {
    const { agentId, agentAuth } = await directory();
    const second = await directory();
    const category = await newTerm(t.services.taxonomies, 'agent_category');
    const city = await newTerm(t.services.taxonomies, 'agent_city');
    const countOf = async (path: string, key: string, id: number) =>
      ((await get(`${path}?include=${id}`)).json().data[key] as { id: number; count: number }[]).find((term) => term.id === id)?.count;
    const categoryCount = () => countOf('/agents/agent-categories', 'agent_categories', category.id);
    const cityCount = () => countOf('/agents/agent-cities', 'agent_cities', city.id);

    await put(agentAuth, agentId, { category_ids: [category.id], city_ids: [city.id] });
    expect(await categoryCount()).toBe(1);
    expect(await cityCount()).toBe(1);
    await put(second.agentAuth, second.agentId, { category_ids: [category.id] });
    expect(await categoryCount()).toBe(2);
    await put(agentAuth, agentId, { visible: false });
    expect(await categoryCount()).toBe(1);
    expect(await cityCount()).toBe(0);
    // A hidden agent's term changes leave the counts alone; showing it again counts its current terms.
    await put(agentAuth, agentId, { city_ids: [] });
    expect(await cityCount()).toBe(0);
    await put(agentAuth, agentId, { visible: true });
    expect(await categoryCount()).toBe(2);
    expect(await cityCount()).toBe(0);
    await put(second.agentAuth, second.agentId, { category_ids: [] });
    expect(await categoryCount()).toBe(1);
  });

  it('shows changes in the lists at once', async () => {
    const { agentId, agencyId, agentAuth } = await directory();
    const tag = unique('zz');
    const sibling = await newAgent(db, { agency_id: agencyId, name: `${tag} b` });
    const list = async () =>
      ((await get(`/agencies/${agencyId}/agents`)).json().data.agents as { id: number; name: string }[]).map((a) => a.id);
    expect(await list()).toEqual([agentId, sibling]); // user_… sorts before zz…
    await put(agentAuth, agentId, { name: `${tag} c` });
    expect(await list()).toEqual([sibling, agentId]);
    await put(agentAuth, agentId, { visible: false });
    expect(await list()).toEqual([sibling]);
  });

  it('validates every field', async () => {
    const { agentId, agentAuth } = await directory();
    const bad: Record<string, unknown>[] = [
      { name: '' },
      { name: 'x'.repeat(201) },
      { bio: 'x'.repeat(20_001) },
      { email: 'not-an-email' },
      { phone: 'call me' },
      { fax: 12 },
      { website: 'javascript:alert(1)' },
      { website: 'ftp://files.example' },
      { languages: Array.from({ length: 21 }, (_, i) => `L${i}`) },
      { languages: ['x'.repeat(51)] },
      { languages: ['English, French'] },
      { languages: ['Say "hi"'] },
      { languages: 'English' },
      { social: { myspace: 'https://myspace.com/x' } },
      { social: { facebook: 'javascript:alert(1)' } },
      { social: { facebook: '' } },
      { social: 'https://facebook.com/x' },
      { visible: 'yes' },
      { picture_id: 'abc' },
      { category_ids: 'a' },
    ];
    for (const payload of bad) {
      const res = await put(agentAuth, agentId, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(fieldsOf(res)[0], JSON.stringify(payload)).toMatch(new RegExp(`^${Object.keys(payload)[0]}`));
    }
    const blank = await put(agentAuth, agentId, { name: '<b></b> ' });
    expect(blank.json().errors).toEqual([{ field: 'name', message: 'must contain text once HTML tags are removed' }]);
    // Several problems are reported together.
    expect(fieldsOf(await put(agentAuth, agentId, { email: 'x', website: 'y', slug: 'z' }))).toEqual(['email', 'slug', 'website']);
    const invalidJson = await t.app.inject({
      method: 'PUT',
      url: `${API}/agents/${agentId}`,
      headers: { ...agentAuth, 'content-type': 'application/json' },
      payload: '{',
    });
    expectError(invalidJson, 400, 'invalid_json');
    // Empty email and website clear them.
    const cleared = await put(agentAuth, agentId, { email: '', website: '' });
    expect(cleared.json().data).toMatchObject({ email: '', website: '' });
  });
});
