import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/lib/signed-in-user.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newAgency, newAgent, newListing, newMedia, newTerm, newUser, unique } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';

const PUBLIC_URL = 'https://realty.example';
const API = '/realty-api/v1';
const SCRIPT = '"><script>alert(1)</script>';
const SIZES = JSON.stringify({
  medium: { key: 'pictures/ana-medium.jpg', width: 600, height: 600 },
  large: { key: 'pictures/ana-large.jpg', width: 1200, height: 1200 },
});

const callerOf = (user: { id: number; role: AuthUser['role'] }): AuthUser => ({
  id: user.id,
  role: user.role,
  sessionId: 'test',
  tokenExpiresAt: new Date(Date.now() + 60_000),
});

describeEachDialect('agent and agency pages, and the directories (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  const get = (url: string) => t.app.inject({ method: 'GET', url });
  let agency: { id: number; slug: string };
  let agent: { id: number; slug: string; userId: number };
  let hiddenSlug: string;
  let bareAgentSlug: string;
  let cityTerm: { slug: string };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    const agencyUser = await newUser(db, { role: 'agency' });
    const logo = await newMedia(db, agencyUser.id, { sizes: SIZES });
    // Written straight into the tables, past the API's cleaning: the pages must escape or drop whatever is stored.
    const agencyId = await newAgency(db, {
      user_id: agencyUser.id,
      name: `Sol Homes ${SCRIPT}`,
      slug: unique('sol-homes-'),
      description: '<p>Homes by the <strong>sea</strong>.</p><script>alert(2)</script><a href="javascript:alert(3)">trap</a>',
      address: '1 Harbour Road, Málaga',
      latitude: 36.72,
      longitude: -4.42,
      phone: '+34 952 000 111',
      email: 'office@sol.example',
      website: 'javascript:alert(4)',
      logo_media_id: logo.id,
      social: JSON.stringify({ facebook: 'javascript:alert(5)', linkedin: 'https://www.linkedin.com/company/sol-homes' }),
    });
    const agencySlug = (await db.selectFrom('agencies').select('slug').where('id', '=', agencyId).executeTakeFirstOrThrow()).slug;
    agency = { id: agencyId, slug: agencySlug };

    const agentUser = await newUser(db, { role: 'agent' });
    const picture = await newMedia(db, agentUser.id, { sizes: SIZES, width: 2000, height: 2000 });
    const city = await newTerm(t.services.taxonomies, 'agent_city', { name: 'Marbella' });
    cityTerm = city;
    const agentSlug = unique('ana-lopez-');
    const agentId = await newAgent(db, {
      user_id: agentUser.id,
      agency_id: agencyId,
      name: `Ana López ${SCRIPT}`,
      slug: agentSlug,
      position: `Senior agent ${SCRIPT}`,
      bio: `Twenty years on the coast.\n${SCRIPT}`,
      phone: '+34 600 111 222',
      mobile: '+34 600 333 444',
      whatsapp: '+34 600 333 444',
      email: 'ana@sol.example',
      website: 'javascript:alert(6)',
      languages: JSON.stringify(['Spanish', 'English']),
      service_areas: 'Marbella, Estepona',
      license: 'AICAT-1234',
      picture_media_id: picture.id,
      social: JSON.stringify({ instagram: 'https://instagram.com/ana', twitter: 'javascript:alert(7)' }),
    });
    await db.insertInto('agent_terms').values({ agent_id: agentId, term_id: city.id, taxonomy: 'agent_city', position: 0 }).execute();
    agent = { id: agentId, slug: agentSlug, userId: agentUser.id };

    // 25 published listings naming the agent (two pages of 20), and a draft that no page shows.
    const base = Date.parse('2026-01-01T00:00:00Z');
    for (let i = 0; i < 25; i++) {
      const at = new Date(base + i * 60_000).toISOString();
      const id = await newListing(db, {
        title: `Villa ${String(i).padStart(2, '0')}`,
        price: 100_000 + i,
        created_at: at,
        published_at: at,
      });
      await db.insertInto('listing_agents').values({ listing_id: id, agent_id: agentId, position: 0 }).execute();
    }
    const draft = await newListing(db, { title: 'Draft cottage', status: 'draft' });
    await db.insertInto('listing_agents').values({ listing_id: draft, agent_id: agentId, position: 0 }).execute();

    // Twelve reviews (two pages of ten), the first with a payload in its text.
    for (let i = 0; i < 12; i++) {
      const author = await newUser(db, { display_name: i === 0 ? `Eve ${SCRIPT}` : `Reviewer ${i}` });
      await t.services.reviews.create(
        callerOf(author),
        { type: 'agent', id: agentId },
        {
          rating: i % 2 === 0 ? 5 : 4,
          title: i === 0 ? `Great ${SCRIPT}` : `Review ${i}`,
          content: i === 0 ? `Loved it ${SCRIPT}` : 'Helpful.',
        },
        'en',
      );
    }
    // The service cleans review text; a row written past it must still be escaped.
    await db
      .updateTable('reviews')
      .set({ title: `Great ${SCRIPT}`, content: `Loved it ${SCRIPT}` })
      .where('target_type', '=', 'agent')
      .where('target_id', '=', agentId)
      .where('title', '=', 'Great ">alert(1)')
      .execute();
    await t.services.reviews.create(
      callerOf(await newUser(db)),
      { type: 'agency', id: agencyId },
      { rating: 4, content: 'Good agency.' },
      'en',
    );

    hiddenSlug = unique('hidden-');
    await newAgent(db, { agency_id: agencyId, name: 'Hidden Hugo', slug: hiddenSlug, visible: 0 });
    bareAgentSlug = unique('bare-');
    await newAgent(db, { name: 'Bare Bob', slug: bareAgentSlug });
  });
  afterAll(() => t.close());

  describe('the agent page', () => {
    it('answers valid HTML with the profile, its canonical URL, every language version and its picture', async () => {
      const res = await get(`/agent/${agent.slug}`);
      expect(res.statusCode, res.body).toBe(200);
      await expectValidHtml(res.body, 'the agent page');
      const page = parsePage(res.body);
      // The name is cut so that the title keeps within 70 characters.
      expect(page.title).toMatch(/^Ana López ".*…, real estate agent \| Realty$/);
      expect(parsePage((await get(`/agent/${bareAgentSlug}`)).body).title).toBe('Bare Bob, real estate agent | Realty');
      expect(page.root.querySelectorAll('h1').map((h) => h.text)).toEqual([`Ana López ${SCRIPT}`]);
      expect(page.root.querySelector('.profile__role')?.text).toBe(`Senior agent ${SCRIPT}`);
      expect(page.root.querySelector('.profile__agency a')?.getAttribute('href')).toBe(`/agency/${agency.slug}`);
      expect(page.canonical).toBe(`${PUBLIC_URL}/agent/${agent.slug}`);
      expect(page.alternates).toEqual({
        en: `${PUBLIC_URL}/agent/${agent.slug}`,
        ar: `${PUBLIC_URL}/ar/agent/${agent.slug}`,
        es: `${PUBLIC_URL}/es/agent/${agent.slug}`,
        fr: `${PUBLIC_URL}/fr/agent/${agent.slug}`,
        'x-default': `${PUBLIC_URL}/agent/${agent.slug}`,
      });
      expect(page.robots).toBeUndefined();
      const img = page.root.querySelector('img.profile__image')!;
      expect(img.getAttribute('width')).toBe('600');
      expect(img.getAttribute('height')).toBe('600');
      expect(img.getAttribute('srcset')).toMatch(/ana-medium\.jpg 600w, .*ana-large\.jpg 1200w$/);
      expect(img.getAttribute('alt')).toBe(`Photo of Ana López ${SCRIPT}`);
      expect(page.meta('og:image')).toMatch(/ana-large\.jpg$/);
      expect(page.meta('og:image:width')).toBe('1200');
    });

    it('links phones as tel:, the address as mailto:, WhatsApp, and only http(s) social links', async () => {
      const { root } = parsePage((await get(`/agent/${agent.slug}`)).body);
      const hrefs = root.querySelectorAll('a').map((a) => a.getAttribute('href') ?? '');
      expect(hrefs).toContain('tel:+34600111222');
      expect(hrefs).toContain('tel:+34600333444');
      expect(hrefs).toContain('mailto:ana@sol.example');
      expect(hrefs).toContain('https://wa.me/34600333444');
      expect(hrefs).toContain('https://instagram.com/ana');
      expect(hrefs.filter((href) => /^\s*javascript:/i.test(href))).toEqual([]);
      // The stored website is shown as text, never as a link.
      expect(root.querySelector('.profile-box')?.text).toContain('javascript:alert(6)');
      expect(root.querySelector('.social-links')?.text).not.toContain('X (Twitter)');
      const facts = root.querySelector('.profile-facts')!.text;
      expect(facts).toContain('Spanish, English');
      expect(facts).toContain('Marbella, Estepona');
      expect(facts).toContain('AICAT-1234');
    });

    it('escapes every stored text: name, position, bio, reviews', async () => {
      const { body: first } = await get(`/agent/${agent.slug}`);
      // The oldest review, with the payloads, is on the second page of reviews.
      const { body } = await get(`/agent/${agent.slug}?reviews_page=2`);
      for (const html of [first, body]) expect(html).not.toContain('<script>alert(1)</script>');
      expect(first).toContain('<h1 class="profile__name">Ana López &quot;>&lt;script>alert(1)&lt;/script></h1>');
      expect(first).toContain('Senior agent &quot;>&lt;script>alert(1)&lt;/script>');
      expect(first).toContain('Twenty years on the coast.\n&quot;>&lt;script>alert(1)&lt;/script>');
      expect(body).toContain('Great &quot;>&lt;script>alert(1)&lt;/script>');
      expect(body).toContain('Loved it &quot;>&lt;script>alert(1)&lt;/script>');
      expect(body).toContain('Eve &quot;>&lt;script>alert(1)&lt;/script>');
      // Inside JSON-LD the payload stays data: `<` is escaped, so it cannot close the script element.
      const scripts = parsePage(body).root.querySelectorAll('script[type="application/ld+json"]');
      for (const script of scripts) expect(script.rawText).not.toContain('</script');
    });

    it('tells search engines the same name, phone, picture and rating the page shows', async () => {
      const page = parsePage((await get(`/agent/${agent.slug}`)).body);
      const [profile, breadcrumbs] = page.jsonLd;
      const shownRating = page.root.querySelector('.reviews__summary .rating__value')!.text;
      const shownCount = page.root.querySelector('.reviews__summary .rating__count')!.text;
      expect(shownRating).toBe('4.5');
      expect(shownCount).toBe('(12 reviews)');
      expect(profile).toMatchObject({
        '@context': 'https://schema.org',
        '@type': 'RealEstateAgent',
        name: page.root.querySelector('h1')!.text,
        url: `${PUBLIC_URL}/agent/${agent.slug}`,
        telephone: page.root.querySelector('a[href="tel:+34600111222"]')!.text.replace(/\u00a0/g, ' '),
        email: 'ana@sol.example',
        image: page.meta('og:image'),
        knowsLanguage: ['Spanish', 'English'],
        aggregateRating: { '@type': 'AggregateRating', ratingValue: Number(shownRating), reviewCount: 12, bestRating: 5 },
        parentOrganization: { '@type': 'RealEstateAgent', name: `Sol Homes ${SCRIPT}`, url: `${PUBLIC_URL}/agency/${agency.slug}` },
        sameAs: ['https://instagram.com/ana'],
      });
      expect(breadcrumbs).toMatchObject({
        '@type': 'BreadcrumbList',
        itemListElement: [
          { position: 1, name: 'Home', item: `${PUBLIC_URL}/` },
          { position: 2, name: 'Agents', item: `${PUBLIC_URL}/agents` },
          { position: 3, name: `Ana López ${SCRIPT}` },
        ],
      });
    });

    it('leaves aggregateRating out without reviews, and shows "No reviews yet"', async () => {
      const page = parsePage((await get(`/agent/${bareAgentSlug}`)).body);
      expect(page.jsonLd[0]).not.toHaveProperty('aggregateRating');
      expect(page.jsonLd[0]).not.toHaveProperty('parentOrganization');
      expect(page.root.querySelector('.reviews__summary')?.text).toBe('No reviews yet');
      expect(page.root.querySelector('.profile__image.initials')?.text).toBe('BB');
    });

    it('pages its listings 20 at a time, the same pages as GET /agents/{id}/properties', async () => {
      for (const pageNumber of [1, 2]) {
        const res = await get(`/agent/${agent.slug}${pageNumber > 1 ? `?page=${pageNumber}` : ''}`);
        expect(res.statusCode).toBe(200);
        const page = parsePage(res.body);
        const shown = page.root.querySelectorAll('#listings .card__title a').map((a) => a.getAttribute('href'));
        const api = (await get(`${API}/agents/${agent.id}/properties?page=${pageNumber}&per_page=20`)).json().data;
        expect(shown).toEqual(api.properties.map((listing: { slug: string }) => `/property/${listing.slug}`));
        expect(shown).toHaveLength(pageNumber === 1 ? 20 : 5);
        expect(page.canonical).toBe(`${PUBLIC_URL}/agent/${agent.slug}${pageNumber > 1 ? '?page=2' : ''}`);
      }
      const first = parsePage((await get(`/agent/${agent.slug}`)).body);
      expect(first.root.querySelector('#listings .pagination a[rel="next"]')?.getAttribute('href')).toBe(
        `/agent/${agent.slug}?page=2#listings`,
      );
      expect(first.root.querySelector('.profile__count')?.text).toBe('25 properties');
      expect((await get(`/agent/${agent.slug}`)).body).not.toContain('Draft cottage');
      expect(parsePage((await get(`/agent/${agent.slug}?page=2`)).body).title).toMatch(
        /^Ana López .*…, real estate agent, page 2 \| Realty$/,
      );
    });

    it('pages its reviews ten at a time, newest first, another page of them not indexed', async () => {
      const first = parsePage((await get(`/agent/${agent.slug}`)).body);
      expect(first.root.querySelectorAll('.review')).toHaveLength(10);
      const next = first.root.querySelector('#reviews .pagination a[rel="next"]')!.getAttribute('href');
      expect(next).toBe(`/agent/${agent.slug}?reviews_page=2#reviews`);
      const second = parsePage((await get(next!.replace('#reviews', ''))).body);
      expect(second.root.querySelectorAll('.review')).toHaveLength(2);
      expect(second.root.querySelector('.review:last-child')?.text).toContain('Loved it');
      expect(second.robots).toBe('noindex, follow');
      // Two paged lists, two navigation landmarks with names of their own.
      const labels = first.root.querySelectorAll('nav.pagination').map((nav) => nav.getAttribute('aria-label'));
      expect(new Set(labels).size).toBe(labels.length);
    });

    it('answers the real 404 page for a hidden agent and an unknown slug, as the API does', async () => {
      for (const url of [`/agent/${hiddenSlug}`, '/agent/nobody-at-all', `/es/agent/${hiddenSlug}`]) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
        await expectValidHtml(res.body, `the 404 page of ${url}`);
        expect(parsePage(res.body).robots).toBe('noindex, follow');
      }
      expect(parsePage((await get(`/es/agent/${hiddenSlug}`)).body).title).toBe('Página no encontrada | Realty');
      expect(
        (await get(`${API}/agents/${(await t.services.agents.search({ keyword: 'hidden hugo' }, true)).agents[0]!.id}`)).statusCode,
      ).toBe(404);
      expect((await get(`/agency/${hiddenSlug}`)).statusCode).toBe(404);
    });

    it('answers a trailing slash with a 301 to the path without it, query kept, in every language', async () => {
      for (const [url, location] of [
        [`/agent/${agent.slug}/`, `/agent/${agent.slug}`],
        [`/fr/agent/${agent.slug}/?page=2`, `/fr/agent/${agent.slug}?page=2`],
        [`/agency/${agency.slug}/`, `/agency/${agency.slug}`],
        ['/agents/', '/agents'],
        ['/es/agencies/?keyword=sol', '/es/agencies?keyword=sol'],
      ]) {
        const res = await get(url!);
        expect(res.statusCode, url).toBe(301);
        expect(res.headers.location).toBe(location);
      }
    });

    it('speaks each language, right to left in Arabic', async () => {
      const expected = {
        en: ['real estate agent', 'Contact Ana', 'Send message'],
        es: ['agente inmobiliario', 'Contactar con Ana', 'Enviar mensaje'],
        fr: ['agent immobilier', 'Contacter Ana', 'Envoyer le message'],
        ar: ['وكيل عقاري', 'تواصل مع Ana', 'إرسال الرسالة'],
      } as const;
      for (const [lang, [title, contact, send]] of Object.entries(expected)) {
        const res = await get(`${lang === 'en' ? '' : `/${lang}`}/agent/${agent.slug}`);
        expect(res.statusCode).toBe(200);
        const page = parsePage(res.body);
        expect(page.root.querySelector('html')?.getAttribute('lang')).toBe(lang);
        expect(page.root.querySelector('html')?.getAttribute('dir')).toBe(lang === 'ar' ? 'rtl' : 'ltr');
        expect(page.title).toContain(title);
        expect(page.root.querySelector('#contact-heading')?.text).toContain(contact);
        expect(page.root.querySelector('#contact button[type="submit"]')?.text).toBe(send);
        expect(page.root.querySelector('.profile__agency a')?.getAttribute('href')).toBe(
          `${lang === 'en' ? '' : `/${lang}`}/agency/${agency.slug}`,
        );
      }
      await expectValidHtml((await get(`/ar/agent/${agent.slug}`)).body, 'the Arabic agent page');
    });
  });

  describe('the agency page', () => {
    it('answers valid HTML with its sanitized description, its visible agents and its listings', async () => {
      const res = await get(`/agency/${agency.slug}`);
      expect(res.statusCode, res.body).toBe(200);
      await expectValidHtml(res.body, 'the agency page');
      const page = parsePage(res.body);
      expect(page.title).toMatch(/^Sol Homes ".*…, real estate agency \| Realty$/);
      const about = page.root.querySelector('.rich-text')!;
      expect(about.innerHTML).toContain('<strong>sea</strong>');
      expect(about.innerHTML).not.toContain('script');
      expect(about.innerHTML).not.toContain('javascript:');
      const agents = page.root.querySelectorAll('#agents .profile-card__name a');
      expect(agents.map((a) => a.getAttribute('href'))).toEqual([`/agent/${agent.slug}`]);
      expect(res.body).not.toContain('Hidden Hugo');
      expect(page.root.querySelectorAll('#listings .card')).toHaveLength(20);
      const logo = page.root.querySelector('img.profile__image')!;
      expect(logo.getAttribute('alt')).toBe(`Logo of Sol Homes ${SCRIPT}`);
      expect(logo.getAttribute('width')).toBe('600');
      expect(res.body).not.toContain('<script>alert(1)</script>');
      expect(page.root.querySelectorAll('a').filter((a) => /^\s*javascript:/i.test(a.getAttribute('href') ?? ''))).toEqual([]);
      expect(page.root.querySelector('.social-links')?.text).toBe('LinkedIn');
    });

    it('pages its listings as GET /agencies/{id}/properties does', async () => {
      const shown = parsePage((await get(`/agency/${agency.slug}?page=2`)).body)
        .root.querySelectorAll('#listings .card__title a')
        .map((a) => a.getAttribute('href'));
      const api = (await get(`${API}/agencies/${agency.id}/properties?page=2&per_page=20`)).json().data;
      expect(shown).toEqual(api.properties.map((listing: { slug: string }) => `/property/${listing.slug}`));
      expect(shown).toHaveLength(5);
    });

    it('gives search engines its address, coordinates, logo and the rating it shows', async () => {
      const page = parsePage((await get(`/agency/${agency.slug}`)).body);
      expect(page.jsonLd[0]).toMatchObject({
        '@type': 'RealEstateAgent',
        name: page.root.querySelector('h1')!.text,
        url: `${PUBLIC_URL}/agency/${agency.slug}`,
        telephone: '+34 952 000 111',
        address: { '@type': 'PostalAddress', streetAddress: '1 Harbour Road, Málaga' },
        geo: { '@type': 'GeoCoordinates', latitude: 36.72, longitude: -4.42 },
        logo: page.meta('og:image'),
        aggregateRating: { ratingValue: 4, reviewCount: 1 },
        description: 'Homes by the sea. trap',
      });
      expect(page.jsonLd[0]).toMatchObject({ sameAs: ['https://www.linkedin.com/company/sol-homes'] });
      expect(page.root.querySelector('.reviews__summary .rating__value')?.text).toBe('4');
      expect(page.jsonLd[1]).toMatchObject({
        itemListElement: [{ name: 'Home' }, { name: 'Agencies', item: `${PUBLIC_URL}/agencies` }, {}],
      });
    });
  });

  describe('the directories', () => {
    let pagingIds: number[];
    beforeAll(async () => {
      pagingIds = [];
      for (let i = 0; i < 26; i++) pagingIds.push(await newAgent(db, { name: `Zulu Pager ${String(i).padStart(2, '0')}` }));
    });

    it('lists the visible agents as cards with picture, agency, listings and rating', async () => {
      const res = await get(`/agents?keyword=${encodeURIComponent('Ana López')}`);
      expect(res.statusCode, res.body).toBe(200);
      await expectValidHtml(res.body, 'the agents directory');
      const page = parsePage(res.body);
      const card = page.root.querySelector('.profile-card')!;
      expect(card.querySelector('.profile-card__name a')?.getAttribute('href')).toBe(`/agent/${agent.slug}`);
      expect(card.querySelector('img')?.getAttribute('width')).toBe('600');
      expect(card.text).toContain(`Agent at Sol Homes ${SCRIPT}`);
      expect(card.text).toContain('25 properties');
      expect(card.querySelector('.rating__value')?.text).toBe('4.5');
      expect(res.body).not.toContain('<script>alert(1)</script>');
      expect(page.robots).toBe('noindex, follow');
      expect(page.canonical).toBe(`${PUBLIC_URL}/agents`);
      expect(page.root.querySelector('#directory-keyword')?.getAttribute('value')).toBe('Ana López');
    });

    it('indexes the plain list and its pages, and pages 24 cards at a time as GET /agents does', async () => {
      const plain = parsePage((await get('/agents')).body);
      expect(plain.robots).toBeUndefined();
      expect(plain.canonical).toBe(`${PUBLIC_URL}/agents`);
      expect(plain.title).toBe('Real estate agents | Realty');
      expect(plain.root.querySelectorAll('.profile-card')).toHaveLength(24);
      expect((await get('/agents')).body).not.toContain('Hidden Hugo');
      const second = parsePage((await get('/agents?page=2')).body);
      expect(second.canonical).toBe(`${PUBLIC_URL}/agents?page=2`);
      expect(second.robots).toBeUndefined();
      const api = (await get(`${API}/agents?page=2&per_page=24`)).json().data;
      expect(second.root.querySelectorAll('.profile-card__name a').map((a) => a.getAttribute('href'))).toEqual(
        api.agents.map((a: { slug: string }) => `/agent/${a.slug}`),
      );
    });

    it('searches by keyword, city, category and language from a GET form whose empty fields mean "any"', async () => {
      const searched = parsePage((await get('/agents?keyword=zulu+pager&city=&category=&language=&sortby=d_name')).body);
      const names = searched.root.querySelectorAll('.profile-card__name a').map((a) => a.text);
      expect(names).toHaveLength(24);
      expect(names[0]).toBe('Zulu Pager 25');
      expect(searched.root.querySelector('.directory__found')?.text).toBe('26 agents');
      const next = searched.root.querySelector('.pagination a[rel="next"]')!.getAttribute('href');
      expect(next).toBe('/agents?keyword=zulu+pager&sortby=d_name&page=2');
      expect(parsePage((await get(next!)).body).root.querySelectorAll('.profile-card')).toHaveLength(2);
      const byCity = parsePage((await get(`/agents?city=${cityTerm.slug}`)).body);
      expect(byCity.root.querySelectorAll('.profile-card__name a').map((a) => a.getAttribute('href'))).toEqual([`/agent/${agent.slug}`]);
      expect(byCity.root.querySelector(`#directory-city option[value="${cityTerm.slug}"]`)?.hasAttribute('selected')).toBe(true);
      const byLanguage = parsePage((await get('/agents?language=english')).body);
      expect(byLanguage.root.querySelectorAll('.profile-card')).toHaveLength(1);
      const none = parsePage((await get('/agents?keyword=nobody+matches+this')).body);
      expect(none.root.querySelector('.directory__found')?.text).toBe('0 agents');
      expect(none.root.text).toContain('No agent matches this search.');
      expect((await get('/agents?sortby=bogus')).statusCode).toBe(400);
    });

    it('lists agencies with their logo, counts and rating, searched by name', async () => {
      const res = await get('/agencies?keyword=sol+homes');
      expect(res.statusCode).toBe(200);
      await expectValidHtml(res.body, 'the agencies directory');
      const page = parsePage(res.body);
      const card = page.root.querySelector('.profile-card')!;
      expect(card.querySelector('.profile-card__name a')?.getAttribute('href')).toBe(`/agency/${agency.slug}`);
      expect(card.text).toContain('1 agent · 25 properties');
      expect(card.querySelector('.rating__value')?.text).toBe('4');
      expect(page.robots).toBe('noindex, follow');
      const plain = parsePage((await get('/es/agencies')).body);
      expect(plain.title).toBe('Agencias inmobiliarias | Realty');
      expect(plain.robots).toBeUndefined();
      expect(plain.root.querySelector('.profile-card')?.text).toContain('1 agente · 25 inmuebles');
    });
  });
});
