import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { addFavorite, bearer, newListing, newUser, tokenFor } from '../helpers/factories.js';
import { expectValidHtml, parsePage } from '../helpers/html.js';
import { csrfOf, getPage, noticesOf, postForm, PUBLIC_URL, signInOnSite } from './account-helpers.js';

const PAYLOAD = '"><script>alert(1)</script> <img src=x onerror=alert(2)>';

describeEachDialect('the visitor’s favourites and saved searches (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let user: UserRow;
  let cookie: string;
  let csrf: string;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL });
    db = t.database.db;
    user = await newUser(db);
    cookie = await signInOnSite(t.app, user.username);
    csrf = await csrfOf(t.app, cookie);
  });
  afterAll(() => t.close());

  it('sends anonymous visitors to sign in, and brings them back', async () => {
    for (const [url, next] of [
      ['/account/favorites', '/account/favorites'],
      ['/es/account/saved-searches?page=2', '/account/saved-searches?page=2'],
    ] as const) {
      const res = await getPage(t.app, url);
      expect(res.statusCode, url).toBe(303);
      const location = new URL(res.headers.location as string, PUBLIC_URL);
      expect(location.pathname).toBe(url.startsWith('/es') ? '/es/sign-in' : '/sign-in');
      expect(location.searchParams.get('next')).toBe(next);
    }
    const post = await postForm(t.app, '/account/favorites/1/remove', {});
    expect(post.statusCode).toBe(303);
    expect(post.headers.location).toBe('/sign-in?next=%2Faccount%2Ffavorites');
  });

  it('lists the visitor’s favourites they may still see, escaped, private and noindex, with paging', async () => {
    const other = await newUser(db);
    const mine = [];
    for (let i = 0; i < 13; i++) mine.push(await newListing(db, { title: `Favourite home ${i}` }));
    const escaped = await newListing(db, { title: PAYLOAD });
    const draft = await newListing(db, { title: 'Hidden draft', status: 'draft' });
    const theirs = await newListing(db, { title: 'Someone else’s favourite' });
    for (const id of [...mine, escaped, draft]) await addFavorite(db, user.id, id);
    await addFavorite(db, other.id, theirs);

    const res = await getPage(t.app, '/account/favorites', cookie);
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    await expectValidHtml(res.body, 'the favourites page');
    const page = parsePage(res.body);
    expect(page.robots).toBe('noindex, follow');
    expect(page.canonical).toBeUndefined();
    expect(page.title).toBe('Your favourites | Realty');
    expect(page.root.querySelector('h1')?.text).toBe('Your favourites');
    expect(page.root.querySelectorAll('.card')).toHaveLength(12);
    expect(res.body).not.toContain('Hidden draft');
    expect(res.body).not.toContain('Someone else’s favourite');
    expect(res.body).not.toContain('<script>alert(1)</script>');
    expect(res.body).not.toContain('<img src=x');
    const remove = page.root.querySelector(`form[action="/account/favorites/${escaped}/remove"] button`)!;
    expect(remove.getAttribute('aria-label')).toBe(`Remove “${PAYLOAD}” from your favourites`);
    expect(page.root.querySelector('.pagination a[rel="next"]')?.getAttribute('href')).toBe('/account/favorites?page=2');

    const second = parsePage((await getPage(t.app, '/account/favorites?page=2', cookie)).body);
    expect(second.root.querySelectorAll('.card')).toHaveLength(2);
    const past = await getPage(t.app, '/account/favorites?page=9', cookie);
    expect(past.statusCode).toBe(200);
    expect(parsePage(past.body).root.querySelector('main a[href="/account/favorites"]')).not.toBeNull();
    expect((await getPage(t.app, '/account/favorites?page=abc', cookie)).statusCode).toBe(400);
  });

  it('removes a favourite with the CSRF token, and only with it', async () => {
    const listing = await newListing(db, { title: 'Soon unloved' });
    await addFavorite(db, user.id, listing);
    const url = `/account/favorites/${listing}/remove`;
    expect((await postForm(t.app, url, { page: '2' }, { cookie })).statusCode).toBe(403);
    expect((await postForm(t.app, url, { csrf }, { cookie, headers: { origin: 'https://evil.example' } })).statusCode).toBe(403);
    const favorite = () =>
      db.selectFrom('favorites').select('listing_id').where('user_id', '=', user.id).where('listing_id', '=', listing).executeTakeFirst();
    expect(await favorite()).toBeDefined();
    const res = await postForm(t.app, url, { csrf, page: '2' }, { cookie });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/account/favorites?page=2&removed=1');
    expect(await favorite()).toBeUndefined();
    expect(noticesOf((await getPage(t.app, '/account/favorites?removed=1', cookie)).body)).toEqual(['Removed from your favourites.']);
    // Spanish pages post to and come back to Spanish pages.
    await addFavorite(db, user.id, listing);
    const es = await postForm(t.app, `/es${url}`, { csrf }, { cookie });
    expect(es.headers.location).toBe('/es/account/favorites?removed=1');
  });

  it('lists the saved searches with a link to run each, and changes their alerts or deletes them', async () => {
    const api = bearer(await tokenFor(t.app, user));
    const create = (body: object) => t.app.inject({ method: 'POST', url: '/realty-api/v1/saved-searches', headers: api, payload: body });
    const villas = (await create({ name: 'Villas', query_string: 'keyword=villa&min_price=100000', frequency: 'weekly' })).json().data;
    // Written past the API's cleaning: the page must escape whatever is stored.
    await db
      .updateTable('saved_searches')
      .set({ name: `Villas ${PAYLOAD}` })
      .where('id', '=', villas.id)
      .execute();
    const flats = (await create({ query_string: 'bedrooms=2', email_alerts: false })).json().data;
    const other = await newUser(db);
    const theirs = (
      await t.app.inject({
        method: 'POST',
        url: '/realty-api/v1/saved-searches',
        headers: bearer(await tokenFor(t.app, other)),
        payload: { name: 'Not yours', query_string: 'keyword=loft' },
      })
    ).json().data;

    const res = await getPage(t.app, '/account/saved-searches', cookie);
    expect(res.statusCode).toBe(200);
    await expectValidHtml(res.body, 'the saved searches page');
    const page = parsePage(res.body);
    expect(page.robots).toBe('noindex, follow');
    expect(res.body).not.toContain('Not yours');
    expect(res.body).not.toContain('<script>alert(1)</script>');
    const items = page.root.querySelectorAll('.saved');
    expect(items).toHaveLength(2);
    const villaItem = items.find((item) => item.querySelector('.saved__name')?.text.startsWith('Villas'))!;
    expect(villaItem.querySelector('a.button')?.getAttribute('href')).toBe(`/properties?${villas.query_string}`);
    expect(villaItem.querySelector('.saved__meta')?.text).toContain('Alerts: Weekly');
    expect(villaItem.querySelector('option[selected]')?.getAttribute('value')).toBe('weekly');
    const flatItem = items.find((item) => item !== villaItem)!;
    expect(flatItem.querySelector('.saved__meta')?.text).toContain('Alerts are off');
    expect(flatItem.querySelector('.saved__text')?.text ?? flatItem.querySelector('.saved__name')?.text).toBe(flats.display_text);

    // Alerts: CSRF first, then the value.
    const alerts = `/account/saved-searches/${villas.id}/alerts`;
    expect((await postForm(t.app, alerts, { alerts: 'off' }, { cookie })).statusCode).toBe(403);
    expect((await postForm(t.app, alerts, { alerts: 'hourly', csrf }, { cookie })).statusCode).toBe(400);
    const off = await postForm(t.app, alerts, { alerts: 'off', csrf }, { cookie });
    expect(off.statusCode).toBe(303);
    expect(off.headers.location).toBe(`/account/saved-searches?saved=${villas.id}`);
    const stored = () =>
      db.selectFrom('saved_searches').select(['email_alerts', 'frequency']).where('id', '=', villas.id).executeTakeFirst();
    expect(await stored()).toMatchObject({ email_alerts: 0, frequency: 'weekly' });
    expect(noticesOf((await getPage(t.app, off.headers.location as string, cookie)).body)).toEqual([
      `The alerts of “Villas ${PAYLOAD}” are saved.`,
    ]);
    await postForm(t.app, alerts, { alerts: 'instant', csrf }, { cookie });
    expect(await stored()).toMatchObject({ email_alerts: 1, frequency: 'instant' });

    // Another user's search is not the visitor's to change: 404.
    expect((await postForm(t.app, `/account/saved-searches/${theirs.id}/delete`, { csrf }, { cookie })).statusCode).toBe(404);
    expect((await postForm(t.app, `/account/saved-searches/${theirs.id}/alerts`, { alerts: 'off', csrf }, { cookie })).statusCode).toBe(
      404,
    );

    const remove = `/account/saved-searches/${flats.id}/delete`;
    expect((await postForm(t.app, remove, {}, { cookie })).statusCode).toBe(403);
    const deleted = await postForm(t.app, remove, { csrf }, { cookie });
    expect(deleted.statusCode).toBe(303);
    expect(deleted.headers.location).toBe('/account/saved-searches?deleted=1');
    expect(await db.selectFrom('saved_searches').select('id').where('id', '=', flats.id).executeTakeFirst()).toBeUndefined();
    const after = await getPage(t.app, '/account/saved-searches?deleted=1', cookie);
    expect(noticesOf(after.body)).toEqual(['The saved search was deleted.']);
    expect(parsePage(after.body).root.querySelectorAll('.saved')).toHaveLength(1);
  });

  it('says what to do when a list is empty, in the visitor’s language', async () => {
    const fresh = await newUser(db);
    const session = await signInOnSite(t.app, fresh.username);
    const fr = await getPage(t.app, '/fr/account/saved-searches', session);
    expect(fr.statusCode).toBe(200);
    await expectValidHtml(fr.body, 'the empty French saved searches page');
    expect(parsePage(fr.body).title).toBe('Vos recherches enregistrées | Realty');
    expect(fr.body).toContain('Vous n’avez pas encore de recherche enregistrée.');
    const ar = await getPage(t.app, '/ar/account/favorites', session);
    expect(parsePage(ar.body).root.querySelector('html')?.getAttribute('dir')).toBe('rtl');
    await expectValidHtml(ar.body, 'the empty Arabic favourites page');
  });
});
