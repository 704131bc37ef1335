import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { COMPARE_COOKIE } from '../../src/site/pages/compare/compare-selection.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { cookieValueOf, setCookieFor } from '../helpers/cookies.js';
import { describeEachDialect } from '../helpers/database.js';
import { links, newTerm } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';
import { fullListing, type ListingWorld, listingWorld, PUBLIC_URL } from './listing-fixtures.js';

const SCRIPT = '<script>alert(1)</script>';

describeEachDialect('the compare page (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let world: ListingWorld;
  let ids: number[];

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    world = await listingWorld(t);
    ids = [];
    for (const [n, overrides] of [
      [1, {}],
      [2, { bedrooms: 0, land_size: null, year_built: null }],
      [3, { status: 'sold' as const }],
      [4, { price: null }],
      [5, {}],
    ] as const) {
      ids.push((await fullListing(t, world, { title: `Flat ${n}`, ...overrides })).id);
    }
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });

  it('shows up to four listings side by side in a table with a caption and header cells, kept out of search engines', async () => {
    const res = await get(`/compare?ids=${ids.slice(0, 4).join(',')}`);
    expect(res.statusCode).toBe(200);
    await expectValidHtml(res.body);
    const page = parsePage(res.body);
    expect(page.robots).toBe('noindex, follow');
    expect(page.title).toBe('Compare properties | Realty');
    const table = page.root.querySelector('table')!;
    expect(table.querySelector('caption')?.text).toBe('4 properties side by side');
    expect(table.querySelectorAll('thead th[scope="col"]').map((th) => th.querySelector('a')?.text ?? th.text)).toEqual([
      'Property',
      'Flat 1',
      'Flat 2',
      'Flat 3',
      'Flat 4',
    ]);
    const rows = table.querySelectorAll('tbody tr');
    const row = (name: string) =>
      rows
        .find((tr) => tr.querySelector('th')?.text === name)!
        .querySelectorAll('td')
        .map((td) => td.text);
    expect(rows.map((tr) => tr.querySelector('th')?.text)).toEqual([
      'Picture',
      'Price',
      'Place',
      'Type',
      'Bedrooms',
      'Bathrooms',
      'Size',
      'Land',
      'Year built',
      'Features',
      'Remove',
    ]);
    expect(row('Price')).toEqual(['From €450,000', 'From €450,000', 'From €450,000', 'Price on request']);
    expect(row('Bedrooms')).toEqual(['3', 'Studio', '3', '3']);
    expect(row('Land')).toEqual(['300 m²', '—', '300 m²', '300 m²']);
    expect(row('Place')[0]).toContain(world.terms.city.name);
    expect(row('Features')[0]).toContain('Swimming pool');
    expect(table.querySelectorAll('tbody img')).toHaveLength(4);
    expect(table.querySelector('thead')!.text).toContain('Sold');
  });

  it('links each listing’s removal, which keeps the others', async () => {
    const shown = ids.slice(0, 3);
    const { root } = parsePage((await get(`/compare?ids=${shown.join(',')}`)).body);
    const remove = root.querySelectorAll('.compare__remove a').map((a) => a.getAttribute('href')!);
    expect(remove[1]).toBe(`/compare?ids=${encodeURIComponent(shown.join(','))}&remove=${shown[1]}`);
    const res = await get(remove[1]!);
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe(`/compare?ids=${encodeURIComponent(`${shown[0]},${shown[2]}`)}`);
    expect(cookieValueOf(setCookieFor(res, COMPARE_COOKIE)!)).toBe(`${shown[0]}.${shown[2]}`);
  });

  it('adds a listing from its page without JavaScript, keeping the choice in a cookie, up to four', async () => {
    const listingPage = parsePage(
      (await get(`/property/${(await db.selectFrom('listings').select('slug').where('id', '=', ids[0]!).executeTakeFirstOrThrow()).slug}`))
        .body,
    );
    const add = listingPage.root.querySelector('a[href^="/compare?add="]')!.getAttribute('href')!;
    expect(add).toBe(`/compare?add=${ids[0]}`);
    let cookie = '';
    const visit = async (url: string) => {
      const res = await get(url, cookie ? { cookie } : {});
      const set = setCookieFor(res, COMPARE_COOKIE);
      if (set) cookie = `${COMPARE_COOKIE}=${cookieValueOf(set)}`;
      return res;
    };
    const first = await visit(add);
    expect(first.statusCode).toBe(303);
    expect(first.headers['cache-control']).toBe('no-store');
    expect(first.headers.location).toBe(`/compare?ids=${ids[0]}`);
    expect(setCookieFor(first, COMPARE_COOKIE)).toMatch(/HttpOnly; SameSite=Lax$|SameSite=Lax/);
    for (const id of ids.slice(1, 4)) await visit(`/compare?add=${id}`);
    expect(cookie).toBe(`${COMPARE_COOKIE}=${ids.slice(0, 4).join('.')}`);
    // A fifth is not added: the page says why.
    const full = await visit(`/compare?add=${ids[4]}`);
    expect(full.headers.location).toBe(`/compare?ids=${encodeURIComponent(ids.slice(0, 4).join(','))}&full=1`);
    const fullPage = parsePage((await get(String(full.headers.location))).body);
    expect(fullPage.root.querySelector('.form-notice')?.text).toBe(
      'Your comparison already holds four properties: remove one to add another.',
    );
    // A bare /compare goes to the selection; the same add twice keeps one.
    expect((await visit('/compare')).headers.location).toBe(`/compare?ids=${encodeURIComponent(ids.slice(0, 4).join(','))}`);
    await visit(`/compare?remove=${ids[3]}`);
    await visit(`/compare?add=${ids[0]}`);
    expect(cookie).toBe(`${COMPARE_COOKIE}=${ids.slice(0, 3).join('.')}`);
    // In another language the redirects keep the prefix.
    expect((await get(`/ar/compare?add=${ids[0]}`)).headers.location).toBe(`/ar/compare?ids=${ids[0]}`);
  });

  it('says plainly when there are more than four, malformed or unknown ids, and never fails', async () => {
    const tooMany = await get(`/compare?ids=${ids.join(',')}`);
    expect(tooMany.statusCode).toBe(400);
    await expectValidHtml(tooMany.body);
    const many = parsePage(tooMany.body).root;
    expect(many.querySelector('.form-notice')?.text).toContain('You can compare up to four properties at a time.');
    expect(many.querySelector('.form-notice a')?.getAttribute('href')).toBe(
      `/compare?ids=${encodeURIComponent(ids.slice(0, 4).join(','))}`,
    );

    for (const bad of ['abc', '1,,x', '0', '99999999999', '-1']) {
      const res = await get(`/compare?ids=${encodeURIComponent(bad)}`);
      expect(res.statusCode, bad).toBe(400);
      expect(parsePage(res.body).root.querySelector('.form-notice')?.text).toContain('This comparison link is not valid');
    }

    const hidden = (await fullListing(t, world, { status: 'draft' })).id;
    const res = await get(`/compare?ids=${ids[0]},999999,${hidden}`);
    expect(res.statusCode).toBe(200);
    await expectValidHtml(res.body);
    const { root } = parsePage(res.body);
    expect(root.querySelector('.form-notice')?.text).toBe('2 of the properties asked for are no longer available.');
    expect(root.querySelector('caption')?.text).toBe('One property: add others to compare it with');
    expect(res.body).not.toContain('Sea view flat');

    const empty = await get('/compare');
    expect(empty.statusCode).toBe(200);
    await expectValidHtml(empty.body);
    expect(parsePage(empty.body).root.querySelector('table')).toBeNull();
    expect((await get(`/compare?add=nope`)).statusCode).toBe(303);
    expect((await get(`/compare?ids=${'9'.repeat(3000)}`)).statusCode).toBe(400);
  });

  it('escapes what the listings hold', async () => {
    const term = await newTerm(t.services.taxonomies, 'property_feature', { name: `Pool ${SCRIPT}` });
    const { id } = await fullListing(t, world, {
      title: `"><img src=x onerror=alert(1)>${SCRIPT}`,
      terms: links('property_feature', term),
    });
    const res = await get(`/compare?ids=${id}`);
    await expectValidHtml(res.body);
    expect(res.body).not.toContain(SCRIPT);
    expect(res.body).not.toContain('<img src=x');
    expect(parsePage(res.body).root.querySelector('thead a')?.text).toBe(`"><img src=x onerror=alert(1)>${SCRIPT}`);
  });

  it('shows the page in each language, right to left in Arabic', async () => {
    const res = await get(`/ar/compare?ids=${ids[0]},${ids[1]}`);
    await expectValidHtml(res.body);
    const page = parsePage(res.body);
    expect(page.root.querySelector('html')?.getAttribute('dir')).toBe('rtl');
    expect(page.root.querySelector('h1')?.text).toBe('مقارنة العقارات');
  });
});
