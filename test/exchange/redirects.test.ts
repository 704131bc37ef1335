import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWxrSite } from '../../src/adapters/feeds/wxr/wxr-reader.js';
import type { UserRow } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/lib/signed-in-user.js';
import { FEED_FORMATS, type FeedFormat } from '../../src/modules/exchange/index.js';
import { redirectPathOf } from '../../src/modules/exchange/redirects/redirect-paths.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { type Auth, newUser, signIn } from '../helpers/factories.js';

/** Old addresses of imported records (docs/data-exchange.md, "Old addresses"): 301 to the record's current `url`. */

const WXR = fs.readFileSync(path.join(import.meta.dirname, '../adapters/feeds/wxr/fixtures/houzez-site.xml'), 'utf8');
const SITE = 'https://realty.example';

describe('redirectPathOf', () => {
  it('drops scheme, host, query, fragment, empty segments and the trailing slash, and decodes each segment', () => {
    expect(redirectPathOf('https://old.example/property/bright-villa/?p=1#top')).toBe('/property/bright-villa');
    expect(redirectPathOf('//old.example//property///bright%2Dvilla/')).toBe('/property/bright-villa');
    expect(redirectPathOf('/propiedad/%C3%A1tico')).toBe('/propiedad/ático');
    expect(redirectPathOf('propiedad/a\u0301tico')).toBe('/propiedad/ático');
  });

  it('makes no path of the root, dot segments, control characters, bad encodings or a path past 500 characters', () => {
    for (const address of ['https://old.example/?p=12', '/', '', '/a/../b', '/a/./b', '/a%00b', '/a%ZZ', `/${'a'.repeat(500)}`]) {
      expect(redirectPathOf(address), address).toBeUndefined();
    }
    expect(redirectPathOf(`/${'a'.repeat(499)}`)).toHaveLength(500);
  });
});

describeEachDialect('redirects of old addresses (%s)', (dialect) => {
  let t: TestApp;
  let admin: UserRow;
  let adminAuth: Auth;
  let caller: AuthUser;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { PUBLIC_URL: SITE });
    admin = await newUser(t.database.db, { role: 'administrator' });
    adminAuth = await signIn(t.app, admin);
    caller = { id: admin.id, role: 'administrator', sessionId: 'test', tokenExpiresAt: new Date(Date.now() + 3_600_000) };
  });
  afterAll(() => t.close());

  const importText = (format: FeedFormat, text: string, options: { source?: string; dryRun?: boolean } = {}) =>
    t.services.feedImporter.run(FEED_FORMATS[format].read(Readable.from([Buffer.from(text)])), {
      source: options.source ?? `feed-${randomUUID()}`,
      actorId: admin.id,
      format,
      ...(options.dryRun ? { dryRun: true } : {}),
    });
  const get = (url: string, method: 'GET' | 'HEAD' = 'GET') => t.app.inject({ method, url });
  const listingBySlugPrefix = (prefix: string) =>
    t.database.db.selectFrom('listings').select(['id', 'slug']).where('slug', 'like', `${prefix}%`).executeTakeFirstOrThrow();
  const redirectsList = async (auth: Auth = adminAuth) => {
    const response = await t.app.inject({ method: 'GET', url: '/realty-api/v1/redirects?per_page=100', headers: auth });
    return { response, list: response.json().data?.redirects as { id: number; path: string; type: string; url: string }[] };
  };

  it('answers a CSV listing’s old permalink 301 to its current url, the query string kept, for GET and HEAD', async () => {
    const summary = await importText(
      'csv',
      'key,title,status,url\nR1,Bright villa one,publish,https://old.example/homes/Bright-Villa/?p=7',
    );
    expect(summary).toMatchObject({ created: 1, rejected: 0 });
    const { slug } = await listingBySlugPrefix('bright-villa-one');
    for (const url of ['/homes/Bright-Villa?utm_source=mail&x=1', '/homes/Bright%2DVilla/?utm_source=mail&x=1']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(301);
      expect(response.headers.location).toBe(`${SITE}/property/${slug}?utm_source=mail&x=1`);
      expect(response.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    }
    expect((await get('/homes/Bright-Villa', 'HEAD')).statusCode).toBe(301);
    // Paths are kept as spelled: another case is another path.
    expect((await get('/homes/bright-villa')).statusCode).toBe(404);
    // POST is never redirected.
    expect((await t.app.inject({ method: 'POST', url: '/homes/Bright-Villa' })).statusCode).toBe(404);
  });

  it('follows a changed slug; a removed redirect, a deleted or unpublished listing answer 404', async () => {
    await importText(
      'csv',
      'key,title,status,url\nR2,Slug change house,publish,/old/slug-change\nR3,Removed house,publish,/old/removed\n' +
        'R4,Deleted house,publish,/old/deleted\nR5,Draft house,draft,/old/draft',
    );
    const changed = await listingBySlugPrefix('slug-change-house');
    await t.services.properties.update(caller, changed.id, { slug: 'renamed-house' });
    expect((await get('/old/slug-change')).headers.location).toBe(`${SITE}/property/renamed-house`);

    const { list } = await redirectsList();
    const removed = list.find((redirect) => redirect.path === '/old/removed')!;
    expect(removed).toMatchObject({ type: 'listing', url: expect.stringMatching(/^https:\/\/realty\.example\/property\/removed-house/) });
    expect((await get('/old/removed')).statusCode).toBe(301);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/realty-api/v1/redirects/${removed.id}`, headers: adminAuth });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().data).toEqual({ id: removed.id, deleted: true });
    expect((await get('/old/removed')).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'DELETE', url: `/realty-api/v1/redirects/${removed.id}`, headers: adminAuth })).statusCode).toBe(
      404,
    );

    const gone = await listingBySlugPrefix('deleted-house');
    expect((await get('/old/deleted')).statusCode).toBe(301);
    await t.services.properties.delete(caller, gone.id);
    expect((await get('/old/deleted')).statusCode).toBe(404);
    expect((await redirectsList()).list.map((redirect) => redirect.path)).not.toContain('/old/deleted');

    // A listing the public may not see: its page is a 404, and so is its old address (its slug is not given away).
    const draft = await get('/old/draft');
    expect(draft.statusCode).toBe(404);
    expect(draft.headers.location).toBeUndefined();
  });

  it('never keeps nor answers a path of the API or the console, and never shadows a page that exists', async () => {
    await importText(
      'csv',
      'key,title,status,url\nR6,Api shadow,publish,https://old.example/realty-api/v1/properties\n' +
        'R7,Console shadow,publish,/console/settings\nR8,Docs shadow,publish,/DOCS/json\nR9,Home shadow,publish,https://old.example/',
    );
    const paths = (await redirectsList()).list.map((redirect) => redirect.path);
    for (const kept of ['/realty-api/v1/properties', '/console/settings', '/DOCS/json', '/']) expect(paths).not.toContain(kept);
    expect((await get('/realty-api/v1/properties')).statusCode).toBe(200);

    // Rows put there by other means are not answered either: the lookup refuses the application's paths too.
    const target = await listingBySlugPrefix('api-shadow');
    const other = await listingBySlugPrefix('console-shadow');
    const now = new Date().toISOString();
    await t.database.db
      .insertInto('redirects')
      .values([
        { path: '/realty-api/v1/nothing-here', listing_id: target.id, created_at: now },
        { path: '/console/nothing-here', listing_id: target.id, created_at: now },
        // A page that exists (the other listing's) is answered by its route, never by a redirect.
        { path: `/property/${other.slug}`, listing_id: target.id, created_at: now },
      ])
      .execute();
    const api = await get('/realty-api/v1/nothing-here');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ success: false, code: 'route_not_found' });
    expect((await get('/console/nothing-here')).headers.location).toBeUndefined();
    const page = await get(`/property/${other.slug}`);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Console shadow');
  });

  it('sends a visitor only to the record’s own url on this site, whatever host the request or the feed names', async () => {
    await importText('csv', 'key,title,status,url\nR10,Open redirect probe,publish,https://evil.example/probe/page');
    const { slug } = await listingBySlugPrefix('open-redirect-probe');
    for (const url of ['/probe/page?next=https://evil.example/', '//evil.example/probe/page', '/probe/page/?%2F%2Fevil.example']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(301);
      expect(new URL(response.headers.location as string).origin).toBe(SITE);
      expect(response.headers.location).toMatch(new RegExp(`^${SITE}/property/${slug}(\\?|$)`));
    }
  });

  it('keeps the <link> of a WordPress site’s properties, agents and agencies; RESO Members and Offices by X_Realty_URL', async () => {
    const summary = await t.services.wordpressSiteImporter.run(
      readWxrSite(Readable.from([Buffer.from(WXR)]), path.join(os.tmpdir(), `realty-wxr-spool-${randomUUID()}.jsonl`)),
      { source: 'costa-homes', actorId: admin.id },
    );
    expect(summary).toMatchObject({ created: 2, rejected: 0 });
    const { list } = await redirectsList();
    const byPath = new Map(list.map((redirect) => [redirect.path, redirect]));
    expect(byPath.get('/agency/costa-homes-marbella')).toMatchObject({ type: 'agency' });
    expect(byPath.get('/agent/lucia-fernandez')).toMatchObject({ type: 'agent' });
    const villa = byPath.get('/property/villa-nueva-andalucia')!;
    expect(villa).toMatchObject({ type: 'listing' });
    // The site's own listing route would answer that path 404 (no listing has that slug here): the redirect answers.
    const response = await get('/property/villa-nueva-andalucia/');
    expect([301, 308]).toContain(response.statusCode);
    const followed = response.headers.location!.startsWith(SITE) ? response : await get(response.headers.location as string);
    expect(followed.statusCode).toBe(301);
    expect(followed.headers.location).toBe(villa.url);

    const reso = {
      Office: [
        { OfficeKey: 'O1', OfficeName: 'Old Office', OfficeEmail: 'old-office@reso.example', X_Realty_URL: '/our-offices/old-office/' },
      ],
      Member: [{ MemberKey: 'M1', MemberFullName: 'Old Member', MemberEmail: 'old-member@reso.example', X_Realty_URL: '/team/old-member' }],
      Property: [],
    };
    await importText('reso', JSON.stringify(reso));
    const agency = await t.database.db
      .selectFrom('agencies')
      .select('slug')
      .where('email', '=', 'old-office@reso.example')
      .executeTakeFirstOrThrow();
    const agent = await t.database.db
      .selectFrom('agents')
      .select('slug')
      .where('email', '=', 'old-member@reso.example')
      .executeTakeFirstOrThrow();
    expect((await get('/our-offices/old-office')).headers.location).toBe(`${SITE}/agency/${agency.slug}`);
    expect((await get('/team/old-member?ref=1')).headers.location).toBe(`${SITE}/agent/${agent.slug}?ref=1`);
  });

  it('a dry run keeps none; a removed redirect stays removed when the unchanged feed comes again; a changed one keeps it', async () => {
    const feed = 'key,title,status,url\nD1,Dry run house,publish,/old/dry-run';
    expect(await importText('csv', feed, { source: 'again', dryRun: true })).toMatchObject({ dryRun: true, created: 1 });
    expect((await redirectsList()).list.map((redirect) => redirect.path)).not.toContain('/old/dry-run');
    await importText('csv', feed, { source: 'again' });
    const kept = (await redirectsList()).list.find((redirect) => redirect.path === '/old/dry-run')!;
    await t.app.inject({ method: 'DELETE', url: `/realty-api/v1/redirects/${kept.id}`, headers: adminAuth });
    expect(await importText('csv', feed, { source: 'again' })).toMatchObject({ unchanged: 1 });
    expect((await get('/old/dry-run')).statusCode).toBe(404);
    // The record changed (a new old address): its listing is updated and the new path kept.
    expect(await importText('csv', 'key,title,status,url\nD1,Dry run house,publish,/old/dry-run-2', { source: 'again' })).toMatchObject({
      updated: 1,
    });
    expect((await get('/old/dry-run-2')).statusCode).toBe(301);
  });

  it('lists and removes redirects for administrators only: others 403, not signed in 401', async () => {
    const { list } = await redirectsList();
    const id = list[0]!.id;
    for (const role of ['manager', 'agent', 'owner', 'buyer'] as const) {
      const auth = await signIn(t.app, await newUser(t.database.db, { role }));
      expect((await redirectsList(auth)).response.statusCode, role).toBe(403);
      expect((await t.app.inject({ method: 'DELETE', url: `/realty-api/v1/redirects/${id}`, headers: auth })).statusCode, role).toBe(403);
    }
    expect((await t.app.inject({ method: 'GET', url: '/realty-api/v1/redirects' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: `/realty-api/v1/redirects/${id}` })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/realty-api/v1/redirects/abc', headers: adminAuth })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/realty-api/v1/redirects?per_page=101', headers: adminAuth })).statusCode).toBe(400);
    const page = await t.app.inject({ method: 'GET', url: '/realty-api/v1/redirects?per_page=1&page=2', headers: adminAuth });
    expect(page.json().data.pagination).toMatchObject({ current_page: 2, per_page: 1, has_previous_page: true });
    expect(page.json().data.redirects).toHaveLength(1);
  });
});
