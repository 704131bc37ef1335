import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newTerm } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';
import { type Catalogue, cardSlugs, apiSearch, makeCatalogue } from './results-catalogue.js';

const PUBLIC_URL = 'https://realty.example';

describeEachDialect('landing pages and the indexing of results (%s)', (dialect) => {
  let t: TestApp;
  let c: Catalogue;
  const get = (url: string) => t.app.inject({ method: 'GET', url });

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    c = await makeCatalogue(t);
  });
  afterAll(() => t.close());

  it('titles each landing page from a template per language filled with its terms’ names', async () => {
    const path = '/properties/status/for-sale/type/apartment/city/miami';
    for (const [prefix, heading, home] of [
      ['', 'Apartment For Sale in Miami', 'Home'],
      ['/es', 'Apartment For Sale en Miami', 'Inicio'],
      ['/fr', 'Apartment For Sale à Miami', 'Accueil'],
      ['/ar', 'Apartment For Sale في Miami', 'الرئيسية'],
    ] as const) {
      const res = await get(`${prefix}${path}`);
      expect(res.statusCode, prefix).toBe(200);
      await expectValidHtml(res.body, `${prefix}${path}`);
      const page = parsePage(res.body);
      expect(page.root.querySelector('h1')!.text).toBe(heading);
      expect(page.title).toBe(`${heading} | Realty`);
      expect(page.meta('description')).toContain(heading);
      expect(page.canonical).toBe(`${PUBLIC_URL}${prefix}${path}`);
      expect(page.robots).toBeUndefined();
      expect(page.alternates).toEqual({
        en: `${PUBLIC_URL}${path}`,
        ar: `${PUBLIC_URL}/ar${path}`,
        es: `${PUBLIC_URL}/es${path}`,
        fr: `${PUBLIC_URL}/fr${path}`,
        'x-default': `${PUBLIC_URL}${path}`,
      });
      const trail = page.jsonLd.find((data) => data['@type'] === 'BreadcrumbList') as {
        itemListElement: { name: string; item?: string }[];
      };
      expect(trail.itemListElement.map((step) => step.name)).toEqual([home, expect.any(String), 'For Sale', 'Apartment', 'Miami']);
      expect(trail.itemListElement.map((step) => step.item)).toEqual([
        `${PUBLIC_URL}${prefix}/`,
        `${PUBLIC_URL}${prefix}/properties`,
        `${PUBLIC_URL}${prefix}/properties/status/for-sale`,
        `${PUBLIC_URL}${prefix}/properties/status/for-sale/type/apartment`,
        `${PUBLIC_URL}${prefix}${path}`,
      ]);
      // The visible trail is the same.
      expect(page.root.querySelectorAll('.breadcrumbs li').map((li) => li.text)).toEqual(trail.itemListElement.map((step) => step.name));
    }
    // The same listings as the API's search by the same terms.
    expect(cardSlugs((await get(path)).body)).toEqual((await apiSearch(t, 'status=for-sale&type=apartment&city=miami&per_page=20')).slugs);
  });

  it('names the other landing pages after what they have', async () => {
    for (const [path, heading] of [
      ['/properties', 'Properties for sale and rent'],
      ['/properties/city/miami', 'Properties in Miami'],
      ['/properties/status/for-rent', 'Properties For Rent'],
      ['/properties/type/villa', 'Villa'],
      ['/properties/country/usa', 'Properties in USA'],
      ['/properties/city/miami/area/brickell', 'Properties in Brickell, Miami'],
      ['/properties/type/house/state/florida', 'House in Florida'],
    ] as const) {
      const res = await get(path);
      expect(res.statusCode, path).toBe(200);
      expect(parsePage(res.body).root.querySelector('h1')!.text, path).toBe(heading);
      expect(parsePage(res.body).canonical, path).toBe(`${PUBLIC_URL}${path}`);
    }
    // The home page's city cards link here.
    expect((await get('/es/properties/city/tampa')).statusCode).toBe(200);
    // Page 2 and on are pages of their own, titled so.
    const second = parsePage((await get('/properties/city/miami?page=2')).body);
    expect(second.title).toBe('Properties in Miami, page 2 | Realty');
    expect(second.canonical).toBe(`${PUBLIC_URL}/properties/city/miami?page=2`);
    expect(second.robots).toBeUndefined();
  });

  it('moves a landing search asked another way to its one path (301)', async () => {
    for (const [url, location] of [
      ['/properties?city=miami&type=apartment', '/properties/type/apartment/city/miami'],
      ['/properties?status=for-sale&page=2', '/properties/status/for-sale?page=2'],
      ['/properties?location=tampa', '/properties/city/tampa'],
      ['/properties?city=' + c.terms.miami!.id, '/properties/city/miami'],
      ['/properties/type/apartment/status/for-sale', '/properties/status/for-sale/type/apartment'],
      ['/properties/city/miami/country/usa', '/properties/country/usa/city/miami'],
      ['/properties/city/MIAMI', '/properties/city/miami'],
      ['/properties/city/miami/', '/properties/city/miami'],
      ['/properties/city/miami?type=villa&min_beds=2', '/properties/type/villa/city/miami?min_beds=2'],
      ['/es/properties?area=brickell', '/es/properties/area/brickell'],
      // Two cities are not a landing page: they stay in the query.
      ['/properties/city/miami?city=tampa', '/properties?city=miami,tampa'],
    ] as const) {
      const res = await get(url);
      expect([res.statusCode, res.headers.location], url).toEqual([301, location]);
    }
  });

  it('answers a path that names no landing page with the 404 page', async () => {
    for (const url of [
      '/properties/city/atlantis',
      '/properties/type/apartment/city/atlantis',
      '/properties/colour/red',
      '/properties/city',
      '/properties/city/miami/city/tampa',
      '/properties/label/hot',
      '/fr/properties/city/nowhere',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(parsePage(res.body).robots).toBe('noindex, follow');
    }
    expect(parsePage((await get('/fr/properties/city/nowhere')).body).title).toBe('Page introuvable | Realty');
    // An unknown term in the query is a search that finds nothing, as the API's.
    const unknown = await get('/properties?city=atlantis');
    expect(unknown.statusCode).toBe(200);
    expect(cardSlugs(unknown.body)).toEqual([]);
  });

  it('keeps out of search engines every result beyond the landing pages, pointing them to the nearest', async () => {
    for (const [url, canonical] of [
      ['/properties/city/miami?min_beds=2', '/properties/city/miami'],
      ['/properties/city/miami?sortby=a_price', '/properties/city/miami'],
      ['/properties/city/miami?sortby=a_price&page=2', '/properties/city/miami'],
      ['/properties?keyword=filler', '/properties'],
      ['/properties/type/apartment?keyword=filler&page=2', '/properties/type/apartment'],
      ['/properties/city/miami?type=apartment,villa', '/properties/city/miami'],
      ['/properties?feature=pool', '/properties'],
      ['/properties/status/for-sale?ne_lat=26&ne_lng=-80&sw_lat=25&sw_lng=-81', '/properties/status/for-sale'],
      ['/properties/city/miami?page=99', '/properties/city/miami'],
    ] as const) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      const page = parsePage(res.body);
      expect(page.robots, url).toBe('noindex, follow');
      expect(page.canonical, url).toBe(`${PUBLIC_URL}${canonical}`);
      expect(page.alternates, url).toEqual({});
    }
    // A landing page without any listing has nothing to show a search engine.
    await newTerm(t.services.taxonomies, 'property_city', { name: 'Orlando', slug: 'orlando' });
    const empty = parsePage((await get('/properties/city/orlando')).body);
    expect([empty.robots, empty.canonical]).toEqual(['noindex, follow', `${PUBLIC_URL}/properties/city/orlando`]);
    // The indexable ones name themselves.
    for (const url of ['/properties', '/properties?page=2', '/properties/status/for-sale/city/miami']) {
      const page = parsePage((await get(url)).body);
      expect([page.robots, page.canonical], url).toEqual([undefined, `${PUBLIC_URL}${url}`]);
    }
  });

  it('escapes the names of the terms in its title, heading and trail', async () => {
    const { id } = await t.services.taxonomies.createTerm('property_city', { name: 'Quotes', slug: 'quotes' });
    await t.database.db.updateTable('terms').set({ name: 'Q"</title><i>&amp;' }).where('id', '=', id).execute();
    const res = await get('/properties/city/quotes');
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('</title><i>');
    const page = parsePage(res.body);
    expect(page.title).toBe('Properties in Q"</title><i>&amp; | Realty');
    expect(page.root.querySelector('h1')!.text).toBe('Properties in Q"</title><i>&amp;');
    await expectValidHtml(res.body);
  });

  it('cuts a title too long for search engines, keeping the whole heading on the page', async () => {
    await t.services.taxonomies.createTerm('property_area', { name: 'The Very Long Named Neighbourhood By The Bay', slug: 'long' });
    const res = await get('/properties/type/apartment/status/for-sale/area/long?page=2');
    const location = String(res.headers.location);
    const page = parsePage((await get(location)).body);
    expect(page.root.querySelector('h1')!.text).toBe('Apartment For Sale in The Very Long Named Neighbourhood By The Bay');
    expect(page.title).toBe('Apartment For Sale in The Very Long Named Neighbourh…, page 2 | Realty');
    expect(page.title.length).toBeLessThanOrEqual(70);
  });
});
