import type { LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { DB, UserRow } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { bearer, newMedia, newTerm, newUser, tokenFor } from '../helpers/factories.js';

const API = '/realty-api/v1';
type Auth = Record<string, string>;

/** The 400 of a submission without required fields: which fields it names, each with the site rule's message. */
function missingFields(res: LightMyRequestResponse): string[] {
  expect(res.statusCode, res.body).toBe(400);
  const body = res.json();
  expect(body).toMatchObject({ success: false, code: 'validation_failed' });
  for (const error of body.errors as { message: string }[]) expect(error.message).toMatch(/before the listing is submitted/);
  return (body.errors as { field: string }[]).map((e) => e.field).sort();
}

// issue 40 item 4: an administrator may require more fields before a listing is submitted; off by default.
describeEachDialect('fields required for submission (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let seller: UserRow;
  let sellerAuth: Auth;
  let adminAuth: Auth;
  let managerAuth: Auth;
  let house: TermRecord;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    seller = await newUser(db, { role: 'seller' });
    sellerAuth = bearer(await tokenFor(t.app, seller));
    adminAuth = bearer(await tokenFor(t.app, await newUser(db, { role: 'administrator' })));
    managerAuth = bearer(await tokenFor(t.app, await newUser(db, { role: 'manager' })));
    house = await newTerm(t.services.taxonomies, 'property_type');
  });
  afterAll(() => t.close());

  const require = (fields: string[], auth = adminAuth) =>
    t.app.inject({ method: 'PUT', url: `${API}/site-settings`, headers: auth, payload: { submission_fields: fields } });
  beforeEach(async () => {
    expect((await require([])).statusCode).toBe(200);
  });

  const create = (auth: Auth, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'POST', url: `${API}/properties`, headers: auth, payload });
  const update = (id: number, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `${API}/properties/${id}`, headers: sellerAuth, payload });
  const act = (id: number, action: string) =>
    t.app.inject({ method: 'POST', url: `${API}/users/property-actions`, headers: sellerAuth, payload: { property_id: id, action } });
  const stateOf = async (id: number) =>
    (await db.selectFrom('listings').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const listingCount = async () =>
    Number(
      (
        await db
          .selectFrom('listings')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('requires nothing more than the contract by default', async () => {
    const res = await create(sellerAuth, { title: 'Title only' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.status).toBe('pending');
  });

  it('is set by administrators only, from the known field names, and shown with the site settings', async () => {
    expect((await require(['price'], managerAuth)).statusCode).toBe(403);
    expect((await require(['price'], sellerAuth)).statusCode).toBe(403);
    expect((await require(['title'])).statusCode).toBe(400); // the contract requires a title already
    expect((await require(['price', 'price'])).statusCode).toBe(400);
    expect((await require(['price; drop table listings'])).statusCode).toBe(400);
    const set = await require(['price', 'type_ids']);
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.submission_fields).toEqual(['price', 'type_ids']);
    expect((await t.app.inject({ method: 'GET', url: `${API}/site-settings` })).json().data.submission_fields).toEqual([
      'price',
      'type_ids',
    ]);
  });

  it('refuses a submission that lacks a required field, naming each one, and writes nothing', async () => {
    await require(['description', 'price', 'type_ids', 'city', 'latitude', 'media_ids', 'bedrooms']);
    const before = await listingCount();
    expect(missingFields(await create(sellerAuth, { title: 'Bare', latitude: 10 }))).toEqual([
      'bedrooms',
      'city',
      'description',
      'latitude',
      'media_ids',
      'price',
      'type_ids',
    ]);
    // A description of tags alone is no description; a PDF is no photo.
    const pdf = await newMedia(db, seller.id, { mime_type: 'application/pdf' });
    expect(missingFields(await create(sellerAuth, { title: 'Bare', description: '<p> </p>', attachment_ids: [pdf.id] }))).toContain(
      'description',
    );
    expect(await listingCount()).toBe(before);

    const photo = await newMedia(db, seller.id);
    const complete = await create(sellerAuth, {
      title: 'Complete',
      description: 'A house by the sea.',
      price: 250_000,
      type_ids: [house.id],
      city: 'Nerja',
      latitude: 36.75,
      longitude: -3.875,
      media_ids: [photo.id],
      bedrooms: 0,
    });
    expect(complete.statusCode, complete.body).toBe(201);
    expect(complete.json().data.status).toBe('pending');
  });

  it('leaves drafts alone and checks them when they are submitted, by update or by action', async () => {
    await require(['price', 'type_ids']);
    const draft = await create(sellerAuth, { title: 'Draft', draft: true });
    expect(draft.statusCode, draft.body).toBe(201);
    const id = draft.json().data.id as number;
    // Edited as a draft: no check.
    expect((await update(id, { title: 'Draft, edited' })).statusCode).toBe(200);

    expect(missingFields(await update(id, { draft: false, price: 100 }))).toEqual(['type_ids']);
    expect(missingFields(await act(id, 'submit_listing'))).toEqual(['price', 'type_ids']); // the refused update wrote nothing
    expect(await stateOf(id)).toBe('draft');

    expect((await update(id, { price: 100, type_ids: [house.id] })).statusCode).toBe(200);
    const submitted = await act(id, 'submit_listing');
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(await stateOf(id)).toBe('pending');
  });

  it('does not hold moderators to it: they publish what they judge ready', async () => {
    await require(['price', 'type_ids', 'media_ids']);
    const res = await create(adminAuth, { title: 'Admin listing' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data.status).toBe('publish');
  });
});
