import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, ListingState, Role, UserRow } from '../../src/db/schema/index.js';
import type { AuthUser } from '../../src/lib/signed-in-user.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { newListing, newUser, signIn, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

const callerOf = (user: { id: number; role: Role }): AuthUser => ({
  id: user.id,
  role: user.role,
  sessionId: 'test',
  tokenExpiresAt: new Date(Date.now() + 3_600_000),
});

describeEachDialect('listing slugs: PUT /properties/{id} `slug` and findBySlug (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let otherAuth: Auth;
  let adminAuth: Auth;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    [sellerAuth, otherAuth, adminAuth] = await Promise.all([
      signIn(t.app, seller),
      signIn(t.app, await newUser(db, { role: 'seller' })),
      signIn(t.app, await newUser(db, { role: 'administrator' })),
    ]);
  });
  afterAll(() => t.close());

  const put = (auth: Auth, id: number, payload: object) =>
    t.app.inject({ method: 'PUT', url: `${API}/properties/${id}`, headers: auth, payload });
  const listing = (status: ListingState = 'publish') => newListing(db, { author_id: seller.id, slug: unique('home-'), status });

  it('lets the owner and moderators change the slug; the record’s url follows and the former slug leads to it', async () => {
    const id = await listing();
    const slug = unique('sea-view-');
    const res = await put(sellerAuth, id, { slug });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ slug, url: expect.stringMatching(new RegExp(`/property/${slug}$`)) });
    const again = unique('by-admin-');
    expect((await put(adminAuth, id, { slug: again })).json().data.slug).toBe(again);

    expect(await t.services.properties.findBySlug(null, slug)).toEqual({ movedTo: again });
    const found = await t.services.properties.findBySlug(null, again);
    expect('record' in found && found.record.id).toBe(id);
  });

  it('refuses a slug that is not in slug form, naming the slug it would be', async () => {
    const id = await listing();
    for (const [slug, suggestion] of [
      ['Sea View', 'sea-view'],
      ['sea--view', 'sea-view'],
      ['-sea', 'sea'],
      ['villa/../x', 'villa-x'],
    ] as const) {
      const res = await put(sellerAuth, id, { slug });
      expect(res.statusCode, slug).toBe(400);
      expect(res.json().errors).toEqual([expect.objectContaining({ field: 'slug', message: expect.stringContaining(suggestion) })]);
    }
    expect((await put(sellerAuth, id, { slug: '***' })).json().errors[0]).toMatchObject({ field: 'slug' });
    expect((await put(sellerAuth, id, { slug: 'a'.repeat(201) })).statusCode).toBe(400);
    // Any script's letters, as titles make them.
    expect((await put(sellerAuth, id, { slug: 'فيلا-مع-مسبح' })).statusCode).toBe(200);
  });

  it('answers 409 for a slug another listing holds or held, and lets a listing take back its own', async () => {
    const [a, b] = [await listing(), await listing()];
    const bSlug = (await put(sellerAuth, b, { slug: unique('b-') })).json().data.slug as string;
    const taken = await put(sellerAuth, a, { slug: bSlug });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ code: 'conflict', errors: [{ field: 'slug' }] });

    const [first] = await db.selectFrom('listings').select('slug').where('id', '=', a).execute();
    const aNew = unique('a-');
    expect((await put(sellerAuth, a, { slug: aNew })).statusCode).toBe(200);
    // a's former slug stays a's: b may not take it, a new listing skips it, a takes it back.
    expect((await put(sellerAuth, b, { slug: first!.slug })).statusCode).toBe(409);
    expect((await put(sellerAuth, a, { slug: first!.slug })).json().data.slug).toBe(first!.slug);
    expect(await t.services.properties.findBySlug(null, aNew)).toEqual({ movedTo: first!.slug });
    const history = await db.selectFrom('listing_slug_history').select(['slug', 'listing_id']).where('listing_id', '=', a).execute();
    expect(history).toEqual([{ slug: aNew, listing_id: a }]);
  });

  it('gives a new listing titled like a former slug another slug', async () => {
    const title = unique('Quiet loft ');
    const created = await t.app.inject({ method: 'POST', url: `${API}/properties`, headers: adminAuth, payload: { title } });
    const id = created.json().data.id as number;
    const old = created.json().data.slug as string;
    await put(adminAuth, id, { slug: `${old}-moved` });
    const twin = await t.app.inject({ method: 'POST', url: `${API}/properties`, headers: adminAuth, payload: { title } });
    expect(twin.json().data.slug).toBe(`${old}-2`);
  });

  it('keeps a PUT of the same slug a no-op, and refuses the field to anyone but the owner and moderators', async () => {
    const id = await listing();
    const [row] = await db.selectFrom('listings').select(['slug', 'updated_at']).where('id', '=', id).execute();
    expect((await put(sellerAuth, id, { slug: row!.slug })).statusCode).toBe(200);
    const [after] = await db.selectFrom('listings').select(['updated_at']).where('id', '=', id).execute();
    expect(after!.updated_at).toBe(row!.updated_at);
    expect((await put(otherAuth, id, { slug: unique('mine-') })).statusCode).toBe(403);
  });

  it('finds a listing by slug as the caller may see it, never counting a view, and 404s what is hidden', async () => {
    const id = await listing();
    const [row] = await db.selectFrom('listings').select('slug').where('id', '=', id).execute();
    const found = await t.services.properties.findBySlug(null, row!.slug);
    expect('record' in found && found.record.id).toBe(id);
    await t.services.views.flush();
    const [counted] = await db.selectFrom('listings').select('views').where('id', '=', id).execute();
    expect(Number(counted!.views)).toBe(0);

    await expect(t.services.properties.findBySlug(null, unique('nowhere-'))).rejects.toMatchObject({ status: 404 });
    for (const state of ['draft', 'pending', 'on_hold', 'disapproved', 'expired'] as const) {
      const hidden = await listing(state);
      const [{ slug }] = (await db.selectFrom('listings').select('slug').where('id', '=', hidden).execute()) as [{ slug: string }];
      await expect(t.services.properties.findBySlug(null, slug), state).rejects.toMatchObject({ status: 404 });
      const seen = await t.services.properties.findBySlug(callerOf(seller), slug);
      expect('record' in seen && seen.record.status).toBe(state);
      // A former slug of a hidden listing says nothing either.
      await put(sellerAuth, hidden, { slug: `${slug}-x` });
      await expect(t.services.properties.findBySlug(null, slug)).rejects.toMatchObject({ status: 404 });
    }
    const sold = await listing('sold');
    const [{ slug: soldSlug }] = (await db.selectFrom('listings').select('slug').where('id', '=', sold).execute()) as [{ slug: string }];
    const soldFound = await t.services.properties.findBySlug(null, soldSlug);
    expect('record' in soldFound && soldFound.record.status).toBe('sold');
  });

  it('forgets the former slugs of a deleted listing', async () => {
    const id = await listing();
    await put(sellerAuth, id, { slug: unique('gone-') });
    await t.app.inject({ method: 'DELETE', url: `${API}/properties/${id}`, headers: sellerAuth });
    expect(await db.selectFrom('listing_slug_history').select('slug').where('listing_id', '=', id).execute()).toEqual([]);
  });
});
