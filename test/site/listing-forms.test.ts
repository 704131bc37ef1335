import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newUser, signIn } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';
import { form, fullListing, type ListingWorld, listingWorld, PUBLIC_URL, SAME_ORIGIN, siteVisitor } from './listing-fixtures.js';

const API = '/realty-api/v1';

interface LeadRecord {
  name: string;
  email: string;
  phone: string;
  message: string;
  user_type: string;
  property: { id: number } | null;
}

describeEachDialect('the listing page’s forms (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let world: ListingWorld;
  let listing: { id: number; slug: string };

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    world = await listingWorld(t);
    listing = await fullListing(t, world);
  });
  afterAll(() => t.close());

  const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url, headers: { ...SAME_ORIGIN, ...headers }, payload: form(fields) });
  const leadsOfAgent = async (): Promise<LeadRecord[]> => {
    const res = await t.app.inject({
      method: 'GET',
      url: `${API}/users/leads?per_page=100`,
      headers: await signIn(t.app, world.agentUser),
    });
    return res.json().data.leads as LeadRecord[];
  };
  const leadCount = async () =>
    Number(
      (
        await db
          .selectFrom('leads')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const sender = { name: 'Carla Buyer', email: 'carla@example.test', phone: '+34 600 111 222' };

  it('sends the contact form as a lead the agent reads at GET /users/leads, then thanks the visitor (PRG)', async () => {
    const res = await post(`/property/${listing.slug}/contact`, {
      ...sender,
      message: 'Is it still available?',
      user_type: 'buyer',
      website: '',
    });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/property/${listing.slug}?sent=contact#contact`);
    expect(res.headers['cache-control']).toBe('no-store');
    const [lead] = await leadsOfAgent();
    expect(lead).toMatchObject({ ...sender, message: 'Is it still available?', user_type: 'buyer', property: { id: listing.id } });
    const thanks = await t.app.inject({ method: 'GET', url: String(res.headers.location).split('#')[0]! });
    await expectValidHtml(thanks.body);
    expect(parsePage(thanks.body).root.querySelector('#contact .form-notice')?.text).toBe(
      'Thank you: your message was sent. The agent will answer you soon.',
    );
  });

  it('thanks in the page’s language', async () => {
    const res = await post(`/es/property/${listing.slug}/contact`, { ...sender, message: 'Hola' });
    expect(res.headers.location).toBe(`/es/property/${listing.slug}?sent=contact#contact`);
    const thanks = await t.app.inject({ method: 'GET', url: `/es/property/${listing.slug}?sent=contact` });
    expect(parsePage(thanks.body).root.querySelector('#contact .form-notice')?.text).toContain('Gracias');
  });

  it('shows the errors beside the fields and keeps what was typed', async () => {
    const before = await leadCount();
    const res = await post(`/property/${listing.slug}/contact`, {
      name: '  ',
      email: 'not an address',
      phone: 'call me',
      message: 'Typed <b>text</b>',
    });
    expect(res.statusCode).toBe(422);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    await expectValidHtml(res.body);
    const { root } = parsePage(res.body);
    expect(root.querySelector('#contact .form-notice--error')?.text).toBe('Please correct the fields marked below.');
    expect(root.querySelector('#contact-name-error')?.text).toBe('is required');
    expect(root.querySelector('#contact-email-error')?.text).toBe('must be a valid email');
    expect(root.querySelector('#contact-phone-error')?.text).toBe('has an invalid format');
    expect(root.querySelector('#contact-email')?.getAttribute('aria-invalid')).toBe('true');
    expect(root.querySelector('#contact-email')?.getAttribute('value')).toBe('not an address');
    expect(root.querySelector('#contact-message')?.text).toBe('Typed <b>text</b>');
    expect(res.body).not.toContain('<b>text</b>');
    // The other forms are as they were.
    expect(root.querySelector('#viewing-email')?.getAttribute('value')).toBe('');
    expect(await leadCount()).toBe(before);
  });

  it('refuses a post from another site (403) and a signed-in visitor’s post without their CSRF token', async () => {
    const fields = { ...sender, message: 'Hello' };
    expect((await post(`/property/${listing.slug}/contact`, fields, { origin: 'https://evil.example' })).statusCode).toBe(403);
    const visitor = await siteVisitor(t, await newUser(db));
    expect((await post(`/property/${listing.slug}/contact`, fields, { cookie: visitor.cookie })).statusCode).toBe(403);
    expect((await post(`/property/${listing.slug}/contact`, { ...fields, csrf: 'forged' }, { cookie: visitor.cookie })).statusCode).toBe(
      403,
    );
    expect(
      (await post(`/property/${listing.slug}/contact`, { ...fields, csrf: visitor.csrf }, { cookie: visitor.cookie })).statusCode,
    ).toBe(303);
  });

  it('answers a filled honeypot as a success and makes no lead', async () => {
    const before = await leadCount();
    const res = await post(`/property/${listing.slug}/contact`, { ...sender, message: 'Buy cheap', website: 'https://spam.example' });
    expect(res.statusCode).toBe(303);
    expect(await leadCount()).toBe(before);
  });

  it('answers 404 for a form about a listing that is not public', async () => {
    const hidden = await fullListing(t, world, { status: 'draft' });
    expect((await post(`/property/${hidden.slug}/contact`, { ...sender, message: 'Hi' })).statusCode).toBe(404);
  });

  it('sends a viewing request with the preferred day and time written into the lead’s message', async () => {
    const date = new Date(Date.now() + 7 * 86_400_000).toISOString().slice(0, 10);
    const res = await post(`/property/${listing.slug}/viewing`, { ...sender, date, time: '10:30', message: 'After work if possible' });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/property/${listing.slug}?sent=viewing#viewing`);
    const [lead] = await leadsOfAgent();
    expect(lead!.message).toMatch(new RegExp(`^Viewing request for .+ \\(${date}\\) at 10:30\\.\\n\\nAfter work if possible$`));
    const fr = await post(`/fr/property/${listing.slug}/viewing`, { ...sender, date });
    expect(fr.statusCode).toBe(303);
    expect((await leadsOfAgent())[0]!.message).toMatch(/^Demande de visite le .+\.$/);
  });

  it('refuses a viewing day in the past or missing, beside the field', async () => {
    const past = await post(`/property/${listing.slug}/viewing`, { ...sender, date: '2001-01-01' });
    expect(past.statusCode).toBe(422);
    await expectValidHtml(past.body);
    const { root } = parsePage(past.body);
    expect(root.querySelector('#viewing-date-error')?.text).toBe('must be today or a later day');
    expect(root.querySelector('#viewing-date')?.getAttribute('value')).toBe('2001-01-01');
    const missing = parsePage((await post(`/property/${listing.slug}/viewing`, { ...sender, date: '' })).body).root;
    expect(missing.querySelector('#viewing-date-error')?.text).toBe('is required');
    const badTime = parsePage(
      (await post(`/property/${listing.slug}/viewing`, { ...sender, date: '2999-01-01', time: '25:00' })).body,
    ).root;
    expect(badTime.querySelector('#viewing-time-error')?.text).toBe('has an invalid format');
  });

  it('offers anonymous visitors to sign in to review, and takes one review per signed-in visitor', async () => {
    const anonymous = parsePage((await t.app.inject({ method: 'GET', url: `/property/${listing.slug}` })).body).root;
    expect(anonymous.querySelector('#reviews form')).toBeNull();
    expect(anonymous.querySelector('#reviews a.button')?.getAttribute('href')).toBe(
      `/sign-in?next=${encodeURIComponent(`/property/${listing.slug}#reviews`)}`,
    );
    const reviewer = await newUser(db, { display_name: 'Rex Reviewer' });
    const visitor = await siteVisitor(t, reviewer);
    const page = parsePage(
      (await t.app.inject({ method: 'GET', url: `/property/${listing.slug}`, headers: { cookie: visitor.cookie } })).body,
    ).root;
    expect(page.querySelector('#reviews form')?.getAttribute('action')).toBe(`/property/${listing.slug}/reviews`);

    const blank = await post(
      `/property/${listing.slug}/reviews`,
      { rating: '', content: ' ', csrf: visitor.csrf },
      { cookie: visitor.cookie },
    );
    expect(blank.statusCode).toBe(422);
    await expectValidHtml(blank.body);
    expect(parsePage(blank.body).root.querySelector('#review-rating-error')?.text).toBe('is required');
    expect(parsePage(blank.body).root.querySelector('#review-content-error')?.text).toBe('is required');

    const fields = { rating: '4', title: 'Lovely', content: 'Great light all day.', csrf: visitor.csrf };
    const res = await post(`/property/${listing.slug}/reviews`, fields, { cookie: visitor.cookie });
    expect(res.statusCode, res.body).toBe(303);
    expect(res.headers.location).toBe(`/property/${listing.slug}?sent=review#reviews`);
    const after = parsePage(
      (await t.app.inject({ method: 'GET', url: `/property/${listing.slug}?sent=review`, headers: { cookie: visitor.cookie } })).body,
    ).root;
    expect(after.querySelector('.review__content')?.text).toBe('Great light all day.');
    expect(after.querySelector('.review')?.text).toContain('Rex Reviewer');
    expect(after.querySelector('#reviews .form-notice')?.text).toBe('Thank you: your review is published.');

    const again = await post(`/property/${listing.slug}/reviews`, { ...fields, content: 'Second thoughts' }, { cookie: visitor.cookie });
    expect(again.statusCode).toBe(422);
    const { root } = parsePage(again.body);
    expect(root.querySelector('#reviews .form-notice--error')?.text).toBe('You have already reviewed this.');
    expect(root.querySelector('#review-content')?.text).toBe('Second thoughts');
  });

  it('sends an anonymous review post to sign in, and refuses one without the CSRF token', async () => {
    const anonymous = await post(`/property/${listing.slug}/reviews`, { rating: '5', content: 'Nice' });
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe(`/sign-in?next=${encodeURIComponent(`/property/${listing.slug}#reviews`)}`);
    const visitor = await siteVisitor(t, await newUser(db));
    expect((await post(`/property/${listing.slug}/reviews`, { rating: '5', content: 'Nice' }, { cookie: visitor.cookie })).statusCode).toBe(
      403,
    );
  });

  it('does not offer the author a review of their own listing', async () => {
    const owner = await siteVisitor(t, world.seller);
    const page = parsePage(
      (await t.app.inject({ method: 'GET', url: `/property/${listing.slug}`, headers: { cookie: owner.cookie } })).body,
    ).root;
    expect(page.querySelector('#reviews form')).toBeNull();
    const res = await post(
      `/property/${listing.slug}/reviews`,
      { rating: '5', content: 'Mine is best', csrf: owner.csrf },
      { cookie: owner.cookie },
    );
    expect(res.statusCode).toBe(422);
    expect(parsePage(res.body).root.querySelector('#reviews .form-notice--error')?.text).toBe(
      'You cannot review your own listing, agent record or agency.',
    );
  });

  it('sends an anonymous favourite to sign in, and sets a signed-in visitor’s favourite, shown on their page', async () => {
    const anonymous = await post(`/favorites/${listing.id}`, { favorite: 'true', next: `/property/${listing.slug}` });
    expect(anonymous.statusCode).toBe(303);
    expect(anonymous.headers.location).toBe(`/sign-in?next=${encodeURIComponent(`/property/${listing.slug}`)}`);

    const buyer = await newUser(db);
    const visitor = await siteVisitor(t, buyer);
    const page = () => t.app.inject({ method: 'GET', url: `/property/${listing.slug}`, headers: { cookie: visitor.cookie } });
    const button = async () => parsePage((await page()).body).root.querySelector('.favorite__button')!;
    expect((await button()).getAttribute('aria-pressed')).toBe('false');
    const set = await post(
      `/es/favorites/${listing.id}`,
      { favorite: 'true', next: `/property/${listing.slug}`, csrf: visitor.csrf },
      { cookie: visitor.cookie },
    );
    expect(set.statusCode).toBe(303);
    expect(set.headers.location).toBe(`/es/property/${listing.slug}`);
    const favorites = await t.app.inject({ method: 'GET', url: `${API}/users/favorite-properties`, headers: await signIn(t.app, buyer) });
    expect(favorites.json().data.properties.map((p: { id: number }) => p.id)).toEqual([listing.id]);
    const pressed = await button();
    expect(pressed.getAttribute('aria-pressed')).toBe('true');
    expect(pressed.text).toContain('Saved: remove from favourites');
    expect(
      parsePage((await page()).body)
        .root.querySelector('.favorite input[name="favorite"]')
        ?.getAttribute('value'),
    ).toBe('false');
    expect(
      (
        await post(
          `/favorites/${listing.id}`,
          { favorite: 'false', next: '//evil.example', csrf: visitor.csrf },
          { cookie: visitor.cookie },
        )
      ).headers.location,
    ).toBe('/account/favorites');
    expect((await button()).getAttribute('aria-pressed')).toBe('false');
    expect((await post(`/favorites/${listing.id}`, { favorite: 'true' }, { cookie: visitor.cookie })).statusCode).toBe(403);
    expect(
      (
        await post(
          `/favorites/${listing.id}`,
          { favorite: 'true', csrf: visitor.csrf },
          { cookie: visitor.cookie, origin: 'https://evil.example' },
        )
      ).statusCode,
    ).toBe(403);
    const hidden = await fullListing(t, world, { status: 'pending' });
    expect((await post(`/favorites/${hidden.id}`, { favorite: 'true', csrf: visitor.csrf }, { cookie: visitor.cookie })).statusCode).toBe(
      404,
    );
  });
});

describe('the listing page’s forms under rate limiting', () => {
  it('answers the 429 page once an address has used its budget of form posts', async () => {
    const t = await buildTestApp('sqlite', { PUBLIC_URL, RATE_LIMIT_ENABLED: 'true', FORMS_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const world = await listingWorld(t);
      const { slug } = await fullListing(t, world);
      const send = () =>
        t.app.inject({
          method: 'POST',
          url: `/property/${slug}/contact`,
          headers: SAME_ORIGIN,
          payload: form({ name: 'Bo', email: 'bo@example.test', message: 'Hi' }),
          remoteAddress: '198.51.100.7',
        });
      expect((await send()).statusCode).toBe(303);
      expect((await send()).statusCode).toBe(303);
      const limited = await send();
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      await expectValidHtml(limited.body);
      expect(parsePage(limited.body).title).toBe('Too many requests | Realty');
      // Another address still gets through, and the page itself is not limited by the forms' budget.
      const other = await t.app.inject({
        method: 'POST',
        url: `/property/${slug}/viewing`,
        headers: SAME_ORIGIN,
        payload: form({ name: 'Bo', email: 'bo@example.test', date: '2999-01-01' }),
        remoteAddress: '198.51.100.7',
      });
      expect(other.statusCode).toBe(303);
      expect((await t.app.inject({ method: 'GET', url: `/property/${slug}`, remoteAddress: '198.51.100.7' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
