import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Role, Taxonomy } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, links, newListing, newTerm, newUser, tokenFor, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const MISSING_ID = 2_147_483_647;

/** The listing path and `data` key of each taxonomy, to read terms back through the public API. */
const LISTING: Record<Taxonomy, readonly [path: string, key: string]> = {
  property_type: ['/property-types', 'property_types'],
  property_feature: ['/property-features', 'features'],
  property_status: ['/property-status', 'property_status'],
  property_label: ['/property-labels', 'property_labels'],
  property_country: ['/property-countries', 'countries'],
  property_state: ['/property-states', 'states'],
  property_city: ['/property-cities', 'cities'],
  property_area: ['/property-areas', 'areas'],
  agent_category: ['/agents/agent-categories', 'agent_categories'],
  agent_city: ['/agents/agent-cities', 'agent_cities'],
};

type Json = Record<string, unknown>;

describeEachDialect('term management (%s)', (dialect) => {
  let t: TestApp;
  let admin: Record<string, string>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = bearer(await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' })));
  });
  afterAll(() => t.close());

  const post = (taxonomy: string, payload: Json, headers = admin) =>
    t.app.inject({ method: 'POST', url: `${API}/terms/${taxonomy}`, headers, payload });
  const put = (taxonomy: string, id: number, payload: Json, headers = admin) =>
    t.app.inject({ method: 'PUT', url: `${API}/terms/${taxonomy}/${id}`, headers, payload });
  const del = (taxonomy: string, id: number, headers = admin) =>
    t.app.inject({ method: 'DELETE', url: `${API}/terms/${taxonomy}/${id}`, headers });
  const term = (taxonomy: Taxonomy, input: Parameters<typeof newTerm>[2] = {}) => newTerm(t.services.taxonomies, taxonomy, input);

  /** The term as the public listing shows it, or undefined when it is not listed. */
  const listed = async (taxonomy: Taxonomy, id: number): Promise<TermRecord | undefined> => {
    const [path, key] = LISTING[taxonomy];
    const res = await t.app.inject({ method: 'GET', url: `${API}${path}?include=${id}` });
    expect(res.statusCode).toBe(200);
    return (res.json().data[key] as TermRecord[])[0];
  };
  const created = (res: LightMyRequestResponse): TermRecord => {
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().success).toBe(true);
    return res.json().data as TermRecord;
  };
  const ok = (res: LightMyRequestResponse): TermRecord => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().success).toBe(true);
    return res.json().data as TermRecord;
  };
  const expectInvalid = (res: LightMyRequestResponse, field: string) => {
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({ success: false, code: 'validation_failed' });
    expect(res.json().errors.map((e: { field: string }) => e.field)).toContain(field);
  };
  const expectCode = (res: LightMyRequestResponse, status: number, code: string) => {
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toMatchObject({ success: false, code });
    expect(res.json().request_id).toBe(res.headers['x-request-id']);
  };

  describe('POST /terms/{taxonomy}', () => {
    it('answers 201 with the term itself, as the listing shows it', async () => {
      const name = unique('Penthouse ');
      const res = await post('property_type', { name, description: 'Top floor' });
      const data = created(res);
      expect(data).toStrictEqual({
        id: data.id,
        name,
        slug: name.toLowerCase().replace(' ', '-'),
        description: 'Top floor',
        count: 0,
        parent: 0,
      });
      expect(Number.isInteger(data.id) && data.id > 0).toBe(true);
      expect(Object.keys(res.json()).sort()).toEqual(['data', 'success']);
      expect(await listed('property_type', data.id)).toStrictEqual(data);
    });

    it('creates a term in each of the ten taxonomies', async () => {
      for (const taxonomy of Object.keys(LISTING) as Taxonomy[]) {
        const data = created(await post(taxonomy, { name: unique('Any ') }));
        expect(await listed(taxonomy, data.id), taxonomy).toStrictEqual(data);
      }
    });

    it('returns every optional field it was given, and nothing it was not', async () => {
      const data = created(
        await post('property_label', {
          name: unique('Hot '),
          image_url: 'https://cdn.example.test/hot.png',
          marker_icon_url: 'https://cdn.example.test/m.png',
          marker_retina_icon_url: 'https://cdn.example.test/m@2x.png',
          custom_link: 'http://example.test/hot',
          color: '#FF8800',
        }),
      );
      expect(data).toMatchObject({
        image_url: 'https://cdn.example.test/hot.png',
        marker_icon_url: 'https://cdn.example.test/m.png',
        marker_retina_icon_url: 'https://cdn.example.test/m@2x.png',
        custom_link: 'http://example.test/hot',
        color: '#ff8800',
      });
      const plain = created(await post('property_label', { name: unique('Cold ') }));
      for (const field of ['image_url', 'marker_icon_url', 'marker_retina_icon_url', 'custom_link', 'color']) {
        expect(field in plain, field).toBe(false);
      }
    });

    it('derives the slug from the name, folding accents and keeping other scripts', async () => {
      const tok = unique('');
      const cases: Array<[string, string]> = [
        [`\u00c9quip\u00e9 Loft ${tok}`, `equipe-loft-${tok}`],
        [`  \u00c7a  va -- Bi\u00ebn!! ${tok} `, `ca-va-bien-${tok}`],
        [`M\u00fcnchen Cr\u00e8me Br\u00fbl\u00e9e ${tok}`, `munchen-creme-brulee-${tok}`],
        [`\u0634\u0642\u0629 \u0641\u0627\u062e\u0631\u0629 ${tok}`, `\u0634\u0642\u0629-\u0641\u0627\u062e\u0631\u0629-${tok}`],
        [`A & B / C ${tok}`, `a-b-c-${tok}`],
      ];
      for (const [name, slug] of cases) {
        const data = created(await post('property_feature', { name }));
        expect(data.slug, name).toBe(slug);
        expect(data.name).toBe(name.trim());
      }
    });

    it('slugifies an explicit slug', async () => {
      const tok = unique('');
      expect(created(await post('property_feature', { name: unique('X '), slug: `My Custom SLUG!! ${tok}` })).slug).toBe(
        `my-custom-slug-${tok}`,
      );
      expect(created(await post('property_feature', { name: unique('X '), slug: `d\u00e9j\u00e0-vu-${tok}` })).slug).toBe(`deja-vu-${tok}`);
    });

    it('refuses a slug that has no letter or digit', async () => {
      expectInvalid(await post('property_feature', { name: unique('X '), slug: '!!!' }), 'slug');
      expectInvalid(await post('property_feature', { name: '---' }), 'name');
    });

    it('answers 409 for a slug taken in the same taxonomy, explicit or derived; other taxonomies may reuse it', async () => {
      const name = unique('Duplex ');
      const first = created(await post('property_type', { name }));
      expectCode(await post('property_type', { name }), 409, 'conflict');
      expectCode(await post('property_type', { name: unique('Other '), slug: first.slug }), 409, 'conflict');
      expectCode(await post('property_type', { name: unique('Other '), slug: first.slug.toUpperCase() }), 409, 'conflict');
      expect(created(await post('property_feature', { name })).slug).toBe(first.slug);
    });

    it('strips HTML tags from the name before deriving the slug', async () => {
      const tok = unique('');
      const data = created(await post('property_feature', { name: ` <em>Sea</em> <b>view</b> ${tok}<br/> ` }));
      expect(data.name).toBe(`Sea view ${tok}`);
      expect(data.slug).toBe(`sea-view-${tok}`);
      expectInvalid(await post('property_feature', { name: '<b></b>' }), 'name');
    });

    it('keeps a `<` or `>` that is not part of a tag (plain text, not HTML)', async () => {
      const tok = unique('');
      for (const name of [`Beds < 3 ${tok}`, `1<2 and 3>2 ${tok}`, `I <3 gardens ${tok}`]) {
        const data = created(await post('property_feature', { name }));
        expect(data.name, name).toBe(name);
        expect((await listed('property_feature', data.id))?.name).toBe(name);
      }
    });

    it('sanitizes the description to the allow-list of docs/api.md 0.4 instead of dropping all markup', async () => {
      const data = created(
        await post('property_type', {
          name: unique('Described '),
          description:
            '<p>Near the <strong>beach</strong><br>and <em>quiet</em></p><script>alert(1)</script><a href="javascript:alert(2)">x</a><img src=x onerror=alert(3)>',
        }),
      );
      expect(data.description).toContain('<p>');
      expect(data.description).toContain('<strong>beach</strong>');
      expect(data.description).toContain('<em>quiet</em>');
      for (const unsafe of ['<script', 'javascript:', '<img', 'onerror']) expect(data.description).not.toContain(unsafe);
    });

    it('answers 400 for an unknown taxonomy', async () => {
      for (const taxonomy of ['property_colour', 'category', 'PROPERTY_TYPE']) {
        const res = await post(taxonomy, { name: unique('X ') });
        expectInvalid(res, 'taxonomy');
      }
    });

    it.each(['red', '#12345', '#1234567', '#GGGGGG', 'ff0000', '#ff000', ''])('refuses the colour %j', async (color) => {
      expectInvalid(await post('property_status', { name: unique('X '), color }), 'color');
    });

    it('accepts colours on status and label terms only', async () => {
      expect(created(await post('property_status', { name: unique('S '), color: '#00aa11' })).color).toBe('#00aa11');
      for (const taxonomy of ['property_feature', 'property_type', 'property_country', 'agent_category']) {
        expectInvalid(await post(taxonomy, { name: unique('X '), color: '#00aa11' }), 'color');
      }
    });

    it.each([
      ['image_url', 'javascript:alert(1)'],
      ['image_url', 'ftp://files.example.test/a.png'],
      ['image_url', 'data:image/png;base64,AAAA'],
      ['image_url', 'not a url'],
      ['image_url', '//cdn.example.test/a.png'],
      ['marker_icon_url', 'javascript:alert(1)'],
      ['marker_retina_icon_url', 'file:///etc/passwd'],
      ['custom_link', 'JavaScript:alert(1)'],
      ['custom_link', 'ftp://example.test/'],
    ])('refuses %s = %j', async (field, value) => {
      expectInvalid(await post('property_type', { name: unique('X '), [field]: value }), field);
    });

    it.each([
      ['count', 5],
      ['id', 7],
      ['taxonomy', 'property_type'],
      ['created_at', '2020-01-01T00:00:00Z'],
      ['sort_key', 'a'],
      ['parent_country', { id: 1 }],
    ])('refuses the unknown body field %s (mass assignment)', async (field, value) => {
      expectInvalid(await post('property_feature', { name: unique('X '), [field]: value }), field);
    });

    it.each([
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(201) }, 'name'],
      [{ name: 5 }, 'name'],
      [{ name: 'Ok', parent: '1' }, 'parent'],
      [{ name: 'Ok', parent: -1 }, 'parent'],
      [{ name: 'Ok', parent: 1.5 }, 'parent'],
      [{ name: 'Ok', parent: 2147483648 }, 'parent'],
      [{ name: 'Ok', parent: null }, 'parent'],
      [{ name: 'Ok', description: 7 }, 'description'],
    ])('refuses the body %j naming %s', async (payload, field) => {
      expectInvalid(await post('property_feature', payload), field);
    });

    it('answers invalid_json for a malformed body', async () => {
      const res = await t.app.inject({
        method: 'POST',
        url: `${API}/terms/property_feature`,
        headers: { ...admin, 'content-type': 'application/json' },
        payload: '{"name": ',
      });
      expectCode(res, 400, 'invalid_json');
    });

    it('takes a parent of the same taxonomy only', async () => {
      const parent = await term('property_feature');
      expect(created(await post('property_feature', { name: unique('Child '), parent: parent.id })).parent).toBe(parent.id);
      expect(created(await post('property_feature', { name: unique('Top '), parent: 0 })).parent).toBe(0);
      const foreign = await term('property_type');
      expectInvalid(await post('property_feature', { name: unique('X '), parent: foreign.id }), 'parent');
      expectInvalid(await post('property_feature', { name: unique('X '), parent: MISSING_ID }), 'parent');
    });

    it('sets the location parent of a state, a city and an area', async () => {
      const country = await term('property_country');
      const state = created(await post('property_state', { name: unique('State '), country_id: country.id }));
      expect(state.parent_country).toStrictEqual({ id: country.id, name: country.name, slug: country.slug });
      expect(state.parent).toBe(0);
      const city = created(await post('property_city', { name: unique('City '), state_id: state.id }));
      expect(city.parent_state).toStrictEqual({ id: state.id, name: state.name, slug: state.slug });
      expect('parent_country' in city).toBe(false);
      const area = created(await post('property_area', { name: unique('Area '), city_id: city.id }));
      expect(area.parent_city).toStrictEqual({ id: city.id, name: city.name, slug: city.slug });
      expect(await listed('property_area', area.id)).toStrictEqual(area);
    });

    it('refuses a location parent of the wrong level or taxonomy', async () => {
      const country = await term('property_country');
      const state = await term('property_state', { country_id: country.id });
      expectInvalid(await post('property_city', { name: unique('X '), country_id: country.id }), 'country_id');
      expectInvalid(await post('property_city', { name: unique('X '), state_id: country.id }), 'state_id');
      expectInvalid(await post('property_state', { name: unique('X '), country_id: state.id }), 'country_id');
      expectInvalid(await post('property_state', { name: unique('X '), country_id: MISSING_ID }), 'country_id');
      expectInvalid(await post('property_state', { name: unique('X '), country_id: 99999999999 }), 'country_id');
      expectInvalid(await post('property_state', { name: unique('X '), country_id: 0 }), 'country_id');
      expectInvalid(await post('property_area', { name: unique('X '), city_id: state.id }), 'city_id');
      expectInvalid(await post('property_feature', { name: unique('X '), country_id: country.id }), 'country_id');
      expectInvalid(await post('property_country', { name: unique('X '), country_id: country.id }), 'country_id');
    });

    it('creates nothing when it refuses', async () => {
      const slug = unique('never-');
      await post('property_feature', { name: 'Never', slug, color: '#000000' });
      await post('property_feature', { name: 'Never', slug, count: 3 });
      const res = await t.app.inject({ method: 'GET', url: `${API}/property-features?slug=${slug}` });
      expect(res.json().success).toBe(false);
    });
  });

  describe('PUT /terms/{taxonomy}/{id}', () => {
    it('changes only the fields it is given', async () => {
      const before = await term('property_type', {
        description: 'Old',
        image_url: 'https://cdn.example.test/old.png',
        custom_link: 'https://example.test/old',
      });
      const after = ok(await put('property_type', before.id, { description: 'New' }));
      expect(after).toStrictEqual({ ...before, description: 'New' });
      expect(await listed('property_type', before.id)).toStrictEqual(after);
      expect(ok(await put('property_type', before.id, {}))).toStrictEqual(after);
    });

    it('keeps the slug when only the name changes, and strips HTML from the new name', async () => {
      const before = await term('property_feature');
      const after = ok(await put('property_feature', before.id, { name: '<i>Renamed</i> term' }));
      expect(after.name).toBe('Renamed term');
      expect(after.slug).toBe(before.slug);
      expect(ok(await put('property_feature', before.id, { slug: 'Brand New \u00c9 ' + before.id })).slug).toBe(`brand-new-e-${before.id}`);
    });

    it('clears optional fields with null, which then disappear from the term', async () => {
      const before = await term('property_status', {
        color: '#123456',
        image_url: 'https://cdn.example.test/a.png',
        marker_icon_url: 'https://cdn.example.test/b.png',
        marker_retina_icon_url: 'https://cdn.example.test/c.png',
        custom_link: 'https://example.test/d',
      });
      const after = ok(
        await put('property_status', before.id, {
          color: null,
          image_url: null,
          marker_icon_url: null,
          marker_retina_icon_url: null,
          custom_link: null,
        }),
      );
      expect(Object.keys(after).sort()).toEqual(['count', 'description', 'id', 'name', 'parent', 'slug']);
      expect(await listed('property_status', before.id)).toStrictEqual(after);
      expect(ok(await put('property_status', before.id, { color: '#ABCDEF' })).color).toBe('#abcdef');
    });

    it('moves and clears a location parent', async () => {
      const [a, b] = [await term('property_country'), await term('property_country')];
      const state = await term('property_state', { country_id: a.id });
      expect(ok(await put('property_state', state.id, { country_id: b.id })).parent_country?.id).toBe(b.id);
      expect('parent_country' in ok(await put('property_state', state.id, { country_id: null }))).toBe(false);
      expectInvalid(await put('property_state', state.id, { state_id: state.id }), 'state_id');
    });

    it('sets, changes and clears the parent', async () => {
      const [p1, p2, child] = [await term('property_feature'), await term('property_feature'), await term('property_feature')];
      expect(ok(await put('property_feature', child.id, { parent: p1.id })).parent).toBe(p1.id);
      expect(ok(await put('property_feature', child.id, { parent: p2.id })).parent).toBe(p2.id);
      expect(ok(await put('property_feature', child.id, { parent: 0 })).parent).toBe(0);
    });

    it('refuses a parent cycle: the term itself or any of its descendants', async () => {
      const root = await term('property_feature');
      const child = await term('property_feature', { parent: root.id });
      const grandchild = await term('property_feature', { parent: child.id });
      expectInvalid(await put('property_feature', root.id, { parent: root.id }), 'parent');
      expectInvalid(await put('property_feature', root.id, { parent: child.id }), 'parent');
      expectInvalid(await put('property_feature', root.id, { parent: grandchild.id }), 'parent');
      expectInvalid(await put('property_feature', child.id, { parent: grandchild.id }), 'parent');
      expect((await listed('property_feature', root.id))?.parent).toBe(0);
      // Moving a descendant under another branch is fine.
      expect(ok(await put('property_feature', grandchild.id, { parent: root.id })).parent).toBe(root.id);
    });

    it('refuses a parent of another taxonomy or one that does not exist', async () => {
      const own = await term('property_feature');
      expectInvalid(await put('property_feature', own.id, { parent: (await term('property_type')).id }), 'parent');
      expectInvalid(await put('property_feature', own.id, { parent: MISSING_ID }), 'parent');
    });

    it('answers 404 for an unknown id and for an id of another taxonomy', async () => {
      expectCode(await put('property_feature', MISSING_ID, { name: 'X' }), 404, 'not_found');
      const feature = await term('property_feature');
      expectCode(await put('property_type', feature.id, { name: 'Hijacked' }), 404, 'not_found');
      expect((await listed('property_feature', feature.id))?.name).toBe(feature.name);
    });

    it('answers 409 for a slug taken in the taxonomy, and accepts the term keeping its own', async () => {
      const [a, b] = [await term('property_type'), await term('property_type')];
      expectCode(await put('property_type', b.id, { slug: a.slug }), 409, 'conflict');
      expect((await listed('property_type', b.id))?.slug).toBe(b.slug);
      expect(ok(await put('property_type', b.id, { slug: b.slug })).slug).toBe(b.slug);
      const other = await term('property_feature');
      expect(ok(await put('property_feature', other.id, { slug: a.slug })).slug).toBe(a.slug);
    });

    it('validates like POST', async () => {
      const label = await term('property_label');
      expectInvalid(await put('property_label', label.id, { color: 'blue' }), 'color');
      expectInvalid(await put('property_label', label.id, { image_url: 'javascript:alert(1)' }), 'image_url');
      expectInvalid(await put('property_label', label.id, { count: 10 }), 'count');
      expectInvalid(await put('property_label', label.id, { id: label.id + 1 }), 'id');
      expectInvalid(await put('property_label', label.id, { name: '' }), 'name');
      expectInvalid(await put('property_label', label.id, { name: null }), 'name');
      expectInvalid(await put('property_feature', (await term('property_feature')).id, { color: '#000000' }), 'color');
      expectInvalid(await put('property_label', 0, { name: 'X' }), 'id');
      expectInvalid(await put('property_label', 99999999999, { name: 'X' }), 'id');
      expect(await listed('property_label', label.id)).toStrictEqual(label);
    });
  });

  describe('DELETE /terms/{taxonomy}/{id}', () => {
    it('deletes the term and removes it from its listings, leaving the listings’ other terms', async () => {
      const [gone, kept] = [await term('property_feature'), await term('property_feature')];
      const listing = await newListing(t.database.db, { terms: links('property_feature', gone, kept) });
      expect((await listed('property_feature', gone.id))?.count).toBe(1);
      const res = await del('property_feature', gone.id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ success: true, data: { id: gone.id, deleted: true } });
      const rows = await t.database.db.selectFrom('listing_terms').select('term_id').where('listing_id', '=', listing).execute();
      expect(rows.map((r) => r.term_id)).toEqual([kept.id]);
      const orphanLinks = await t.database.db.selectFrom('listing_terms').select('listing_id').where('term_id', '=', gone.id).execute();
      expect(orphanLinks).toHaveLength(0);
      expect((await listed('property_feature', kept.id))?.count).toBe(1);
      expect(await listed('property_feature', gone.id)).toBeUndefined();
    });

    it('re-parents the children to 0', async () => {
      const parent = await term('property_type');
      const [a, b] = [await term('property_type', { parent: parent.id }), await term('property_type', { parent: parent.id })];
      const grandchild = await term('property_type', { parent: a.id });
      expect((await del('property_type', parent.id)).statusCode).toBe(200);
      expect((await listed('property_type', a.id))?.parent).toBe(0);
      expect((await listed('property_type', b.id))?.parent).toBe(0);
      expect((await listed('property_type', grandchild.id))?.parent).toBe(a.id);
    });

    it('removes the location parent from the children of a country, state or city', async () => {
      const country = await term('property_country');
      const state = await term('property_state', { country_id: country.id });
      const city = await term('property_city', { state_id: state.id });
      expect((await del('property_country', country.id)).statusCode).toBe(200);
      const orphan = await listed('property_state', state.id);
      expect(orphan).toBeDefined();
      expect('parent_country' in (orphan ?? {})).toBe(false);
      expect((await listed('property_city', city.id))?.parent_state?.id).toBe(state.id);
      expect((await del('property_state', state.id)).statusCode).toBe(200);
      expect('parent_state' in ((await listed('property_city', city.id)) ?? {})).toBe(false);
    });

    it('answers 404 the second time, for an unknown id and for an id of another taxonomy', async () => {
      const feature = await term('property_feature');
      expectCode(await del('property_type', feature.id), 404, 'not_found');
      expect(await listed('property_feature', feature.id)).toBeDefined();
      expect((await del('property_feature', feature.id)).statusCode).toBe(200);
      expectCode(await del('property_feature', feature.id), 404, 'not_found');
      expectCode(await del('property_feature', MISSING_ID), 404, 'not_found');
    });

    it('refuses a body-less request with an invalid id or taxonomy', async () => {
      expectInvalid(await del('property_feature', 0), 'id');
      expectInvalid(await del('nope', 1), 'taxonomy');
    });
  });

  describe('authorization', () => {
    const NON_ADMIN_ROLES: Role[] = ['buyer', 'seller', 'manager', 'agent', 'agency', 'owner'];
    let target: TermRecord;
    let tokens: Array<[Role, Record<string, string>]>;

    beforeAll(async () => {
      target = await term('property_feature');
      tokens = [];
      for (const role of NON_ADMIN_ROLES) tokens.push([role, bearer(await tokenFor(t.app, await newUser(t.database.db, { role })))]);
    });

    const operations = (headers: Record<string, string>) => [
      post('property_feature', { name: unique('Denied ') }, headers),
      put('property_feature', target.id, { name: 'Denied' }, headers),
      del('property_feature', target.id, headers),
    ];

    it('answers 401 unauthorized without a token, before looking at the body', async () => {
      for (const res of await Promise.all(operations({}))) expectCode(res, 401, 'unauthorized');
      expectCode(await post('property_feature', { count: 'bad' }, {}), 401, 'unauthorized');
      expectCode(await post('no_such_taxonomy', {}, {}), 401, 'unauthorized');
    });

    it('answers 401 invalid_token for a bad token', async () => {
      for (const res of await Promise.all(operations(bearer('not-a-jwt')))) expectCode(res, 401, 'invalid_token');
    });

    it('answers 403 forbidden to every role but administrator, and changes nothing', async () => {
      for (const [role, headers] of tokens) {
        for (const res of await Promise.all(operations(headers))) {
          expect(res.statusCode, role).toBe(403);
          expect(res.json().code).toBe('forbidden');
        }
      }
      expect(await listed('property_feature', target.id)).toStrictEqual(target);
    });

    it('lets the administrator create, update and delete', async () => {
      const data = created(await post('property_feature', { name: unique('Allowed ') }));
      expect(ok(await put('property_feature', data.id, { name: 'Allowed too' })).name).toBe('Allowed too');
      expect((await del('property_feature', data.id)).statusCode).toBe(200);
    });
  });
});
