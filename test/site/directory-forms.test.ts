import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { SITE_SESSION_COOKIE } from '../../src/site/session.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { DEFAULT_PASSWORD, newAgency, newAgent, newUser, signIn, unique } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';

const PUBLIC_URL = 'https://realty.example';
const API = '/realty-api/v1';
const FORM = 'application/x-www-form-urlencoded';

/** The website's session cookie of a user, signed in as the sign-in page does. */
async function siteCookie(t: TestApp, user: UserRow): Promise<string> {
  const session = await t.services.auth.browserSignIn({ username: user.username, password: DEFAULT_PASSWORD });
  return `${SITE_SESSION_COOKIE}=${session.secret}`;
}

/** A form post as a browser on the site sends it. */
function post(t: TestApp, url: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': FORM, origin: PUBLIC_URL, ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
}

const CONTACT = {
  name: 'Jane Buyer',
  email: 'jane@example.test',
  phone: '+34 600 000 000',
  message: 'Is the villa still free?',
  user_type: 'buyer',
};

describeEachDialect('the agent and agency pages’ forms (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let agentUser: UserRow;
  let agentSlug: string;
  let agentId: number;
  let agencyUser: UserRow;
  let agencySlug: string;
  let hiddenSlug: string;

  const page = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
  const csrfOf = async (url: string, cookie: string) =>
    parsePage((await page(url, cookie)).body)
      .root.querySelector('#review-form input[name="csrf"]')!
      .getAttribute('value')!;
  const leadsOf = async (user: UserRow) =>
    (await t.app.inject({ method: 'GET', url: `${API}/users/leads`, headers: await signIn(t.app, user) })).json().data.leads as {
      name: string;
      email: string;
      message: string;
      agent_id: number | null;
      agency_id: number | null;
    }[];

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    agencyUser = await newUser(db, { role: 'agency' });
    agencySlug = unique('agency-');
    const agencyId = await newAgency(db, { user_id: agencyUser.id, name: 'Sol Homes', slug: agencySlug });
    agentUser = await newUser(db, { role: 'agent' });
    agentSlug = unique('agent-');
    agentId = await newAgent(db, { user_id: agentUser.id, agency_id: agencyId, name: 'Ana López', slug: agentSlug });
    hiddenSlug = unique('hidden-');
    await newAgent(db, { user_id: (await newUser(db, { role: 'agent' })).id, name: 'Hidden Hugo', slug: hiddenSlug, visible: 0 });
  });
  afterAll(() => t.close());

  describe('the contact form', () => {
    it('sends the lead as POST /agents/{id}/contact does, then says thank you (303, post-redirect-get)', async () => {
      const res = await post(t, `/agent/${agentSlug}/contact`, { ...CONTACT, website: '' });
      expect(res.statusCode, res.body).toBe(303);
      expect(res.headers.location).toBe(`/agent/${agentSlug}?sent=contact#contact`);
      const leads = await leadsOf(agentUser);
      expect(leads[0]).toMatchObject({
        name: 'Jane Buyer',
        email: 'jane@example.test',
        message: 'Is the villa still free?',
        agent_id: agentId,
      });
      const thanks = await page(`/agent/${agentSlug}?sent=contact`);
      await expectValidHtml(thanks.body, 'the thank-you page');
      const parsed = parsePage(thanks.body);
      expect(parsed.root.querySelector('#contact .form-notice')?.text).toBe(
        'Thank you, your message was sent. Ana López will reply to you by email.',
      );
      expect(parsed.robots).toBe('noindex, follow');
      expect(parsed.canonical).toBe(`${PUBLIC_URL}/agent/${agentSlug}`);
    });

    it('sends an agency’s lead to the agency’s user, in the page’s language', async () => {
      const res = await post(t, `/es/agency/${agencySlug}/contact`, { ...CONTACT, message: 'Hola' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe(`/es/agency/${agencySlug}?sent=contact#contact`);
      expect((await leadsOf(agencyUser))[0]).toMatchObject({ message: 'Hola', agency_id: expect.any(Number) });
      const thanks = parsePage((await page(`/es/agency/${agencySlug}?sent=contact`)).body);
      expect(thanks.root.querySelector('#contact .form-notice')?.text).toContain('Gracias, tu mensaje se ha enviado.');
    });

    it('shows errors beside the fields and keeps what was typed (400), sending nothing', async () => {
      const before = (await leadsOf(agentUser)).length;
      const res = await post(t, `/agent/${agentSlug}/contact`, { ...CONTACT, email: 'not an address', message: '' });
      expect(res.statusCode).toBe(400);
      await expectValidHtml(res.body, 'the contact form with its errors');
      const form = parsePage(res.body).root.querySelector('#contact')!;
      expect(form.querySelector('#contact-email')?.getAttribute('value')).toBe('not an address');
      expect(form.querySelector('#contact-email')?.getAttribute('aria-invalid')).toBe('true');
      expect(form.querySelector('#contact-email-error')?.text).toBeTruthy();
      expect(form.querySelector('#contact-message-error')?.text).toBe('Please fill in this field.');
      expect(form.querySelector('#contact-name')?.getAttribute('value')).toBe('Jane Buyer');
      expect(form.querySelector('#contact-phone')?.getAttribute('value')).toBe('+34 600 000 000');
      expect(form.querySelector('.form-notice--error')?.text).toBe('Your message was not sent: please correct the fields marked below.');
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect((await leadsOf(agentUser)).length).toBe(before);

      const french = await post(t, `/fr/agent/${agentSlug}/contact`, { ...CONTACT, email: 'nope' });
      expect(parsePage(french.body).root.querySelector('.form-notice--error')?.text).toContain('Votre message n’a pas été envoyé');
    });

    it('refuses a post from another site (403) and answers a filled honeypot as sent, sending nothing', async () => {
      const before = (await leadsOf(agentUser)).length;
      const foreign = await post(t, `/agent/${agentSlug}/contact`, CONTACT, { origin: 'https://evil.example' });
      expect(foreign.statusCode).toBe(403);
      expect(foreign.headers['content-type']).toBe('text/html; charset=utf-8');
      const bot = await post(t, `/agent/${agentSlug}/contact`, { ...CONTACT, website: 'https://spam.example' });
      expect(bot.statusCode).toBe(303);
      expect(bot.headers.location).toBe(`/agent/${agentSlug}?sent=contact#contact`);
      expect((await leadsOf(agentUser)).length).toBe(before);
    });

    it('takes a signed-in visitor’s post with their CSRF token only (403 without it)', async () => {
      const cookie = await siteCookie(t, await newUser(db));
      const token = parsePage((await page(`/agent/${agentSlug}`, cookie)).body)
        .root.querySelector('#contact input[name="csrf"]')!
        .getAttribute('value')!;
      expect((await post(t, `/agent/${agentSlug}/contact`, CONTACT, { cookie })).statusCode).toBe(403);
      expect((await post(t, `/agent/${agentSlug}/contact`, { ...CONTACT, csrf: 'forged' }, { cookie })).statusCode).toBe(403);
      const res = await post(t, `/agent/${agentSlug}/contact`, { ...CONTACT, csrf: token }, { cookie });
      expect(res.statusCode).toBe(303);
    });

    it('answers 404 for a hidden agent, as the API does', async () => {
      const res = await post(t, `/agent/${hiddenSlug}/contact`, CONTACT);
      expect(res.statusCode).toBe(404);
      expect(parsePage(res.body).title).toBe('Page not found | Realty');
    });
  });

  describe('the review form', () => {
    it('shows a visitor who is not signed in a sign-in link instead of the form, and refuses their post', async () => {
      const parsed = parsePage((await page(`/agent/${agentSlug}`)).body);
      expect(parsed.root.querySelector('#review-form form')).toBeNull();
      expect(parsed.root.querySelector('#review-form a')?.getAttribute('href')).toBe(
        `/sign-in?next=${encodeURIComponent(`/agent/${agentSlug}#review-form`)}`,
      );
      // The return path is the plain one: the sign-in page puts the language back.
      expect(
        parsePage((await page(`/es/agent/${agentSlug}`)).body)
          .root.querySelector('#review-form a')
          ?.getAttribute('href'),
      ).toBe(`/es/sign-in?next=${encodeURIComponent(`/agent/${agentSlug}#review-form`)}`);
      expect((await post(t, `/agent/${agentSlug}/reviews`, { rating: '5', content: 'Hi' })).statusCode).toBe(401);
    });

    it('publishes a signed-in visitor’s review (303) and shows it with the new average', async () => {
      const reviewer = await newUser(db, { display_name: 'Rita Reviewer' });
      const cookie = await siteCookie(t, reviewer);
      const csrf = await csrfOf(`/agent/${agentSlug}`, cookie);
      const res = await post(
        t,
        `/agent/${agentSlug}/reviews`,
        { rating: '4', title: 'Kind', content: 'Very <b>patient</b>.', csrf, website: '' },
        { cookie },
      );
      expect(res.statusCode, res.body).toBe(303);
      expect(res.headers.location).toBe(`/agent/${agentSlug}?sent=review#reviews`);
      const after = await page(`/agent/${agentSlug}?sent=review`, cookie);
      await expectValidHtml(after.body, 'the page after a review');
      const parsed = parsePage(after.body);
      expect(parsed.root.querySelector('#review-form .form-notice')?.text).toBe('Thank you, your review is published.');
      expect(parsed.root.querySelector('.review__content')?.text).toBe('Very patient.');
      expect(parsed.root.querySelector('.review__by')?.text).toContain('Rita Reviewer');
      expect(parsed.root.querySelector('.reviews__summary .rating__value')?.text).toBe('4');
      // Anonymous visitors see it too (the shared page follows the reviews' stamp), with the same rating in its JSON-LD.
      const shared = parsePage((await page(`/agent/${agentSlug}`)).body);
      expect(shared.root.querySelector('.reviews__summary .rating__count')?.text).toBe('(1 review)');
      expect(shared.jsonLd[0]).toMatchObject({ aggregateRating: { ratingValue: 4, reviewCount: 1 } });
      expect((await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/reviews` })).json().data.reviews_count).toBe(1);

      // A second review of the same agent: 409, the message beside the form, what was typed kept.
      const again = await post(t, `/agent/${agentSlug}/reviews`, { rating: '2', content: 'Changed my mind', csrf }, { cookie });
      expect(again.statusCode).toBe(409);
      await expectValidHtml(again.body, 'the review form refused');
      const refused = parsePage(again.body).root.querySelector('#review-form')!;
      expect(refused.querySelector('.form-notice--error')?.text).toBe(
        'You have already reviewed Ana López: each visitor writes one review.',
      );
      expect(refused.querySelector('textarea[name="content"]')?.text).toBe('Changed my mind');
      expect(refused.querySelector('option[value="2"]')?.hasAttribute('selected')).toBe(true);
    });

    it('refuses a review of one’s own record (403) with its message beside the form, in the page’s language', async () => {
      for (const [user, url, message] of [
        [agentUser, `/agent/${agentSlug}`, 'You cannot review your own listing or profile.'],
        [agencyUser, `/agent/${agentSlug}`, 'You cannot review your own listing or profile.'],
        [agencyUser, `/es/agency/${agencySlug}`, 'No puedes opinar sobre tu propio anuncio o perfil.'],
      ] as const) {
        const cookie = await siteCookie(t, user);
        const csrf = await csrfOf(url, cookie);
        const res = await post(t, `${url}/reviews`, { rating: '5', content: 'I am great', csrf }, { cookie });
        expect(res.statusCode, url).toBe(403);
        const form = parsePage(res.body).root.querySelector('#review-form')!;
        expect(form.querySelector('.form-notice--error')?.text).toBe(message);
        expect(form.querySelector('textarea[name="content"]')?.text).toBe('I am great');
      }
    });

    it('shows field errors beside the fields (400), and refuses a missing or forged CSRF token and another site (403)', async () => {
      const cookie = await siteCookie(t, await newUser(db));
      const csrf = await csrfOf(`/agent/${agentSlug}`, cookie);
      const invalid = await post(t, `/agent/${agentSlug}/reviews`, { rating: '9', title: 'Keep me', content: '', csrf }, { cookie });
      expect(invalid.statusCode).toBe(400);
      await expectValidHtml(invalid.body, 'the review form with its errors');
      const form = parsePage(invalid.body).root.querySelector('#review-form')!;
      expect(form.querySelector('#review-content-error')?.text).toBe('Please fill in this field.');
      expect(form.querySelector('#review-rating-error')?.text).toBeTruthy();
      expect(form.querySelector('#review-title')?.getAttribute('value')).toBe('Keep me');
      expect((await post(t, `/agent/${agentSlug}/reviews`, { rating: '5', content: 'x' }, { cookie })).statusCode).toBe(403);
      expect((await post(t, `/agent/${agentSlug}/reviews`, { rating: '5', content: 'x', csrf: 'forged' }, { cookie })).statusCode).toBe(
        403,
      );
      const foreign = await post(
        t,
        `/agent/${agentSlug}/reviews`,
        { rating: '5', content: 'x', csrf },
        { cookie, origin: 'https://evil.example' },
      );
      expect(foreign.statusCode).toBe(403);
      // A filled honeypot is answered as sent, and nothing is published.
      const bot = await post(t, `/agent/${agentSlug}/reviews`, { rating: '1', content: 'spam', csrf, website: 'x' }, { cookie });
      expect(bot.statusCode).toBe(303);
      expect((await t.app.inject({ method: 'GET', url: `${API}/agents/${agentId}/reviews` })).json().data.reviews_count).toBe(1);
    });

    it('answers 404 for a review of a hidden agent, as the API does', async () => {
      const cookie = await siteCookie(t, await newUser(db));
      const csrf = await csrfOf(`/agent/${agentSlug}`, cookie);
      expect((await post(t, `/agent/${hiddenSlug}/reviews`, { rating: '5', content: 'x', csrf }, { cookie })).statusCode).toBe(404);
    });
  });
});

describe('the contact form’s rate limit', () => {
  it('takes FORMS_RATE_LIMIT_PER_MINUTE posts a minute from one address, then answers 429 with Retry-After', async () => {
    const t = await buildTestApp('sqlite', { PUBLIC_URL, RATE_LIMIT_ENABLED: 'true', FORMS_RATE_LIMIT_PER_MINUTE: '2' });
    try {
      const slug = unique('agent-');
      await newAgent(t.database.db, { user_id: (await newUser(t.database.db, { role: 'agent' })).id, slug });
      expect((await post(t, `/agent/${slug}/contact`, CONTACT)).statusCode).toBe(303);
      expect((await post(t, `/agent/${slug}/contact`, CONTACT)).statusCode).toBe(303);
      const limited = await post(t, `/agent/${slug}/contact`, CONTACT);
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['content-type']).toBe('text/html; charset=utf-8');
      await expectValidHtml(limited.body, 'the 429 page');
      // The page itself is not a form post: it still opens.
      expect((await t.app.inject({ method: 'GET', url: `/agent/${slug}` })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
