import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Taxonomy } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, links, newListing, newTerm, newUser, tokenFor, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
/** An id no test creates (the largest int4), for record-not-found answers. */
const MISSING_ID = 2_147_483_647;

/** The ten public term listings of docs/api.md 1.2: path, taxonomy, `data` key. */
const ENDPOINTS: ReadonlyArray<readonly [path: string, taxonomy: Taxonomy, key: string]> = [
  ['/property-types', 'property_type', 'property_types'],
  ['/property-features', 'property_feature', 'features'],
  ['/property-status', 'property_status', 'property_status'],
  ['/property-labels', 'property_label', 'property_labels'],
  ['/property-countries', 'property_country', 'countries'],
  ['/property-states', 'property_state', 'states'],
  ['/property-cities', 'property_city', 'cities'],
  ['/property-areas', 'property_area', 'areas'],
  ['/agents/agent-categories', 'agent_category', 'agent_categories'],
  ['/agents/agent-cities', 'agent_city', 'agent_cities'],
];

const BASE_KEYS = ['count', 'description', 'id', 'name', 'parent', 'slug'];
const URL_FIELDS = ['image_url', 'marker_icon_url', 'marker_retina_icon_url', 'custom_link'] as const;

describeEachDialect('term listings (%s)', (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'GET', url: /^(\/[a-z]{2})?\/realty-api\//.test(url) ? url : API + url, headers });
  const term = (taxonomy: Taxonomy, input: Parameters<typeof newTerm>[2] = {}) => newTerm(t.services.taxonomies, taxonomy, input);
  /** The ids listed under `key`, in answer order. */
  const idsOf = (res: LightMyRequestResponse, key: string): number[] => {
    expect(res.statusCode, res.body).toBe(200);
    return (res.json().data[key] as TermRecord[]).map((x) => x.id);
  };
  const features = async (query: string) => idsOf(await get(`/property-features?${query}`), 'features');
  const types = async (query: string) => idsOf(await get(`/property-types?${query}`), 'property_types');
  const expectNotFound = (res: LightMyRequestResponse, key: string, message = 'Record not found') => {
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toStrictEqual({ success: false, message, data: { [key]: [] } });
  };

  describe('the ten endpoints', () => {
    it.each(ENDPOINTS)('%s lists %s terms under `%s`', async (path, taxonomy, key) => {
      const own = await term(taxonomy);
      const other = await term(taxonomy === 'property_type' ? 'property_feature' : 'property_type');
      const res = await get(`${path}?include=${own.id},${other.id}`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Object.keys(body).sort()).toEqual(['data', 'success']);
      expect(body.success).toBe(true);
      expect(Object.keys(body.data)).toEqual([key]);
      expect(body.data[key]).toStrictEqual([own]);
    });

    it.each(ENDPOINTS)('%s answers the record-not-found body when nothing matches', async (path, _taxonomy, key) => {
      expectNotFound(await get(`${path}?include=${MISSING_ID}`), key);
    });

    it('lists every term of the taxonomy without parameters, with the default order by name', async () => {
      const created = [await term('agent_city', { name: unique('Zeta ') }), await term('agent_city', { name: unique('Alpha ') })];
      const res = await get('/agents/agent-cities');
      const listed = idsOf(res, 'agent_cities');
      for (const c of created) expect(listed).toContain(c.id);
      const names = (res.json().data.agent_cities as TermRecord[]).map((x) => x.name.toLowerCase());
      expect(names).toEqual([...names].sort());
    });
  });

  describe('term records', () => {
    it('a property-type term has exactly the seed fields, optional ones only when set', async () => {
      const bare = await term('property_type', { description: 'Plain' });
      const full = await term('property_type', {
        image_url: 'https://cdn.example.test/type.png',
        marker_icon_url: 'https://cdn.example.test/marker.png',
        marker_retina_icon_url: 'https://cdn.example.test/marker@2x.png',
        custom_link: 'http://example.test/apartments',
      });
      const listed = (await get(`/property-types?include=${bare.id},${full.id}&orderby=id`)).json().data.property_types as TermRecord[];
      const [first, second] = listed;
      expect(Object.keys(first ?? {}).sort()).toEqual(BASE_KEYS);
      for (const field of [...URL_FIELDS, 'color', 'parent_country']) expect(field in (first ?? {})).toBe(false);
      expect(first).toMatchObject({ id: bare.id, name: bare.name, slug: bare.slug, description: 'Plain', count: 0, parent: 0 });
      expect(Object.keys(second ?? {}).sort()).toEqual([...BASE_KEYS, ...URL_FIELDS].sort());
      expect(second).toMatchObject({
        id: full.id,
        description: '',
        image_url: 'https://cdn.example.test/type.png',
        marker_icon_url: 'https://cdn.example.test/marker.png',
        marker_retina_icon_url: 'https://cdn.example.test/marker@2x.png',
        custom_link: 'http://example.test/apartments',
      });
    });

    it('a feature term has exactly id, name, slug, description, count and parent, all typed', async () => {
      const parent = await term('property_feature');
      const child = await term('property_feature', { parent: parent.id, description: 'Cool air' });
      const [listed] = (await get(`/property-features?include=${child.id}`)).json().data.features as TermRecord[];
      expect(Object.keys(listed ?? {}).sort()).toEqual(BASE_KEYS);
      expect(listed).toStrictEqual({
        id: child.id,
        name: child.name,
        slug: child.slug,
        description: 'Cool air',
        count: 0,
        parent: parent.id,
      });
    });

    it('status and label terms carry `color` only when set', async () => {
      const red = await term('property_label', { color: '#AA0011' });
      const plain = await term('property_status');
      const [label] = (await get(`/property-labels?include=${red.id}`)).json().data.property_labels as TermRecord[];
      expect(label?.color).toBe('#aa0011');
      expect(Object.keys(label ?? {}).sort()).toEqual([...BASE_KEYS, 'color'].sort());
      const [status] = (await get(`/property-status?include=${plain.id}`)).json().data.property_status as TermRecord[];
      expect('color' in (status ?? {})).toBe(false);
      expect(Object.keys(status ?? {}).sort()).toEqual(BASE_KEYS);
    });
  });

  describe('location terms', () => {
    let countryA: TermRecord;
    let countryB: TermRecord;
    let stateA: TermRecord;
    let stateB: TermRecord;
    let orphanState: TermRecord;
    let city: TermRecord;
    let area: TermRecord;

    beforeAll(async () => {
      countryA = await term('property_country', { name: unique('Espa\u00f1a ') });
      countryB = await term('property_country');
      stateA = await term('property_state', { country_id: countryA.id });
      stateB = await term('property_state', { country_id: countryB.id });
      orphanState = await term('property_state');
      city = await term('property_city', { state_id: stateA.id });
      area = await term('property_area', { city_id: city.id });
    });

    it('filters states by country slug or id and shows parent_country', async () => {
      for (const country of [countryA.slug, String(countryA.id)]) {
        const res = await get(`/property-states?country=${encodeURIComponent(country)}`);
        const states = res.json().data.states as TermRecord[];
        expect(
          states.map((s) => s.id),
          country,
        ).toEqual([stateA.id]);
        expect(states[0]?.parent_country).toStrictEqual({ id: countryA.id, name: countryA.name, slug: countryA.slug });
        expect(Object.keys(states[0] ?? {}).sort()).toEqual([...BASE_KEYS, 'parent_country'].sort());
      }
      expect(idsOf(await get(`/property-states?country=${countryB.id}`), 'states')).toEqual([stateB.id]);
    });

    it('leaves parent_country out of a state without a country', async () => {
      const [state] = (await get(`/property-states?include=${orphanState.id}`)).json().data.states as TermRecord[];
      expect(state?.id).toBe(orphanState.id);
      expect('parent_country' in (state ?? {})).toBe(false);
    });

    it('filters cities by state and areas by city, with parent_state and parent_city', async () => {
      for (const value of [stateA.slug, String(stateA.id)]) {
        const [listed] = (await get(`/property-cities?state=${value}`)).json().data.cities as TermRecord[];
        expect(listed?.id).toBe(city.id);
        expect(listed?.parent_state).toStrictEqual({ id: stateA.id, name: stateA.name, slug: stateA.slug });
        expect('parent_country' in (listed ?? {})).toBe(false);
      }
      for (const value of [city.slug, String(city.id)]) {
        const [listed] = (await get(`/property-areas?city=${value}`)).json().data.areas as TermRecord[];
        expect(listed?.id).toBe(area.id);
        expect(listed?.parent_city).toStrictEqual({ id: city.id, name: city.name, slug: city.slug });
      }
    });

    it('combines the location filter with the other parameters', async () => {
      const second = await term('property_state', { country_id: countryA.id, name: unique('Aaa ') });
      expect(idsOf(await get(`/property-states?country=${countryA.id}&orderby=id&order=desc`), 'states')).toEqual([second.id, stateA.id]);
      expect(idsOf(await get(`/property-states?country=${countryA.slug}&exclude=${second.id}`), 'states')).toEqual([stateA.id]);
    });

    it('answers record-not-found for an unknown country, state or city, and for a parent of the wrong level', async () => {
      expectNotFound(await get(`/property-states?country=${unique('nowhere-')}`), 'states');
      expectNotFound(await get(`/property-states?country=${MISSING_ID}`), 'states');
      expectNotFound(await get(`/property-cities?state=${countryA.id}`), 'cities');
      expectNotFound(await get(`/property-areas?city=${stateA.slug}`), 'areas');
    });

    it('refuses a location filter on an endpoint that has none, and an id too large for the database', async () => {
      for (const url of [`/property-cities?country=${countryA.id}`, `/property-types?state=x`, `/property-states?city=x`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(400);
      }
      const res = await get('/property-states?country=9999999999');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors.map((e: { field: string }) => e.field)).toContain('country');
    });
  });

  describe('query parameters', () => {
    // Name order: álpha, Bravo, Charlie (case- and accent-folded); slug order: Bravo, Charlie, álpha;
    // id order: Charlie, álpha, Bravo; count order: álpha (0), Bravo (1), Charlie (2).
    let charlie: TermRecord;
    let alpha: TermRecord;
    let bravo: TermRecord;
    let ids: string;
    const tok = unique('');

    beforeAll(async () => {
      charlie = await term('property_type', { name: `Charlie ${tok}`, slug: `y-${tok}` });
      alpha = await term('property_type', { name: `\u00e1lpha ${tok}`, slug: `z-${tok}` });
      bravo = await term('property_type', { name: `Bravo ${tok}`, slug: `x-${tok}` });
      ids = `${charlie.id},${alpha.id},${bravo.id}`;
      const db = t.database.db;
      await newListing(db, { terms: links('property_type', charlie) });
      await newListing(db, { terms: links('property_type', charlie, bravo) });
      await newListing(db, { status: 'draft', terms: links('property_type', alpha, bravo) });
      await newListing(db, { status: 'sold', terms: links('property_type', alpha) });
    });

    it('orders by name (folded) by default, ascending', async () => {
      expect(await types(`include=${ids}`)).toEqual([alpha.id, bravo.id, charlie.id]);
      expect(await types(`include=${ids}&orderby=name`)).toEqual([alpha.id, bravo.id, charlie.id]);
      expect(await types(`include=${ids}&orderby=name&order=DESC`)).toEqual([charlie.id, bravo.id, alpha.id]);
    });

    it.each([
      ['id', () => [charlie.id, alpha.id, bravo.id]],
      ['slug', () => [bravo.id, charlie.id, alpha.id]],
      ['count', () => [alpha.id, bravo.id, charlie.id]],
      ['name', () => [alpha.id, bravo.id, charlie.id]],
    ] as const)('orderby=%s in both directions, `order` in any case', async (orderby, expected) => {
      const ascending = expected();
      const descending = [...ascending].reverse();
      for (const order of ['ASC', 'asc', 'Asc']) expect(await types(`include=${ids}&orderby=${orderby}&order=${order}`)).toEqual(ascending);
      for (const order of ['DESC', 'desc', 'dEsC'])
        expect(await types(`include=${ids}&orderby=${orderby}&order=${order}`)).toEqual(descending);
    });

    it('reports the count of published listings only', async () => {
      const listed = (await get(`/property-types?include=${ids}&orderby=id`)).json().data.property_types as TermRecord[];
      expect(listed.map((x) => x.count)).toEqual([2, 0, 1]);
    });

    it.each(['true', '1'])('hide_empty=%s hides terms with count 0', async (value) => {
      expect(await types(`include=${ids}&hide_empty=${value}`)).toEqual([bravo.id, charlie.id]);
    });

    it.each(['false', '0'])('hide_empty=%s shows every term', async (value) => {
      expect(await types(`include=${ids}&hide_empty=${value}`)).toEqual([alpha.id, bravo.id, charlie.id]);
    });

    it('hide_empty answers record-not-found when every match is empty', async () => {
      expectNotFound(await get(`/property-types?include=${alpha.id}&hide_empty=1`), 'property_types');
    });

    it('pages with number and offset; number=0 means all; offset applies without number', async () => {
      expect(await types(`include=${ids}&number=2`)).toEqual([alpha.id, bravo.id]);
      expect(await types(`include=${ids}&number=0`)).toEqual([alpha.id, bravo.id, charlie.id]);
      expect(await types(`include=${ids}&number=1&offset=1`)).toEqual([bravo.id]);
      expect(await types(`include=${ids}&number=5&offset=2`)).toEqual([charlie.id]);
      expect(await types(`include=${ids}&offset=1`)).toEqual([bravo.id, charlie.id]);
      expect(await types(`include=${ids}&offset=0&number=0`)).toEqual([alpha.id, bravo.id, charlie.id]);
      expect(await types(`include=${ids}&number=2&orderby=count&order=desc`)).toEqual([charlie.id, bravo.id]);
      expectNotFound(await get(`/property-types?include=${ids}&offset=3`), 'property_types');
      expectNotFound(await get(`/property-types?include=${ids}&number=2&offset=10`), 'property_types');
    });

    it('include, exclude and slug take both array forms', async () => {
      for (const query of [
        `include=${alpha.id},${charlie.id}`,
        `include[]=${alpha.id}&include[]=${charlie.id}`,
        `include=${alpha.id}&include=${charlie.id}`,
      ]) {
        expect(await types(query), query).toEqual([alpha.id, charlie.id]);
      }
      for (const query of [`exclude=${alpha.id},${charlie.id}`, `exclude[]=${alpha.id}&exclude[]=${charlie.id}`]) {
        expect(await types(`include=${ids}&${query}`), query).toEqual([bravo.id]);
      }
      for (const query of [`slug=${alpha.slug},${bravo.slug}`, `slug[]=${alpha.slug}&slug[]=${bravo.slug}`]) {
        expect(await types(query), query).toEqual([alpha.id, bravo.id]);
      }
      expect(await types(`slug=${bravo.slug}`)).toEqual([bravo.id]);
      expectNotFound(await get(`/property-types?slug=${unique('no-such-slug-')}`), 'property_types');
    });

    it('exclude alone lists every other term of the taxonomy', async () => {
      const listed = await types(`exclude=${alpha.id}&number=0`);
      expect(listed).toContain(bravo.id);
      expect(listed).toContain(charlie.id);
      expect(listed).not.toContain(alpha.id);
    });

    it('combines include with exclude, slug, hide_empty and paging', async () => {
      expect(await types(`include=${ids}&exclude=${bravo.id}&hide_empty=true`)).toEqual([charlie.id]);
      expect(await types(`include=${ids}&slug=${alpha.slug},${charlie.slug}&orderby=slug&order=desc`)).toEqual([alpha.id, charlie.id]);
      expectNotFound(await get(`/property-types?include=${alpha.id}&exclude=${alpha.id}`), 'property_types');
    });

    it('accepts exactly 100 ids in include', async () => {
      const many = [alpha.id, ...Array.from({ length: 99 }, (_, i) => MISSING_ID - i)];
      expect(await types(`include=${many.join(',')}`)).toEqual([alpha.id]);
    });
  });

  describe('parent', () => {
    let root: TermRecord;
    let childA: TermRecord;
    let childB: TermRecord;
    let grandchild: TermRecord;

    beforeAll(async () => {
      root = await term('property_feature', { name: unique('Root ') });
      childB = await term('property_feature', { name: unique('B child '), parent: root.id });
      childA = await term('property_feature', { name: unique('A child '), parent: root.id });
      grandchild = await term('property_feature', { parent: childA.id });
    });

    it('lists only the direct children of a term', async () => {
      expect(await features(`parent=${root.id}`)).toEqual([childA.id, childB.id]);
      expect(await features(`parent=${childA.id}`)).toEqual([grandchild.id]);
      expectNotFound(await get(`/property-features?parent=${grandchild.id}`), 'features');
    });

    it('parent=0 lists top-level terms only', async () => {
      const all = [root.id, childA.id, childB.id, grandchild.id].join(',');
      expect(await features(`parent=0&include=${all}`)).toEqual([root.id]);
      const topLevel = await features('parent=0');
      expect(topLevel).toContain(root.id);
      expect(topLevel).not.toContain(childA.id);
    });

    it('combines parent with paging and ordering', async () => {
      expect(await features(`parent=${root.id}&orderby=id`)).toEqual([childB.id, childA.id]);
      expect(await features(`parent=${root.id}&number=1&offset=1`)).toEqual([childB.id]);
    });

    it('answers record-not-found for a parent that does not exist', async () => {
      expectNotFound(await get(`/property-features?parent=${MISSING_ID}`), 'features');
    });
  });

  describe('search', () => {
    let accented: TermRecord;
    let plain: TermRecord;
    let underscore: TermRecord;
    let lookalike: TermRecord;
    let ids: string;

    beforeAll(async () => {
      const tok = unique('');
      accented = await term('property_feature', { name: `\u00c9quip\u00e9 Kitchen ${tok}` });
      plain = await term('property_feature', { name: `Garden ${tok}`, slug: `verde-${tok}` });
      underscore = await term('property_feature', { name: `Under_score ${tok}` });
      lookalike = await term('property_feature', { name: `Underxscore ${tok}` });
      ids = [accented.id, plain.id, underscore.id, lookalike.id].join(',');
    });

    const search = (text: string) => features(`include=${ids}&search=${encodeURIComponent(text)}`);

    it('matches a substring of the name ignoring case and accents', async () => {
      expect(accented.slug.startsWith('equipe-kitchen-')).toBe(true);
      for (const text of ['equipe', 'EQUIPE', '\u00e9quip\u00e9', '\u00c9QUIP\u00c9', 'quip\u00e9 kit', 'kitchen', ' equipe ']) {
        expect(await search(text), text).toEqual([accented.id]);
      }
    });

    it('matches a substring of the slug', async () => {
      expect(await search('verde')).toEqual([plain.id]);
      expect(await search('equipe-kitchen')).toEqual([accented.id]);
      expect(await search('garden')).toEqual([plain.id]);
    });

    it('treats LIKE wildcards literally', async () => {
      expect(await search('r_s')).toEqual([underscore.id]);
      expect(await search('under_')).toEqual([underscore.id]);
      expectNotFound(await get(`/property-features?include=${ids}&search=${encodeURIComponent('%')}`), 'features');
      expectNotFound(await get(`/property-features?include=${ids}&search=${encodeURIComponent('\\')}`), 'features');
    });

    it('answers record-not-found when nothing matches', async () => {
      expectNotFound(await get(`/property-features?search=${unique('nothing-like-this-')}`), 'features');
    });
  });

  describe('record not found, localized', () => {
    const missing = `include=${MISSING_ID}`;

    it('in English by default', async () => {
      expectNotFound(await get(`/property-types?${missing}`), 'property_types', 'Record not found');
    });

    it('by ?lang=', async () => {
      expectNotFound(await get(`/property-types?${missing}&lang=fr`), 'property_types', 'Aucun enregistrement trouvé');
    });

    it('by Accept-Language', async () => {
      expectNotFound(await get(`/property-labels?${missing}`, { 'accept-language': 'es' }), 'property_labels', 'Registro no encontrado');
      expectNotFound(
        await get(`/property-labels?${missing}`, { 'accept-language': 'es-MX,es;q=0.9,en;q=0.8' }),
        'property_labels',
        'Registro no encontrado',
      );
      expectNotFound(
        await get(`/property-labels?${missing}`, { 'accept-language': 'en;q=0.1, fr;q=0.9' }),
        'property_labels',
        'Aucun enregistrement trouvé',
      );
      expectNotFound(await get(`/property-labels?${missing}`, { 'accept-language': 'de' }), 'property_labels', 'Record not found');
    });

    it('by the language prefix of the path', async () => {
      expectNotFound(await get(`/ar${API}/property-areas?${missing}`), 'areas', 'لم يتم العثور على أي سجل');
      expectNotFound(await get(`/fr${API}/agents/agent-cities?${missing}`), 'agent_cities', 'Aucun enregistrement trouvé');
    });

    it('?lang= wins over Accept-Language, and a found list is unaffected by the language', async () => {
      expectNotFound(
        await get(`/property-types?${missing}&lang=es`, { 'accept-language': 'fr' }),
        'property_types',
        'Registro no encontrado',
      );
      const found = await term('property_type');
      const res = await get(`/property-types?include=${found.id}&lang=ar`);
      expect(res.json()).toStrictEqual({ success: true, data: { property_types: [found] } });
    });
  });

  describe('validation', () => {
    const hundredAndOne = Array.from({ length: 101 }, (_, i) => i + 1).join(',');

    it.each([
      ['/property-types?number=-1', 'number'],
      ['/property-types?number=abc', 'number'],
      ['/property-types?number=1.5', 'number'],
      ['/property-types?number=1&number=2', 'number'],
      ['/property-types?offset=-1', 'offset'],
      ['/property-types?parent=-1', 'parent'],
      ['/property-types?parent=2147483648', 'parent'],
      ['/property-types?orderby=price', 'orderby'],
      ['/property-types?order=up', 'order'],
      ['/property-types?hide_empty=yes', 'hide_empty'],
      ['/property-types?hide_empty=TRUE2', 'hide_empty'],
      ['/property-types?include=a', 'include'],
      ['/property-types?include=1,,2', 'include'],
      ['/property-types?include=-1', 'include'],
      [`/property-types?include=${hundredAndOne}`, 'include'],
      ['/property-types?include=99999999999', 'include'],
      ['/property-types?include=2147483648', 'include'],
      ['/property-types?include=1,2147483648', 'include'],
      [`/property-features?exclude=${hundredAndOne}`, 'exclude'],
      ['/property-features?exclude=99999999999', 'exclude'],
      ['/property-features?exclude=2147483648', 'exclude'],
      ['/property-features?parent=99999999999', 'parent'],
      ['/property-features?exclude=x', 'exclude'],
      ['/property-features?slug=a,,b', 'slug'],
      [`/property-features?search=${'a'.repeat(201)}`, 'search'],
      ['/property-features?foo=1', 'foo'],
    ])('%s → 400 naming `%s`', async (url, field) => {
      const res = await get(url);
      expect(res.statusCode, res.body).toBe(400);
      const body = res.json();
      expect(body).toMatchObject({ success: false, code: 'validation_failed' });
      expect(typeof body.message).toBe('string');
      expect(body.request_id).toBe(res.headers['x-request-id']);
      expect(body.errors.map((e: { field: string }) => e.field)).toContain(field);
      for (const error of body.errors) expect(typeof error.message).toBe('string');
    });

    it('localizes the validation error', async () => {
      const res = await get('/property-types?number=-1&lang=fr');
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe('La requête n’est pas valide.');
    });
  });

  describe('caching', () => {
    let cached: TermRecord;
    let url: string;
    let admin: string;

    beforeAll(async () => {
      cached = await term('property_feature');
      url = `/property-features?include=${cached.id}`;
      admin = await tokenFor(t.app, await newUser(t.database.db, { role: 'administrator' }));
    });

    const etagOf = async (headers: Record<string, string> = {}) => {
      const res = await get(url, headers);
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      const etag = res.headers.etag;
      expect(typeof etag).toBe('string');
      return etag as string;
    };

    it('sends an ETag and Cache-Control: public, max-age=60', async () => {
      const etag = await etagOf();
      expect(etag).toMatch(/^(W\/)?"[^"]+"$/);
      expect(await etagOf()).toBe(etag);
    });

    it('answers If-None-Match with 304 and an empty body', async () => {
      const etag = await etagOf();
      const res = await get(url, { 'if-none-match': etag });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
      expect((await get(url, { 'if-none-match': `"x", ${etag}` })).statusCode).toBe(304);
      expect((await get(url, { 'if-none-match': '"something-else"' })).statusCode).toBe(200);
    });

    it('answers 304 to a client that accepts gzip too', async () => {
      const many: number[] = [cached.id];
      for (let i = 0; i < 15; i++)
        many.push((await term('property_feature', { description: 'A description long enough to compress.' })).id);
      const bigUrl = `/property-features?include=${many.join(',')}`;
      const first = await get(bigUrl, { 'accept-encoding': 'gzip' });
      expect(first.statusCode).toBe(200);
      const etag = String(first.headers.etag);
      const again = await get(bigUrl, { 'accept-encoding': 'gzip', 'if-none-match': etag });
      expect(again.statusCode).toBe(304);
      expect(again.rawPayload.length).toBe(0);
    });

    it('gives anonymous and signed-in callers the same answer and tag', async () => {
      const anonymous = await get(url);
      const signedIn = await get(url, bearer(admin));
      expect(signedIn.body).toBe(anonymous.body);
      expect(signedIn.headers.etag).toBe(anonymous.headers.etag);
    });

    it('changes the ETag when a listing using the term is published', async () => {
      const before = await etagOf();
      const listing = await newListing(t.database.db, { status: 'draft', terms: links('property_feature', cached) });
      expect(await etagOf()).toBe(before);
      await t.database.db.updateTable('listings').set({ status: 'publish' }).where('id', '=', listing).execute();
      const after = await get(url, { 'if-none-match': before });
      expect(after.statusCode).toBe(200);
      expect(after.json().data.features[0].count).toBe(1);
      expect(after.headers.etag).not.toBe(before);
    });

    it('changes the ETag after PUT', async () => {
      const before = await etagOf();
      const put = await t.app.inject({
        method: 'PUT',
        url: `${API}/terms/property_feature/${cached.id}`,
        headers: bearer(admin),
        payload: { description: 'Now described' },
      });
      expect(put.statusCode, put.body).toBe(200);
      const after = await get(url, { 'if-none-match': before });
      expect(after.statusCode).toBe(200);
      expect(after.json().data.features[0].description).toBe('Now described');
      expect(after.headers.etag).not.toBe(before);
    });

    it('tags the record-not-found body per language', async () => {
      const en = await get(`/property-features?include=${MISSING_ID}`);
      const fr = await get(`/property-features?include=${MISSING_ID}&lang=fr`);
      expect(en.headers.etag).toBeDefined();
      expect(fr.headers.etag).toBeDefined();
      expect(fr.headers.etag).not.toBe(en.headers.etag);
    });
  });
});
