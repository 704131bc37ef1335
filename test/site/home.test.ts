import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newTerm, newUser } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';

const PUBLIC_URL = 'https://realty.example';
const SCRIPT_TITLE = '"><script>alert(1)</script> villa';

describeEachDialect('the home page and the site frame (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    const seller = await newUser(db, { role: 'seller' });
    await newListing(db, { title: 'Sea view villa', author_id: seller.id, price: 450000, currency: 'EUR', featured: 1 });
    await newListing(db, { title: 'Draft cottage', author_id: seller.id, status: 'draft' });
    // Written straight into the table, past the API's cleaning: the page must escape whatever is stored.
    await newListing(db, { title: SCRIPT_TITLE, author_id: seller.id });
    await newTerm(t.services.taxonomies, 'property_type', { name: 'Villa <b>' });
  });
  afterAll(() => t.close());

  it('answers valid HTML with the published listings and none of the others', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    await expectValidHtml(res.body);
    const page = parsePage(res.body);
    expect(page.title).toBe('Homes for sale and rent | Realty');
    expect(page.root.querySelector('#featured')?.parentNode.text).toContain('Sea view villa');
    expect(res.body).not.toContain('Draft cottage');
  });

  it('escapes stored text in every place it is printed', async () => {
    const { body } = await t.app.inject({ method: 'GET', url: '/' });
    expect(body).not.toContain('<script>alert(1)</script>');
    expect(body).not.toContain('<b>');
    expect(body).toContain('&quot;>&lt;script>alert(1)&lt;/script> villa');
  });

  it('names its canonical URL and every language version, reciprocally, with x-default', async () => {
    for (const [url, lang] of [
      ['/', 'en'],
      ['/es/', 'es'],
      ['/ar/', 'ar'],
    ] as const) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      const page = parsePage(res.body);
      expect(page.root.querySelector('html')?.getAttribute('lang')).toBe(lang);
      expect(page.root.querySelector('html')?.getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      expect(page.canonical).toBe(`${PUBLIC_URL}${url}`);
      expect(page.alternates).toEqual({
        en: `${PUBLIC_URL}/`,
        ar: `${PUBLIC_URL}/ar/`,
        es: `${PUBLIC_URL}/es/`,
        fr: `${PUBLIC_URL}/fr/`,
        'x-default': `${PUBLIC_URL}/`,
      });
      expect(page.jsonLd[0]).toMatchObject({ '@type': 'WebSite', url: `${PUBLIC_URL}${url}` });
    }
    expect(parsePage((await t.app.inject({ method: 'GET', url: '/es/' })).body).title).toBe('Inmuebles en venta y alquiler | Realty');
  });

  it('takes tracking parameters without complaint', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/?utm_source=news&fbclid=x' })).statusCode).toBe(200);
  });

  it('is the same page with tracking parameters: one rendering, one ETag, and no campaign tag handed on by its links', async () => {
    const plain = await t.app.inject({ method: 'GET', url: '/es/' });
    const tagged = await t.app.inject({ method: 'GET', url: '/es/?utm_source=news&utm_campaign=spring&gclid=abc' });
    expect(tagged.headers.etag).toBe(plain.headers.etag);
    expect(tagged.body).not.toContain('utm_');
    expect(parsePage(tagged.body).root.querySelector('a[hreflang="fr"]')?.getAttribute('href')).toBe('/fr/');
  });

  it('sends a strict CSP and caching a CDN may follow, and answers 304 to a matching revalidation', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=600');
    const etag = String(res.headers.etag);
    const again = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('changes its ETag when a listing it shows changes', async () => {
    const before = String((await t.app.inject({ method: 'GET', url: '/' })).headers.etag);
    await t.app.inject({ method: 'GET', url: '/' });
    await newListing(db, { title: 'Brand new loft' });
    const after = await t.app.inject({ method: 'GET', url: '/', headers: { 'if-none-match': before } });
    expect(after.statusCode).toBe(200);
    expect(after.body).toContain('Brand new loft');
    expect(after.headers.etag).not.toBe(before);
  });

  it('sends the compressed page to a client that takes it', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(String(res.headers.vary)).toContain('Accept-Encoding');
  });

  it('answers an unknown page with the HTML 404 page in the language of its prefix, and API paths with JSON', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/fr/nowhere' });
    expect(page.statusCode).toBe(404);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    await expectValidHtml(page.body, 'the 404 page');
    expect(parsePage(page.body).title).toBe('Page introuvable | Realty');
    expect(parsePage(page.body).robots).toBe('noindex, follow');
    const api = await t.app.inject({ method: 'GET', url: '/realty-api/v1/nowhere' });
    expect(api.json()).toMatchObject({ success: false, code: 'route_not_found' });
  });

  it('serves its stylesheet under a versioned name for a year, and nothing else there', async () => {
    const href = parsePage((await t.app.inject({ method: 'GET', url: '/' })).body)
      .root.querySelector('link[rel="stylesheet"]')!
      .getAttribute('href')!;
    const css = await t.app.inject({ method: 'GET', url: href });
    expect(css.statusCode).toBe(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(css.body).toContain('.card-grid');
    expect((await t.app.inject({ method: 'GET', url: href.replace('site.css', 'secrets.css') })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/site-assets/0/../../package.json' })).statusCode).toBe(404);
  });
});

describe('a headless start (SITE_ENABLED=false)', () => {
  it('serves no page: / is an unknown route', async () => {
    const t = await buildTestApp('sqlite', { SITE_ENABLED: 'false' });
    try {
      const res = await t.app.inject({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'route_not_found' });
    } finally {
      await t.close();
    }
  });
});
