import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, ListingState } from '../../src/db/schema/index.js';
import { formattersFor } from '../../src/site/format.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { links, newListing, newTerm, newUser, signIn, unique } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';
import {
  attachPictures,
  type BreadcrumbLd,
  fullListing,
  type ListingLd,
  type ListingWorld,
  listingWorld,
  PUBLIC_URL,
  siteVisitor,
} from './listing-fixtures.js';

const SCRIPT = '<script>alert(1)</script>';
const ATTRIBUTE = '" onmouseover="alert(1)" x="';

describeEachDialect('the listing page (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let world: ListingWorld;
  let full: { id: number; slug: string };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    world = await listingWorld(t);
    full = await fullListing(t, world);
    // Two listings like it, for the similar block.
    for (const n of [1, 2]) await fullListing(t, world, { title: `Similar flat ${n}`, price: 440000 + n });
  });
  afterAll(() => t.close());

  const get = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url, headers });
  const slugOf = async (id: number) => (await db.selectFrom('listings').select('slug').where('id', '=', id).executeTakeFirstOrThrow()).slug;

  it('shows every block of a full listing, as valid HTML', async () => {
    const res = await get(`/property/${full.slug}`);
    expect(res.statusCode, res.body).toBe(200);
    await expectValidHtml(res.body);
    const { root } = parsePage(res.body);
    expect(root.querySelectorAll('h1').map((h) => h.text)).toEqual(['Sea view flat']);
    for (const id of [
      'overview',
      'description',
      'details',
      'features',
      'floor-plans',
      'video',
      'tour',
      'location',
      'calculator',
      'contact',
      'viewing',
      'reviews',
    ]) {
      expect(root.querySelector(`#${id}`), id).not.toBeNull();
    }
    expect(root.querySelector('#listed-by-heading')).not.toBeNull();
    expect(root.querySelector('#similar-heading')?.parentNode.querySelectorAll('.card')).toHaveLength(2);
    expect(root.querySelector('#share-heading')?.parentNode.querySelectorAll('a')).toHaveLength(5);
    expect(root.querySelector('[data-price]')?.text).toBe('From €450,000');

    const overview = root.querySelector('#overview')!.text;
    for (const text of [
      'Apartment',
      'For Sale',
      'Hot offer',
      'Bedrooms3',
      'Bathrooms2',
      'Rooms5',
      'Garage1',
      '20 m²',
      '120 m²',
      '300 m²',
      '2015',
    ]) {
      expect(overview).toContain(text);
    }
    expect(root.querySelector('#description strong')?.text).toBe('bright');
    expect(root.querySelector('#details')!.text).toContain('REF-123');
    expect(root.querySelector('#details')!.text).toContain('Underfloor');
    expect(root.querySelectorAll('#features li').map((li) => li.text)).toEqual(['Swimming pool', 'Gym']);
    expect(root.querySelector('#floor-plans h3')?.text).toBe('Ground floor');
    expect(root.querySelector('#floor-plans a')?.getAttribute('href')).toBe('https://plans.example/ground.png');
    expect(root.querySelector('#video iframe')?.getAttribute('src')).toBe('https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ');
    expect(root.querySelector('#tour iframe')?.getAttribute('src')).toBe('https://my.matterport.com/show/?m=SxQL3iGyoDo');
    const map = root.querySelector('[data-listing-map]')!;
    expect(map.getAttribute('data-lat')).toBe('36.5101');
    expect(map.querySelector('a')?.getAttribute('href')).toBe(
      'https://www.openstreetmap.org/?mlat=36.51010&mlon=-4.88250#map=16/36.51010/-4.88250',
    );
    expect(root.querySelector('.calculator__monthly')?.text).toMatch(/^€[\d,]+$/);
    const agent = root.querySelector('.contact-card__name a')!;
    expect(agent.text).toBe('Ana Agent');
    expect(agent.getAttribute('href')).toMatch(/^\/agent\//);
    expect(root.querySelector('.contact-lines a[href^="tel:"]')?.getAttribute('href')).toBe('tel:+34600000001');
    expect(root.querySelector(`form[action="/favorites/${full.id}"]`)).not.toBeNull();
    expect(root.querySelector(`a[href="/compare?add=${full.id}"]`)).not.toBeNull();
  });

  it('shows every picture, the first fetched first and preloaded, the others lazily, each a link to its large size', async () => {
    const { root } = parsePage((await get(`/property/${full.slug}`)).body);
    const images = root.querySelectorAll('.gallery img');
    expect(images).toHaveLength(3);
    expect(images[0]!.getAttribute('fetchpriority')).toBe('high');
    expect(images[0]!.getAttribute('loading')).toBe('eager');
    for (const image of images.slice(1)) expect(image.getAttribute('loading')).toBe('lazy');
    for (const image of images) {
      expect(image.getAttribute('width')).toBe('600');
      expect(image.getAttribute('height')).toBe('400');
      expect(image.getAttribute('srcset')).toMatch(/-medium\.jpg 600w, .*-large\.jpg 1200w$/);
      expect(image.parentNode.getAttribute('href')).toMatch(/-large\.jpg$/);
    }
    const preload = root.querySelector('link[rel="preload"][as="image"]')!;
    expect(preload.getAttribute('href')).toBe(images[0]!.getAttribute('src'));
    const scripts = root.querySelectorAll('script[type="module"]').map((s) => s.getAttribute('src')!.split('/').pop());
    expect(scripts.sort()).toEqual(['calculator.js', 'gallery.js', 'listing-map.js']);
  });

  it('leaves out the blocks a sparse listing has nothing for', async () => {
    const slug = unique('bare-');
    await newListing(db, { slug, title: 'Bare plot', author_id: world.seller.id, agent_display: 'none' });
    const res = await get(`/property/${slug}`);
    expect(res.statusCode).toBe(200);
    await expectValidHtml(res.body);
    const { root } = parsePage(res.body);
    for (const id of ['overview', 'description', 'details', 'features', 'floor-plans', 'video', 'tour', 'location', 'calculator']) {
      expect(root.querySelector(`#${id}`), id).toBeNull();
    }
    expect(root.querySelector('.gallery')).toBeNull();
    expect(root.querySelector('#listed-by-heading')).toBeNull();
    expect(root.querySelector('#similar-heading')).toBeNull();
    expect(root.querySelector('[data-price]')?.text).toBe('Price on request');
    expect(root.querySelector('script[type="module"]')).toBeNull();
    expect(root.querySelector('link[rel="preload"]')).toBeNull();
    // Still contactable and reviewable.
    expect(root.querySelector('#contact form')).not.toBeNull();
    expect(root.querySelector('#reviews')).not.toBeNull();
  });

  it('says "Studio" for no bedrooms, and names the author or the agency as agent_display says', async () => {
    const studio = await fullListing(t, world, { bedrooms: 0, agent_display: 'author_info' });
    let { root } = parsePage((await get(`/property/${studio.slug}`)).body);
    expect(root.querySelector('#overview')!.text).toContain('BedroomsStudio');
    expect(root.querySelector('.contact-card')!.text).toContain('Sam Seller');
    expect(root.querySelector('.contact-card a')).toBeNull();
    const byAgency = await fullListing(t, world, { agent_display: 'agency_info' });
    ({ root } = parsePage((await get(`/property/${byAgency.slug}`)).body));
    expect(root.querySelector('.contact-card__name a')?.getAttribute('href')).toMatch(/^\/agency\//);
  });

  it.each(['draft', 'pending', 'on_hold', 'disapproved', 'expired'] as ListingState[])(
    'answers the real 404 page for a %s listing',
    async (status) => {
      const { slug } = await fullListing(t, world, { status });
      const res = await get(`/property/${slug}`);
      expect(res.statusCode).toBe(404);
      await expectValidHtml(res.body);
      expect(parsePage(res.body).title).toBe('Page not found | Realty');
      expect(res.body).not.toContain('Sea view flat');
      expect((await get(`/es/property/${slug}`)).statusCode).toBe(404);
    },
  );

  it('answers 404 for an unknown slug, and shows a hidden listing to its owner as a noindex preview', async () => {
    expect((await get(`/property/${unique('nowhere-')}`)).statusCode).toBe(404);
    const { slug } = await fullListing(t, world, { status: 'pending' });
    const owner = await siteVisitor(t, world.seller);
    const res = await get(`/property/${slug}`, { cookie: owner.cookie });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    await expectValidHtml(res.body);
    const page = parsePage(res.body);
    expect(page.robots).toBe('noindex, follow');
    expect(page.canonical).toBeUndefined();
    expect(page.jsonLd).toEqual([]);
    expect(page.root.querySelector('.form-notice')?.text).toContain('awaiting approval');
    expect(page.root.querySelector('#contact')).toBeNull();
    // Anyone else signed in still gets the 404.
    const other = await siteVisitor(t, await newUser(db));
    expect((await get(`/property/${slug}`, { cookie: other.cookie })).statusCode).toBe(404);
  });

  it('keeps a sold listing, with its state shown', async () => {
    const { slug } = await fullListing(t, world, { status: 'sold' });
    const res = await get(`/property/${slug}`);
    expect(res.statusCode).toBe(200);
    const page = parsePage(res.body);
    expect(page.title).toBe('Sea view flat — sold | Realty');
    expect(page.root.querySelector('.listing__badges')!.text).toContain('Sold');
    expect(page.root.querySelector('.listing__sold')?.text).toBe('This property has been sold.');
    expect(page.root.querySelector('#viewing')).toBeNull();
    expect(page.root.querySelector('#calculator')).toBeNull();
    expect(page.jsonLd[0]).toMatchObject({ offers: { availability: 'https://schema.org/SoldOut' } });
  });

  it('answers 301 from a former slug to the current one in every language, and from a trailing slash', async () => {
    const { id, slug } = await fullListing(t, world);
    const admin = await signIn(t.app, await newUser(db, { role: 'administrator' }));
    const renamed = unique('renamed-');
    const put = await t.app.inject({ method: 'PUT', url: `/realty-api/v1/properties/${id}`, headers: admin, payload: { slug: renamed } });
    expect(put.statusCode, put.body).toBe(200);
    for (const prefix of ['', '/ar', '/es', '/fr']) {
      const res = await get(`${prefix}/property/${slug}?utm_source=mail`);
      expect(res.statusCode, prefix).toBe(301);
      expect(res.headers.location).toBe(`${prefix}/property/${renamed}?utm_source=mail`);
    }
    expect((await get(`/property/${renamed}`)).statusCode).toBe(200);
    const slash = await get(`/property/${renamed}/`);
    expect(slash.statusCode).toBe(301);
    expect(slash.headers.location).toBe(`/property/${renamed}`);
    expect((await get(`/fr/property/${renamed}/`)).headers.location).toBe(`/fr/property/${renamed}`);
  });

  it('names its canonical path, every language version and its social cards', async () => {
    for (const [prefix, lang, title] of [
      ['', 'en', 'Sea view flat — From €450,000 | Realty'],
      ['/es', 'es', 'Sea view flat — From 450.000\u00a0€ | Realty'],
      ['/ar', 'ar', null],
    ] as const) {
      const res = await get(`${prefix}/property/${full.slug}`);
      expect(res.statusCode).toBe(200);
      await expectValidHtml(res.body, `${lang} page`);
      const page = parsePage(res.body);
      expect(page.root.querySelector('html')?.getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
      if (title) expect(page.title).toBe(title);
      expect(page.canonical).toBe(`${PUBLIC_URL}${prefix}/property/${full.slug}`);
      expect(page.alternates).toEqual({
        en: `${PUBLIC_URL}/property/${full.slug}`,
        ar: `${PUBLIC_URL}/ar/property/${full.slug}`,
        es: `${PUBLIC_URL}/es/property/${full.slug}`,
        fr: `${PUBLIC_URL}/fr/property/${full.slug}`,
        'x-default': `${PUBLIC_URL}/property/${full.slug}`,
      });
      expect(page.meta('description')).toBe('A bright flat by the sea.');
      expect(page.meta('og:image')).toMatch(/-large\.jpg$/);
      expect(page.meta('og:image:width')).toBe('1200');
      expect(page.meta('twitter:card')).toBe('summary_large_image');
    }
  });

  it('gives JSON-LD that matches the visible page: the offer, the home, its address and the trail', async () => {
    for (const prefix of ['', '/fr']) {
      const page = parsePage((await get(`${prefix}/property/${full.slug}`)).body);
      const [listing, trail] = page.jsonLd as unknown as [ListingLd, BreadcrumbLd];
      expect(listing['@type']).toBe('RealEstateListing');
      expect(listing.url).toBe(page.canonical);
      const format = formattersFor(prefix === '/fr' ? 'fr' : 'en');
      const visiblePrice = page.root.querySelector('[data-price]')!.text;
      expect(listing.offers).toMatchObject({
        '@type': 'Offer',
        price: 450000,
        priceCurrency: 'EUR',
        businessFunction: 'http://purl.org/goodrelations/v1#Sell',
      });
      expect(visiblePrice).toContain(format.money(listing.offers.price, listing.offers.priceCurrency));
      const home = listing.mainEntity;
      expect(home).toMatchObject({
        '@type': 'Apartment',
        numberOfRooms: 5,
        numberOfBedrooms: 3,
        numberOfBathroomsTotal: 2,
        floorSize: { '@type': 'QuantitativeValue', value: 120, unitCode: 'MTK' },
        geo: { '@type': 'GeoCoordinates', latitude: 36.5101, longitude: -4.8825 },
      });
      const address = page.root.querySelector('.listing__address')!.text;
      for (const field of ['streetAddress', 'addressLocality', 'addressRegion', 'postalCode', 'addressCountry']) {
        expect(address, field).toContain(home.address[field]);
      }
      expect(home.address).toMatchObject({
        '@type': 'PostalAddress',
        streetAddress: '12 Harbour Street',
        postalCode: '29601',
        addressCountry: 'Spain',
      });
      expect(listing.datePosted).toMatch(/^\d{4}-\d{2}-\d{2}T/);
      expect(trail['@type']).toBe('BreadcrumbList');
      const crumbs = page.root.querySelectorAll('.breadcrumbs li').map((li) => li.text);
      expect(trail.itemListElement.map((item) => item.name)).toEqual(crumbs);
      expect(trail.itemListElement[1]!.item).toBe(`${PUBLIC_URL}${prefix}/properties/city/${world.terms.city.slug}`);
    }
  });

  it('calls a listing for rent a lease, by its status term or a price per period, and offers it no mortgage', async () => {
    const byStatus = await fullListing(t, world, {
      terms: [...links('property_status', world.terms.forRent), ...links('property_type', world.terms.apartment)],
    });
    const byPostfix = await fullListing(t, world, { price: 1500, price_postfix: '/month', price_prefix: '' });
    for (const { slug } of [byStatus, byPostfix]) {
      const page = parsePage((await get(`/property/${slug}`)).body);
      expect((page.jsonLd[0] as unknown as ListingLd).offers.businessFunction).toBe('http://purl.org/goodrelations/v1#LeaseOut');
      expect(page.root.querySelector('#calculator')).toBeNull();
    }
    expect(parsePage((await get(`/property/${byPostfix.slug}`)).body).root.querySelector('[data-price]')?.text).toBe('€1,500/month');
  });

  it('works the calculator out from its GET form, and says beside a field what is out of bounds', async () => {
    const page = parsePage((await get(`/property/${full.slug}?calc_price=300000&calc_down=10&calc_rate=0&calc_years=30`)).body);
    expect(page.root.querySelector('.calculator__monthly')?.text).toBe('€750');
    expect(page.root.querySelector('#calc-calc_down')?.getAttribute('value')).toBe('10');
    const wrong = await get(`/property/${full.slug}?calc_rate=99&calc_years=abc`);
    expect(wrong.statusCode).toBe(200);
    await expectValidHtml(wrong.body);
    const { root } = parsePage(wrong.body);
    expect(root.querySelector('#calc-calc_rate-error')?.text).toBe('must be at most 30');
    expect(root.querySelector('#calc-calc_years-error')?.text).toBe('must be of type number');
    expect(root.querySelector('#calc-calc_rate')?.getAttribute('value')).toBe('99');
  });

  it('escapes script, attribute and URL payloads written straight into the tables', async () => {
    const feature = await newTerm(t.services.taxonomies, 'property_feature', { name: `Pool ${SCRIPT}` });
    const { id, slug } = await fullListing(t, world, {
      title: `${ATTRIBUTE}${SCRIPT} villa`,
      description: `<p>Nice</p>${SCRIPT}<img src=x onerror="alert(1)"><a href="javascript:alert(1)">x</a>`,
      excerpt: `${ATTRIBUTE}${SCRIPT}`,
      reference: SCRIPT,
      additional_features: JSON.stringify([{ title: SCRIPT, value: ATTRIBUTE }]),
      floor_plans: JSON.stringify([
        {
          title: SCRIPT,
          rooms: null,
          bathrooms: null,
          price: null,
          price_postfix: SCRIPT,
          size: null,
          size_postfix: '',
          description: SCRIPT,
          image_url: 'javascript:alert(1)',
        },
      ]),
      video_url: 'javascript:alert(1)',
      virtual_tour: 'javascript:alert(1)//https://my.matterport.com/show/?m=abcdefgh',
      terms: links('property_feature', feature),
    });
    await db
      .updateTable('agents')
      .set({ name: `Agent ${SCRIPT}${ATTRIBUTE}` })
      .where('id', '=', world.agentId)
      .execute();
    const reviewer = await newUser(db, { display_name: `Rita ${SCRIPT}` });
    await t.services.reviews.create(
      { id: reviewer.id, role: 'buyer', sessionId: 'x', tokenExpiresAt: new Date(Date.now() + 60_000) },
      { type: 'property', id },
      { rating: 4, title: SCRIPT, content: `${SCRIPT}${ATTRIBUTE}` },
      'en',
    );
    // The API cleans on write; the row is made to hold the payload again, as an old import could have left it.
    await db
      .updateTable('reviews')
      .set({ title: SCRIPT, content: `${SCRIPT}${ATTRIBUTE}` })
      .where('target_id', '=', id)
      .execute();
    const res = await get(`/property/${slug}`);
    await db.updateTable('agents').set({ name: 'Ana Agent' }).where('id', '=', world.agentId).execute();
    expect(res.statusCode, res.body).toBe(200);
    await expectValidHtml(res.body);
    const body = res.body.replace(/<script type="application\/ld\+json">[^<]*<\/script>/g, '');
    expect(body).not.toContain('<script>');
    expect(body).not.toContain('javascript:');
    expect(body).toContain('&lt;script>alert(1)&lt;/script>');
    const page = parsePage(res.body);
    const handlers = page.root
      .querySelectorAll('*')
      .flatMap((element) => Object.keys(element.attributes).filter((name) => /^on/i.test(name)));
    expect(handlers).toEqual([]);
    expect(page.root.querySelector('#video')).toBeNull();
    expect(page.root.querySelector('#tour')).toBeNull();
    expect(page.root.querySelectorAll('iframe')).toHaveLength(0);
    expect(page.root.querySelector('#floor-plans a')).toBeNull();
    expect(page.root.querySelector('h1')?.text).toBe(`${ATTRIBUTE}${SCRIPT} villa`);
    expect(page.root.querySelector('.review__content')?.text).toBe(`${SCRIPT}${ATTRIBUTE}`);
    // JSON-LD holds the same text, parsed back intact, and cannot close its element.
    expect((page.jsonLd[0] as unknown as ListingLd).name).toBe(`${ATTRIBUTE}${SCRIPT} villa`);
    expect(res.body).not.toMatch(/<script type="application\/ld\+json">[^<]*<\/script>[^<]*alert/);
  });

  it('counts a view per visit, also when the page comes from the cache, but not for a redirect or a 404', async () => {
    const { id, slug } = await fullListing(t, world);
    const views = async () => {
      await t.services.views.flush();
      return Number((await db.selectFrom('listings').select('views').where('id', '=', id).executeTakeFirstOrThrow()).views);
    };
    await get(`/property/${slug}`, { 'x-forwarded-for': '203.0.113.1' });
    await t.app.inject({ method: 'GET', url: `/property/${slug}`, remoteAddress: '203.0.113.2' });
    await t.app.inject({ method: 'GET', url: `/property/${slug}`, remoteAddress: '203.0.113.3' });
    expect(await views()).toBe(3);
    await t.app.inject({ method: 'GET', url: `/property/${slug}/`, remoteAddress: '203.0.113.4' });
    expect(await views()).toBe(3);
    expect(await slugOf(id)).toBe(slug);
  });

  it('gives the page an ETag that follows the listing (304 while it holds)', async () => {
    const { id, slug } = await fullListing(t, world);
    const first = await get(`/property/${slug}`);
    expect(first.headers['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=600');
    const etag = String(first.headers.etag);
    expect((await get(`/property/${slug}`, { 'if-none-match': etag })).statusCode).toBe(304);
    await db.updateTable('listings').set({ title: 'Sea view flat, renovated' }).where('id', '=', id).execute();
    const changed = await get(`/property/${slug}`, { 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(parsePage(changed.body).root.querySelector('h1')?.text).toBe('Sea view flat, renovated');
  });

  it('shows pictures with their own alt text, and reviews a page at a time', async () => {
    const { id, slug } = await fullListing(t, world);
    await db.deleteFrom('media').where('listing_id', '=', id).execute();
    await attachPictures(db, world.seller.id, id, 1, 'The terrace at sunset');
    for (let n = 0; n < 7; n++) {
      const reviewer = await newUser(db);
      await t.services.reviews.create(
        { id: reviewer.id, role: 'buyer', sessionId: 'x', tokenExpiresAt: new Date(Date.now() + 60_000) },
        { type: 'property', id },
        { rating: 5, content: `Review ${n}` },
        'en',
      );
    }
    const first = parsePage((await get(`/property/${slug}`)).body).root;
    expect(first.querySelector('.gallery img')?.getAttribute('alt')).toBe('The terrace at sunset');
    expect(first.querySelectorAll('.review')).toHaveLength(5);
    expect(first.querySelector('.reviews__summary')?.text).toContain('5 out of 5, from 7 reviews');
    const next = first.querySelector('.pagination a[rel="next"]')!.getAttribute('href');
    expect(next).toBe(`/property/${slug}?reviews_page=2#reviews`);
    const second = await get(next!.split('#')[0]!);
    await expectValidHtml(second.body);
    expect(parsePage(second.body).root.querySelectorAll('.review')).toHaveLength(2);
    expect(parsePage(second.body).canonical).toBe(`${PUBLIC_URL}/property/${slug}`);
  });
});
