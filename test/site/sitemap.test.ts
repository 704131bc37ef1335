import Fastify, { type FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { SaxesParser } from 'saxes';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, ListingState } from '../../src/db/schema/index.js';
import { PUBLIC_STATES } from '../../src/modules/properties/index.js';
import { seoRoutes } from '../../src/site/pages/seo/seo.routes.js';
import { SITEMAP_NAMESPACE } from '../../src/site/pages/seo/sitemap-xml.js';
import { Sitemaps } from '../../src/site/pages/seo/sitemaps.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { links, newAgency, newAgent, newListing, newTerm } from '../helpers/factories.js';

const PUBLIC_URL = 'https://realty.example';
const LANGUAGES = ['en', 'ar', 'es', 'fr'] as const;
/** Stored straight into the table, past the API's slug rules: every character XML and URLs treat specially. */
const ODD_SLUG = `odd&<'">slug ü`;
const SMALL_SHARD = 3;

interface XmlNode {
  name: string;
  uri: string;
  children: XmlNode[];
  text: string;
}

/** A real XML parser (saxes, namespace-aware): a malformed document throws. */
function parseXml(xml: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true });
  const document: XmlNode = { name: '#document', uri: '', children: [], text: '' };
  const stack = [document];
  parser.on('opentag', (tag) => {
    const node: XmlNode = { name: tag.local, uri: tag.uri, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  });
  parser.on('text', (text) => (stack.at(-1)!.text += text));
  parser.on('closetag', () => stack.pop());
  parser.on('error', (error) => {
    throw error;
  });
  parser.write(xml).close();
  expect(document.children).toHaveLength(1);
  return document.children[0]!;
}

const child = (node: XmlNode, name: string) => node.children.find((c) => c.name === name)?.text;

/** The `<url>`s of a urlset, as loc → lastmod (null when none). */
function urlsOf(xml: string): Map<string, string | null> {
  const root = parseXml(xml);
  expect(root.name).toBe('urlset');
  expect(root.uri).toBe(SITEMAP_NAMESPACE);
  const entries = new Map<string, string | null>();
  for (const url of root.children) {
    expect(url.name).toBe('url');
    expect(url.uri).toBe(SITEMAP_NAMESPACE);
    entries.set(child(url, 'loc')!, child(url, 'lastmod') ?? null);
  }
  expect(entries.size, 'no URL is listed twice').toBe(root.children.length);
  return entries;
}

/** The `<sitemap>`s of an index, as loc → lastmod. */
function sitemapsOf(xml: string): Map<string, string | null> {
  const root = parseXml(xml);
  expect(root.name).toBe('sitemapindex');
  expect(root.uri).toBe(SITEMAP_NAMESPACE);
  return new Map(root.children.map((entry) => [child(entry, 'loc')!, child(entry, 'lastmod') ?? null]));
}

/** The URL of a plain path in a language. */
const inLanguage = (url: string, lang: string) => (lang === 'en' ? url : url.replace(PUBLIC_URL, `${PUBLIC_URL}/${lang}`));
/** The storage form of updated_at, and the W3C datetime (to the second) a sitemap gives for it. */
const apiTime = (stored: string) => `${stored.slice(0, 19)}Z`;

describeEachDialect('robots.txt and the sitemap (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  /** The seo routes over the same services with shards of three ids and pages of two records. */
  let small: FastifyInstance;
  const listings: { id: number; status: ListingState; updated_at: string }[] = [];
  let visibleAgent: number;
  let hiddenAgent: number;
  let agencyIds: number[];

  const get = (app: FastifyInstance, url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
  const recordUrl = async (kind: 'properties' | 'agents' | 'agencies', id: number) =>
    ((await get(t.app, `/realty-api/v1/${kind}/${id}`)).json() as { data: { url: string } }).data.url;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    const city = await newTerm(t.services.taxonomies, 'property_city', { name: 'Miami Beach', slug: 'miami-beach' });
    const emptyCity = await newTerm(t.services.taxonomies, 'property_city', { name: 'Nowhere', slug: 'nowhere' });
    const type = await newTerm(t.services.taxonomies, 'property_type', { name: 'Villa', slug: 'villa' });
    await newTerm(t.services.taxonomies, 'property_status', { name: 'For sale', slug: 'for-sale' });
    const states: ListingState[] = [
      'publish',
      'sold',
      'draft',
      'publish',
      'pending',
      'publish',
      'expired',
      'publish',
      'on_hold',
      'sold',
      'publish',
    ];
    for (const [n, status] of states.entries()) {
      const updated_at = new Date(Date.UTC(2024, 0, 1 + n, 10, 20, 30, 456)).toISOString();
      const terms =
        n === 0 ? [...links('property_city', city), ...links('property_type', type)] : n === 2 ? links('property_city', emptyCity) : [];
      const id = await newListing(db, { status, updated_at, terms, ...(n === 3 ? { slug: ODD_SLUG } : {}) });
      listings.push({ id, status, updated_at });
    }
    visibleAgent = await newAgent(db, { slug: 'ann-agent', updated_at: '2024-02-03T04:05:06.000Z' });
    hiddenAgent = await newAgent(db, { slug: 'hidden-agent', visible: 0 });
    agencyIds = [await newAgency(db, { slug: 'first-agency' }), await newAgency(db, { slug: 'second-agency' })];

    small = Fastify();
    seoRoutes(small, {
      sitemaps: new Sitemaps(t.services, t.services.stamps, {
        publicUrl: PUBLIC_URL,
        listingUrlTemplate: t.config.listings.urlTemplate,
        shardSize: SMALL_SHARD,
        pageSize: 2,
        cacheBytes: t.config.site.sitemapCacheBytes,
      }),
      robots: 'User-agent: *\n',
      caching: t.config.site,
    });
    await small.ready();
  });
  afterAll(async () => {
    await small?.close();
    await t?.close();
  });

  it('robots.txt allows the public pages, keeps crawlers out of the private ones in every language, and names the sitemap', async () => {
    const res = await get(t.app, '/robots.txt');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=600');
    const lines = res.body.split('\n');
    expect(lines[0]).toBe('User-agent: *');
    expect(lines).toContain('Allow: /');
    for (const path of [
      '/account/',
      '/sign-in',
      '/sign-up',
      '/compare',
      '/es/account/',
      '/ar/sign-in',
      '/fr/compare',
      '/realty-api/',
      '/es/realty-api/',
      '/console/',
    ])
      expect(lines).toContain(`Disallow: ${path}`);
    expect(lines).not.toContain('Disallow: /');
    expect(lines).not.toContain('Disallow: /property/');
    expect(lines).toContain(`Sitemap: ${PUBLIC_URL}/sitemap.xml`);
    const again = await get(t.app, '/robots.txt', { 'if-none-match': String(res.headers.etag) });
    expect(again.statusCode).toBe(304);
  });

  it('holds the states that are public equal to the ones the sitemap indexes name (migration 0025)', () => {
    expect([...PUBLIC_STATES].sort()).toEqual(['publish', 'sold']);
  });

  it('indexes one pages shard and one shard per block of ids with public records, per language, with their newest change', async () => {
    const res = await get(small, '/sitemap.xml');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/xml; charset=utf-8');
    const index = sitemapsOf(res.body);
    const expected = new Map<string, string | null>();
    const newest = (ofIds: (id: number) => boolean, rows: { id: number; updated_at: string }[]) =>
      rows
        .filter((row) => ofIds(row.id))
        .map((row) => row.updated_at)
        .sort()
        .at(-1);
    const publicListings = listings.filter((l) => PUBLIC_STATES.includes(l.status));
    const blocks = [...new Set(publicListings.map((l) => Math.floor(l.id / SMALL_SHARD)))];
    const agentRows = await db.selectFrom('agents').select(['id', 'updated_at', 'visible']).execute();
    const agencyRows = await db.selectFrom('agencies').select(['id', 'updated_at']).execute();
    for (const lang of LANGUAGES) {
      expected.set(`${PUBLIC_URL}/sitemaps/${lang}/pages.xml`, null);
      for (const block of blocks) {
        const lastmod = newest((id) => Math.floor(id / SMALL_SHARD) === block, publicListings)!;
        expected.set(`${PUBLIC_URL}/sitemaps/${lang}/listings-${block}.xml`, apiTime(lastmod));
      }
      for (const block of new Set(agentRows.filter((a) => a.visible === 1).map((a) => Math.floor(a.id / SMALL_SHARD)))) {
        const rows = agentRows.filter((a) => a.visible === 1);
        expected.set(
          `${PUBLIC_URL}/sitemaps/${lang}/agents-${block}.xml`,
          apiTime(newest((id) => Math.floor(id / SMALL_SHARD) === block, rows)!),
        );
      }
      for (const block of new Set(agencyRows.map((a) => Math.floor(a.id / SMALL_SHARD)))) {
        expected.set(
          `${PUBLIC_URL}/sitemaps/${lang}/agencies-${block}.xml`,
          apiTime(newest((id) => Math.floor(id / SMALL_SHARD) === block, agencyRows)!),
        );
      }
    }
    expect(new Map([...index].sort())).toEqual(new Map([...expected].sort()));
  });

  it('lists in each listing shard exactly the public listings of its block, at their records’ urls, with their last change', async () => {
    const index = sitemapsOf((await get(small, '/sitemap.xml')).body);
    const shardUrls = [...index.keys()].filter((loc) => loc.includes('/listings-'));
    expect(shardUrls.length).toBeGreaterThan(LANGUAGES.length); // the listings span several blocks of three
    const listed = new Map<string, string | null>();
    for (const shardUrl of shardUrls) {
      const [, lang, block] = /\/sitemaps\/(\w+)\/listings-(\d+)\.xml$/.exec(shardUrl)!;
      const res = await get(small, shardUrl.replace(PUBLIC_URL, ''));
      expect(res.statusCode, shardUrl).toBe(200);
      const urls = urlsOf(res.body);
      expect(urls.size).toBeLessThanOrEqual(SMALL_SHARD);
      const inBlock = listings.filter((l) => PUBLIC_STATES.includes(l.status) && Math.floor(l.id / SMALL_SHARD) === Number(block));
      const expected = new Map<string, string>();
      for (const l of inBlock) expected.set(inLanguage(await recordUrl('properties', l.id), lang!), apiTime(l.updated_at));
      expect(urls).toEqual(expected);
      for (const [loc, lastmod] of urls) listed.set(loc, lastmod);
    }
    // Every public listing once per language; no draft, pending, expired or held one anywhere.
    expect(listed.size).toBe(listings.filter((l) => PUBLIC_STATES.includes(l.status)).length * LANGUAGES.length);
    for (const l of listings.filter((l) => !PUBLIC_STATES.includes(l.status))) {
      const slug = (await db.selectFrom('listings').select('slug').where('id', '=', l.id).executeTakeFirstOrThrow()).slug;
      expect(
        [...listed.keys()].some((loc) => loc.endsWith(`/property/${encodeURIComponent(slug)}`)),
        l.status,
      ).toBe(false);
    }
    expect(listed.get(`${PUBLIC_URL}/es/property/${encodeURIComponent(ODD_SLUG)}`)).toBe(apiTime(listings[3]!.updated_at));
  });

  it('escapes odd slugs twice over: percent-encoded in the URL, and the XML specials as entities', async () => {
    const odd = listings[3]!;
    const res = await get(small, `/sitemaps/en/listings-${Math.floor(odd.id / SMALL_SHARD)}.xml`);
    expect(res.body).toContain(`<loc>${PUBLIC_URL}/property/odd%26%3C&apos;%22%3Eslug%20%C3%BC</loc>`);
    expect(res.body).not.toContain(`'">`);
    expect(urlsOf(res.body).has(`${PUBLIC_URL}/property/${encodeURIComponent(ODD_SLUG)}`)).toBe(true);
  });

  it('lists visible agents and every agency at their records’ urls, never a hidden agent', async () => {
    const agentShard = `/sitemaps/fr/agents-${Math.floor(visibleAgent / SMALL_SHARD)}.xml`;
    const agents = urlsOf((await get(small, agentShard)).body);
    expect(agents.get(inLanguage(await recordUrl('agents', visibleAgent), 'fr'))).toBe('2024-02-03T04:05:06Z');
    expect([...agents.keys()].some((loc) => loc.includes('hidden-agent'))).toBe(false);
    const hiddenShard = await get(small, `/sitemaps/fr/agents-${Math.floor(hiddenAgent / SMALL_SHARD)}.xml`);
    if (hiddenShard.statusCode === 200) expect(hiddenShard.body).not.toContain('hidden-agent');
    const agencies = new Map<string, string | null>();
    for (const block of new Set(agencyIds.map((id) => Math.floor(id / SMALL_SHARD))))
      for (const entry of urlsOf((await get(small, `/sitemaps/en/agencies-${block}.xml`)).body)) agencies.set(...entry);
    for (const id of agencyIds) expect(agencies.has(await recordUrl('agencies', id))).toBe(true);
  });

  it('lists the home page, the results and a landing page per term with published listings, in each language', async () => {
    const en = urlsOf((await get(t.app, '/sitemaps/en/pages.xml')).body);
    expect([...en.keys()]).toEqual(
      expect.arrayContaining([
        `${PUBLIC_URL}/`,
        `${PUBLIC_URL}/properties`,
        `${PUBLIC_URL}/properties/city/miami-beach`,
        `${PUBLIC_URL}/properties/type/villa`,
      ]),
    );
    expect(
      [...en.keys()].some((loc) => loc.includes('nowhere') || loc.includes('for-sale')),
      'terms without published listings',
    ).toBe(false);
    const ar = urlsOf((await get(t.app, '/sitemaps/ar/pages.xml')).body);
    expect(ar.has(`${PUBLIC_URL}/ar/`)).toBe(true);
    expect(ar.has(`${PUBLIC_URL}/ar/properties/city/miami-beach`)).toBe(true);
    expect(ar.size).toBe(en.size);
  });

  it('cuts shards of 50,000 ids by default: every public listing of these few is in the first shard', async () => {
    const index = sitemapsOf((await get(t.app, '/sitemap.xml')).body);
    const newest = listings
      .filter((l) => PUBLIC_STATES.includes(l.status))
      .map((l) => l.updated_at)
      .sort()
      .at(-1)!;
    expect(index.get(`${PUBLIC_URL}/sitemaps/en/listings-0.xml`)).toBe(apiTime(newest));
    expect([...index.keys()].filter((loc) => loc.includes('listings-'))).toHaveLength(LANGUAGES.length);
    const shard = urlsOf((await get(t.app, '/sitemaps/en/listings-0.xml')).body);
    expect(shard.size).toBe(listings.filter((l) => PUBLIC_STATES.includes(l.status)).length);
  });

  it('answers 304 to a matching revalidation of the index and a shard, and a new ETag once a listing of the shard changes', async () => {
    const shardPath = `/sitemaps/en/listings-${Math.floor(listings[0]!.id / SMALL_SHARD)}.xml`;
    for (const path of ['/sitemap.xml', shardPath, '/sitemaps/en/pages.xml']) {
      const res = await get(small, path);
      expect(res.headers['cache-control'], path).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=600');
      const again = await get(small, path, { 'if-none-match': String(res.headers.etag) });
      expect(again.statusCode, path).toBe(304);
      expect(again.body).toBe('');
    }
    const before = String((await get(small, shardPath)).headers.etag);
    await db
      .updateTable('listings')
      .set({ status: 'draft', updated_at: new Date().toISOString() })
      .where('id', '=', listings[1]!.id)
      .execute();
    try {
      const after = await get(small, shardPath, { 'if-none-match': before });
      expect(after.statusCode).toBe(200);
      expect(after.headers.etag).not.toBe(before);
      expect(after.body).not.toContain(
        await db
          .selectFrom('listings')
          .select('slug')
          .where('id', '=', listings[1]!.id)
          .executeTakeFirstOrThrow()
          .then((r) => r.slug),
      );
    } finally {
      await db
        .updateTable('listings')
        .set({ status: 'sold', updated_at: listings[1]!.updated_at })
        .where('id', '=', listings[1]!.id)
        .execute();
    }
  });

  it('sends a compressed shard to a crawler that takes it', async () => {
    const res = await get(t.app, '/sitemaps/en/listings-0.xml', { 'accept-encoding': 'gzip' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
  });

  it('answers the 404 page for shards that are in no index', async () => {
    const emptyBlock = Math.floor(listings.at(-1)!.id / SMALL_SHARD) + 5;
    for (const path of [
      '/sitemaps/xx/pages.xml',
      '/sitemaps/en/listings-01.xml',
      `/sitemaps/en/listings-${emptyBlock}.xml`,
      '/sitemaps/en/photos-0.xml',
      '/sitemaps/en/listings-0.txt',
    ]) {
      expect((await get(t.app, path)).statusCode, path).toBe(404);
    }
  });
});

describe('a sitemap when listing urls point elsewhere (LISTING_URL_TEMPLATE)', () => {
  it('leaves the listings out: a sitemap lists only its own host’s pages', async () => {
    const t = await buildTestApp('sqlite', { PUBLIC_URL, LISTING_URL_TEMPLATE: 'https://listings.example/home/{slug}' });
    try {
      await newListing(t.database.db);
      await newAgent(t.database.db);
      const index = sitemapsOf((await t.app.inject({ method: 'GET', url: '/sitemap.xml' })).body);
      expect([...index.keys()].some((loc) => loc.includes('/listings-'))).toBe(false);
      expect([...index.keys()].some((loc) => loc.includes('/agents-'))).toBe(true);
      expect((await t.app.inject({ method: 'GET', url: '/sitemaps/en/listings-0.xml' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
