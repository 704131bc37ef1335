import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SITE_SESSION_COOKIE } from '../../src/site/session.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { DEFAULT_PASSWORD, links, newListing, newUser, sessionFor } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';
import { apiSearch, type Catalogue, cardSlugs, facetsOf, makeCatalogue, visit } from './results-catalogue.js';

const PUBLIC_URL = 'https://realty.example';
const FORM = { 'content-type': 'application/x-www-form-urlencoded', origin: PUBLIC_URL };

describeEachDialect('the results page (%s)', (dialect) => {
  let t: TestApp;
  let c: Catalogue;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    c = await makeCatalogue(t);
  });
  afterAll(() => t.close());

  describe('results', () => {
    it('lists what GET /properties/search answers for the same query, in the same order, 20 a page', async () => {
      const queries = [
        '',
        'keyword=tampa',
        'keyword=apartment&sortby=d_date',
        'min_price=200000&max_price=500000',
        'min_price=200000&currency=EUR',
        'ne_lat=25.8&ne_lng=-80.1&sw_lat=25.75&sw_lng=-80.25',
        'sortby=a_price',
        'sortby=d_size&page=2',
        'page=2',
        'type=apartment,villa&min_beds=2',
        'feature=pool,gym',
        'include_sold=true&sortby=a_title',
        'latitude=25.77&longitude=-80.2&radius=5&sortby=distance',
        'min-price=150000&location=miami',
      ];
      for (const query of queries) {
        const { res, path } = await visit(t, `/properties?${query}`);
        expect(res.statusCode, `${query} → ${path}: ${res.body.slice(0, 300)}`).toBe(200);
        const api = await apiSearch(t, `${query}&per_page=20`);
        expect(api.slugs.length, query).toBeGreaterThan(0);
        expect(cardSlugs(res.body), query).toEqual(api.slugs);
        expect(parsePage(res.body).root.querySelector('.results__count')!.text, query).toContain(String(api.total));
      }
    });

    it('shows the counts of the API’s facets, each value a link that turns it on or off', async () => {
      const { res } = await visit(t, '/properties/city/miami');
      const page = facetsOf(res.body);
      const api = await apiSearch(t, 'city=miami&facets=type,status,city,area,bedrooms,feature');
      for (const facet of ['type', 'status', 'city', 'area', 'feature'] as const) {
        expect(
          page[facet]!.map(({ name, count }) => [name, count]),
          facet,
        ).toEqual(api.facets[facet]!.map(({ name, count }) => [name, String(count)]));
      }
      expect(page.bedrooms!.map(({ count }) => count)).toEqual(api.facets.bedrooms!.map(({ count }) => String(count)));
      // Turning a type on leads to its landing page; on that page the same link turns it off again.
      const apartment = page.type!.find((value) => value.name === 'Apartment')!;
      expect(apartment).toMatchObject({ href: '/properties/type/apartment/city/miami', active: false, rel: undefined });
      const there = facetsOf((await t.app.inject({ method: 'GET', url: apartment.href })).body);
      expect(there.type!.find((value) => value.name === 'Apartment')).toMatchObject({ href: '/properties/city/miami', active: true });
      // Another value is added to the chosen ones: no longer a landing page, so crawlers are asked not to follow.
      expect(there.type!.find((value) => value.name === 'Villa')).toMatchObject({
        href: '/properties/city/miami?type=apartment,villa',
        rel: 'nofollow',
      });
      // The city facet leaves out the city filter: Tampa is offered beside Miami.
      expect(page.city!.map(({ name }) => name)).toEqual(['Miami', 'Tampa']);
      expect(page.city![0]).toMatchObject({ active: true, href: '/properties' });
      // Bedrooms: none is a studio; a count is exact and toggles.
      expect(page.bedrooms!.find((value) => value.name === 'Studio')).toMatchObject({ href: '/properties/city/miami?bedrooms=0' });
      expect(page.feature!.find((value) => value.name === 'Pool')).toMatchObject({
        href: '/properties/city/miami?feature=pool',
        rel: 'nofollow',
      });
    });

    it('offers price ranges in one currency at a time', async () => {
      // Florida has dollars and euros: ranges in the site's currency (USD) for the market most listings are in
      // (each link choosing that market too), and the choice of a currency.
      const mixed = facetsOf((await visit(t, '/properties/state/florida')).res.body);
      expect(mixed.price!.length).toBeGreaterThan(0);
      for (const range of mixed.price!) {
        expect(range.name).toContain('$');
        expect(range.href).toMatch(/^\/properties\/status\/for-sale\/state\/florida\?min_price=\d+&max_price=\d+&currency=USD$/);
      }
      const dollarsApi = await apiSearch(t, 'state=florida&facets=price');
      expect(dollarsApi.facets.price!.every(({ value }) => (value as { currency: string }).currency === 'USD')).toBe(true);
      expect(mixed.currency!.map(({ name, count, href }) => [name, count, href])).toEqual([
        ['USD', '26', '/properties/state/florida?currency=USD'],
        ['EUR', '2', '/properties/state/florida?currency=EUR'],
      ]);
      const euros = facetsOf((await visit(t, '/properties/state/florida?currency=EUR')).res.body);
      const api = await apiSearch(t, 'state=florida&currency=EUR&facets=price');
      expect(euros.price!.map(({ count }) => count)).toEqual(
        [...api.facets.price!]
          .sort((a, b) => (a.value as { min: number }).min - (b.value as { min: number }).min)
          .map(({ count }) => String(count)),
      );
      for (const range of euros.price!)
        expect(range.href).toMatch(/^\/properties\/status\/for-sale\/state\/florida\?min_price=\d+&max_price=\d+&currency=EUR$/);
      expect(euros.price![0]!.name).toContain('€');
      // Miami prices only in dollars: the ranges come at once, and each link names the currency.
      const dollars = facetsOf((await visit(t, '/properties/city/miami')).res.body);
      expect(dollars.currency).toBeUndefined();
      for (const range of dollars.price!) expect(range.href).toContain('&currency=USD');
      const chosen = dollars.price![0]!;
      const narrowed = await visit(t, chosen.href);
      expect(narrowed.res.statusCode).toBe(200);
      // Turned off, the range leaves the market it chose (a filter of its own now, with its own chip).
      expect(facetsOf(narrowed.res.body).price!.find((range) => range.active)?.href).toBe(
        '/properties/status/for-sale/city/miami?currency=USD',
      );
    });

    it('shows the active filters as chips that each remove one', async () => {
      const { res } = await visit(t, '/properties/type/apartment/city/miami?min_beds=2&keyword=filler');
      const chips = parsePage(res.body)
        .root.querySelectorAll('.chips a.chip')
        .map((chip) => [chip.querySelector('span')!.text, chip.getAttribute('href'), chip.getAttribute('aria-label')]);
      expect(chips).toEqual([
        ['“filler”', '/properties/type/apartment/city/miami?min_beds=2', 'Remove filter: “filler”'],
        ['Apartment', '/properties/city/miami?keyword=filler&min_beds=2', 'Remove filter: Apartment'],
        ['Miami', '/properties/type/apartment?keyword=filler&min_beds=2', 'Remove filter: Miami'],
        ['Bedrooms from 2', '/properties/type/apartment/city/miami?keyword=filler', 'Remove filter: Bedrooms from 2'],
      ]);
      expect(parsePage(res.body).root.querySelector('.chips__clear')?.getAttribute('href')).toBe('/properties');
    });

    it('gives the page’s listings as an ItemList and its trail as a BreadcrumbList', async () => {
      const { res } = await visit(t, '/es/properties/city/miami?page=2');
      const page = parsePage(res.body);
      const list = page.jsonLd.find((data) => data['@type'] === 'ItemList') as { itemListElement: { position: number; url: string }[] };
      const visible = page.root.querySelectorAll('.results__cards .card__title a').map((a) => `${PUBLIC_URL}${a.getAttribute('href')}`);
      expect(list.itemListElement.map((item) => item.url)).toEqual(visible);
      expect(list.itemListElement[0]!.position).toBe(21);
      expect(visible[0]).toMatch(/^https:\/\/realty\.example\/es\/property\//);
      const trail = page.jsonLd.find((data) => data['@type'] === 'BreadcrumbList') as {
        itemListElement: { name: string; item?: string }[];
      };
      expect(trail.itemListElement.map((step) => [step.name, step.item])).toEqual([
        ['Inicio', `${PUBLIC_URL}/es/`],
        ['Inmuebles', `${PUBLIC_URL}/es/properties`],
        ['Miami', `${PUBLIC_URL}/es/properties/city/miami`],
      ]);
    });

    it('answers valid HTML in every language, Arabic right to left', async () => {
      for (const url of [
        '/properties',
        '/es/properties/city/miami',
        '/ar/properties/status/for-sale?min_beds=2',
        '/fr/properties?keyword=nothing-matches',
      ]) {
        const { res } = await visit(t, url);
        expect(res.statusCode, url).toBe(200);
        await expectValidHtml(res.body, url);
      }
      const arabic = parsePage((await visit(t, '/ar/properties')).res.body).root.querySelector('html')!;
      expect([arabic.getAttribute('lang'), arabic.getAttribute('dir')]).toEqual(['ar', 'rtl']);
    });

    it('links no script but the map island, which loads Leaflet only when the map is in view', async () => {
      const { res } = await visit(t, '/properties/city/miami');
      const page = parsePage(res.body);
      const scripts = page.root.querySelectorAll('script').filter((script) => script.getAttribute('type') !== 'application/ld+json');
      expect(
        scripts.map((script) => [script.getAttribute('type'), script.getAttribute('src')?.replace(/\/site-assets\/[^/]+\//, '')]),
      ).toEqual([['module', 'results-map.js']]);
      const island = await t.app.inject({ method: 'GET', url: scripts[0]!.getAttribute('src')!, headers: { 'accept-encoding': 'gzip' } });
      expect(island.statusCode).toBe(200);
      const source = gunzipSync(island.rawPayload).toString();
      expect(island.rawPayload.length).toBeLessThan(4 * 1024);
      expect(source).toContain("import { whenVisible } from './when-visible.js'");
      expect(source).not.toMatch(/import[^;]*leaflet/i);
      // The map's box: its fixed size is the stylesheet's; the island reads the search, the tiles and Leaflet from it.
      const map = page.root.querySelector('.results-map')!;
      expect(map.getAttribute('data-filters')).toBe('city=miami');
      expect(map.getAttribute('data-clusters')).toBe('/realty-api/v1/properties/search/map');
      expect(map.getAttribute('data-leaflet')).toMatch(/\/leaflet\.js$/);
      expect(map.querySelector('.results-map__note')?.text).toContain('JavaScript');
      const clusters = await t.app.inject({
        method: 'GET',
        url: `${map.getAttribute('data-clusters')}?${map.getAttribute('data-filters')}&ne_lat=26&ne_lng=-80&sw_lat=25&sw_lng=-81&zoom=8`,
      });
      expect(clusters.statusCode, clusters.body).toBe(200);
      expect(clusters.json().data.total).toBe(FILLERS_IN_MIAMI);
    });

    it('takes the map box the island adds, filtering the list by it', async () => {
      const { res } = await visit(t, '/properties/city/miami?ne_lat=25.8&ne_lng=-80.1&sw_lat=25.75&sw_lng=-80.25');
      expect(res.statusCode).toBe(200);
      expect(cardSlugs(res.body).length).toBe(3);
      const page = parsePage(res.body);
      expect(page.root.querySelector('.results-map')!.getAttribute('data-box')).toBe('25.75,-80.25,25.8,-80.1');
      expect(page.root.querySelector('.results-map')!.getAttribute('data-filters')).toBe('city=miami');
    });
  });

  describe('the query', () => {
    it('ignores parameters it does not know', async () => {
      const plain = await t.app.inject({ method: 'GET', url: '/properties' });
      const tracked = await t.app.inject({ method: 'GET', url: '/properties?utm_source=news&utm_medium=mail&fbclid=abc&lang=xx' });
      expect(tracked.statusCode).toBe(200);
      expect(cardSlugs(tracked.body)).toEqual(cardSlugs(plain.body));
      // A redirect carries them on.
      const moved = await t.app.inject({ method: 'GET', url: '/properties?city=miami&utm_source=news' });
      expect([moved.statusCode, moved.headers.location]).toEqual([301, '/properties/city/miami?utm_source=news']);
    });

    it('answers a bad value with the results page, status 400 and what is wrong in its language', async () => {
      for (const [url, lang, words] of [
        ['/properties?min_price=abc', 'en', 'Lowest price'],
        ['/properties?bedrooms=-1', 'en', 'bedrooms'],
        ['/es/properties?min_price=abc', 'es', 'Precio mínimo'],
        ['/properties/city/miami?min_price=500&max_price=100', 'en', 'Lowest price'],
        ['/fr/properties?sortby=nearest', 'fr', 'Trier par'],
        ['/properties?type=two%20words', 'en', 'Type'],
      ] as const) {
        const res = await t.app.inject({ method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        await expectValidHtml(res.body, url);
        const page = parsePage(res.body);
        expect(page.root.querySelector('html')!.getAttribute('lang')).toBe(lang);
        expect(page.robots).toBe('noindex, follow');
        expect(page.root.querySelector('[role="alert"]')!.text, url).toContain(words);
      }
      const es = parsePage((await t.app.inject({ method: 'GET', url: '/es/properties?min_price=abc' })).body);
      expect(es.root.querySelector('h1')!.text).toBe('Esta búsqueda no se puede hacer');
      // What was typed stays in the form, the error beside its field.
      const kept = parsePage((await t.app.inject({ method: 'GET', url: '/properties?min_price=abc&keyword=pool' })).body);
      expect(kept.root.querySelector('#filter-min_price')!.getAttribute('value')).toBe('abc');
      expect(kept.root.querySelector('#filter-keyword')!.getAttribute('value')).toBe('pool');
      expect(kept.root.querySelector('#filter-min_price-error')).not.toBeNull();
    });

    it('redirects a submitted filter form to the clean URL of its search', async () => {
      const form =
        'keyword=&type=villa&status=&place=city%3Amiami&min_price=&max_price=&currency=&min_beds=2&min_baths=&min_size=&max_size=&sortby=';
      const res = await t.app.inject({ method: 'GET', url: `/properties?${form}` });
      expect([res.statusCode, res.headers.location]).toEqual([303, '/properties/type/villa/city/miami?min_beds=2']);
      const area = await t.app.inject({ method: 'GET', url: '/es/properties/city/miami?place=area%3Abrickell&keyword=' });
      expect([area.statusCode, area.headers.location]).toEqual([303, '/es/properties/area/brickell']);
    });

    it('takes a keyword that is a place’s name as that place', async () => {
      for (const [url, location] of [
        ['/properties?keyword=Miami', '/properties/city/miami'],
        ['/properties?keyword=%20brickell%20', '/properties/area/brickell'],
        ['/fr/properties?keyword=TAMPA&type=house', '/fr/properties/type/house/city/tampa'],
        ['/properties/city/miami?keyword=tampa&min_beds=2', '/properties/city/tampa?min_beds=2'],
      ] as const) {
        const res = await t.app.inject({ method: 'GET', url });
        expect([res.statusCode, res.headers.location], url).toEqual([303, location]);
      }
      // Any other keyword searches words.
      expect((await t.app.inject({ method: 'GET', url: '/properties?keyword=miami%20villa' })).statusCode).toBe(200);
    });

    it('sorts by the sort form, which keeps the other parameters', async () => {
      const page = parsePage((await visit(t, '/properties/city/miami?min_beds=2')).res.body);
      const form = page.root.querySelector('form.sort-form')!;
      expect(form.getAttribute('action')).toBe('/properties/city/miami');
      expect(
        form.querySelectorAll('input[type="hidden"]').map((input) => [input.getAttribute('name'), input.getAttribute('value')]),
      ).toEqual([['min_beds', '2']]);
      const { res } = await visit(t, '/properties/city/miami?min_beds=2&sortby=a_price');
      expect(cardSlugs(res.body)).toEqual((await apiSearch(t, 'city=miami&min_beds=2&sortby=a_price&per_page=20')).slugs);
    });
  });

  describe('escaping', () => {
    it('escapes term names and titles wherever they are printed', async () => {
      const db = t.database.db;
      const { id } = await t.services.taxonomies.createTerm('property_type', { name: 'Loft', slug: 'loft-x' });
      // Past the API's cleaning: written straight into the table.
      await db.updateTable('terms').set({ name: '"><script>alert(1)</script> Loft' }).where('id', '=', id).execute();
      await newListing(db, { title: '<img src=x onerror=alert(2)> loft', terms: [{ termId: id, taxonomy: 'property_type' }] });
      const { res } = await visit(t, '/properties/type/loft-x?min_beds=0');
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain('<script>alert(1)');
      expect(res.body).not.toContain('<img src=x');
      const page = parsePage(res.body);
      expect(page.root.querySelector('h1')!.text).toBe('"><script>alert(1)</script> Loft');
      expect(page.title).toBe('"><script>alert(1)</script> Loft | Realty');
      const trail = page.jsonLd.find((data) => data['@type'] === 'BreadcrumbList') as { itemListElement: { name: string }[] };
      expect(trail.itemListElement[2]!.name).toBe('"><script>alert(1)</script> Loft');
      await expectValidHtml(res.body);
    });
  });

  describe('save this search', () => {
    const save = (query: string, headers: Record<string, string> = {}, url = '/saved-searches') =>
      t.app.inject({ method: 'POST', url, headers: { ...FORM, ...headers }, payload: new URLSearchParams({ query }).toString() });

    it('sends an anonymous visitor to sign in, back to these results', async () => {
      const res = await save('city=miami&min_beds=2', {}, '/es/saved-searches');
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/es/sign-in?next=${encodeURIComponent('/es/properties/city/miami?min_beds=2')}`);
    });

    it('saves a signed-in visitor’s search with e-mail alerts and comes back with a notice', async () => {
      const user = await newUser(t.database.db);
      const { secret } = await t.services.auth.browserSignIn({ email: user.email, password: DEFAULT_PASSWORD });
      const cookie = `${SITE_SESSION_COOKIE}=${secret}`;
      const page = parsePage((await visit(t, '/properties/type/apartment/city/miami?min_beds=2', { cookie })).res.body);
      const form = page.root.querySelector('form.save-search')!;
      expect(form.getAttribute('action')).toBe('/saved-searches');
      const fields = Object.fromEntries(
        form.querySelectorAll('input').map((input) => [input.getAttribute('name'), input.getAttribute('value')]),
      );
      expect(fields.query).toBe('type=apartment&city=miami&min_beds=2');

      const body = (values: Record<string, string>) => new URLSearchParams(values).toString();
      const post = (values: Record<string, string>, headers: Record<string, string> = {}) =>
        t.app.inject({ method: 'POST', url: '/saved-searches', headers: { ...FORM, cookie, ...headers }, payload: body(values) });
      expect((await post({ query: fields.query! })).statusCode).toBe(403); // no CSRF token
      expect((await post({ query: fields.query!, csrf: 'forged' })).statusCode).toBe(403);
      expect((await post({ query: fields.query!, csrf: fields.csrf! }, { origin: 'https://evil.example' })).statusCode).toBe(403);

      const res = await post({ query: fields.query!, csrf: fields.csrf! });
      expect([res.statusCode, res.headers.location]).toEqual([303, '/properties/type/apartment/city/miami?min_beds=2&saved=1']);
      const saved = await t.app.inject({ method: 'GET', url: '/realty-api/v1/saved-searches', headers: await sessionFor(t, user) });
      expect(saved.json().data.saved_searches).toMatchObject([
        { name: 'Apartment in Miami · 2+ beds', email_alerts: true, query: { type: ['apartment'], city: ['miami'], min_beds: 2 } },
      ]);
      const back = await t.app.inject({ method: 'GET', url: String(res.headers.location), headers: { cookie } });
      expect(parsePage(back.body).root.querySelector('.form-notice')!.text).toContain('Search saved');
      expect(back.headers['cache-control']).toBe('private, no-cache');
      await expectValidHtml(back.body, 'the signed-in results page');
      // Anonymous visitors never see the notice.
      const anonymous = await t.app.inject({ method: 'GET', url: String(res.headers.location) });
      expect(parsePage(anonymous.body).root.querySelector('.form-notice')).toBeNull();
    });

    it('refuses a post from another site and a search that is not one', async () => {
      expect((await save('city=miami', { origin: 'https://evil.example' })).statusCode).toBe(403);
      const bad = await save('min_price=abc');
      expect(bad.statusCode).toBe(400);
      expect(bad.headers['content-type']).toBe('text/html; charset=utf-8');
    });
  });

  it('keeps one page of a kind in the anonymous cache, and answers the same page again by ETag', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/properties/city/miami' });
    const again = await t.app.inject({
      method: 'GET',
      url: '/properties/city/miami',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
    await newListing(t.database.db, { title: 'Brand new in Miami', terms: links('property_city', c.terms.miami!) });
    const changed = await t.app.inject({
      method: 'GET',
      url: '/properties/city/miami',
      headers: { 'if-none-match': String(first.headers.etag) },
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.body).toContain('Brand new in Miami');
  });
});

/** Published listings of the catalogue inside the Miami map box of the island test: the fillers and three others. */
const FILLERS_IN_MIAMI = 25;
