import type { FastifyInstance } from 'fastify';
import { TAXONOMIES, type Taxonomy, type UserRow } from '../../src/db/schema/index.js';
import { UnsubscribeTokens } from '../../src/modules/notifications/unsubscribe/unsubscribe-tokens.service.js';
import { TEST_JWT_SECRET, type TestApp } from '../helpers/app.js';
import {
  addFavorite,
  bearer,
  DEFAULT_PASSWORD,
  newAgencyWithAgent,
  newAgent,
  newListing,
  newMedia,
  newUser,
  tokenFor,
  unique,
} from '../helpers/factories.js';
import type { FakeGoogle, FakeGraph } from '../helpers/fake-providers.js';

const API = '/realty-api/v1';

export type CallerName = 'anonymous' | 'buyer' | 'admin';

type Auth = Record<string, string>;

/** What kind of record an id names, for picking ids that exist. */
export type IdKind =
  | 'listing'
  | 'term'
  | 'agent'
  | 'agency'
  | 'savedSearch'
  | 'review'
  | 'notification'
  | 'media'
  | 'user'
  | 'package'
  | 'invoice'
  | 'delivery'
  | 'lead';

/**
 * The data one operation's requests run against: three callers, and records of every kind, owned by the
 * buyer, the administrator and others, so that valid-looking ids reach the code behind the 404s.
 */
export interface World {
  callers: Record<CallerName, Record<string, string>>;
  users: { buyer: UserRow; admin: UserRow };
  ids: Record<IdKind, number[]>;
  termsByTaxonomy: Record<Taxonomy, { id: number; slug: string; name: string }[]>;
  /** Values for string fields that only mean something when they name real things. */
  tokens: {
    refresh: string[];
    unsubscribe: string[];
    googleIdTokens: string[];
    facebookAccessTokens: string[];
    deviceTokens: string[];
  };
  usernames: string[];
  emails: string[];
}

export interface Providers {
  google: FakeGoogle;
  graph: FakeGraph;
}

async function call(app: FastifyInstance, method: string, url: string, headers: Record<string, string>, payload?: unknown) {
  const response = await app.inject({
    method: method as 'GET',
    url: `${API}${url}`,
    headers,
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (response.statusCode >= 300) throw new Error(`fuzz world: ${method} ${url} answered ${response.statusCode}: ${response.body}`);
  return response.json() as { data: Record<string, unknown> & { id: number } };
}

/**
 * A new world on `t`'s database: about forty records, made through the factories and the API, one after the
 * other (so that ids come in the same order on every run; and on PostgreSQL the pool keeps few connections).
 */
export async function buildWorld(t: TestApp, providers: Providers): Promise<World> {
  const { app } = t;
  const db = t.database.db;
  const buyer = await newUser(db, { role: 'buyer' });
  const admin = await newUser(db, { role: 'administrator' });
  const buyerAuth = bearer(await tokenFor(app, buyer));
  const adminAuth = bearer(await tokenFor(app, admin));

  // One term of each taxonomy, places linked country → state → city → area.
  const termsByTaxonomy = Object.fromEntries(TAXONOMIES.map((taxonomy) => [taxonomy, []])) as unknown as World['termsByTaxonomy'];
  const placeParent: Partial<Record<Taxonomy, [Taxonomy, string]>> = {
    property_state: ['property_country', 'country_id'],
    property_city: ['property_state', 'state_id'],
    property_area: ['property_city', 'city_id'],
  };
  for (const taxonomy of TAXONOMIES) {
    const link = placeParent[taxonomy];
    const parent = link ? termsByTaxonomy[link[0]][0] : undefined;
    const body = {
      name: unique(`${taxonomy.replace(/^\w+_/, '')} `),
      ...(parent && link ? { [link[1]]: parent.id } : {}),
      ...(taxonomy === 'property_status' || taxonomy === 'property_label' ? { color: '#336699' } : {}),
    };
    const term = (await call(app, 'POST', `/terms/${taxonomy}`, adminAuth, body)).data;
    termsByTaxonomy[taxonomy].push({ id: term.id, slug: String(term.slug), name: String(term.name) });
  }
  const termId = (taxonomy: Taxonomy) => termsByTaxonomy[taxonomy][0]!.id;

  // An agency with an agent, a free agent the agency may attach; media of the administrator (one goes into a
  // gallery), of the buyer and of the agency.
  const agency = await newAgencyWithAgent(db);
  const freeAgent = await newAgent(db);
  const adminGallery = await newMedia(db, admin.id);
  const adminLoose = await newMedia(db, admin.id);
  const buyerMedia = await newMedia(db, buyer.id);
  const agencyMedia = await newMedia(db, agency.agencyUser.id);

  // Listings: the administrator's (published at once, with a gallery, terms, agents), the agency's in several states.
  const published = (
    await call(app, 'POST', '/properties', adminAuth, {
      title: 'Sunny villa by the sea',
      description: '<p>Three bedrooms, a <strong>garden</strong>.</p>',
      price: 450000,
      bedrooms: 3,
      bathrooms: 2,
      size: 180,
      year_built: 1999,
      reference: unique('REF-'),
      type_ids: [termId('property_type')],
      status_ids: [termId('property_status')],
      label_ids: [termId('property_label')],
      feature_ids: [termId('property_feature')],
      country: termId('property_country'),
      state: termId('property_state'),
      city: termId('property_city'),
      area: termId('property_area'),
      latitude: 25.77,
      longitude: -80.19,
      media_ids: [adminGallery.id],
      agent_ids: [agency.agentId],
      agency_id: agency.agencyId,
      floor_plans: [{ title: 'Ground floor', rooms: 3 }],
      additional_features: [{ title: 'Pool', value: 'Heated' }],
    })
  ).data.id;
  const links = [
    { termId: termId('property_type'), taxonomy: 'property_type' as const },
    { termId: termId('property_city'), taxonomy: 'property_city' as const },
  ];
  const agencyListing = async (status: 'publish' | 'pending' | 'draft' | 'sold' | 'on_hold') => {
    const listing = { status, terms: links, author_id: agency.agentUser.id, agency_id: agency.agencyId, price: 200000, bedrooms: 2 };
    const id = await newListing(db, listing);
    await db.insertInto('listing_agents').values({ listing_id: id, agent_id: agency.agentId }).execute();
    return id;
  };
  const agencyPublished = await agencyListing('publish');
  const pending = await agencyListing('pending');
  const draft = await agencyListing('draft');
  const sold = await agencyListing('sold');
  const onHold = await agencyListing('on_hold');
  await addFavorite(db, buyer.id, published);
  await addFavorite(db, admin.id, agencyPublished);

  // Saved searches of both signed-in callers.
  const query = { type: termsByTaxonomy.property_type[0]!.slug, min_price: 1000, bedrooms: 3 };
  const savedSearches = [
    (await call(app, 'POST', '/saved-searches', buyerAuth, { name: 'Villas', query, frequency: 'instant' })).data.id,
    (await call(app, 'POST', '/saved-searches', adminAuth, { query_string: 'keyword=villa&sortby=relevance' })).data.id,
  ];

  // Reviews by the buyer of each kind of target, and one by the administrator; a lead to the administrator.
  const review = async (auth: Auth, path: string) =>
    (await call(app, 'POST', `${path}/reviews`, auth, { rating: 4, title: 'Good', content: 'Well kept and bright.' })).data.id;
  const reviews = [
    await review(buyerAuth, `/properties/${published}`),
    await review(buyerAuth, `/agents/${agency.agentId}`),
    await review(buyerAuth, `/agencies/${agency.agencyId}`),
    await review(adminAuth, `/properties/${agencyPublished}`),
  ];
  const contact = { name: 'Buyer', email: buyer.email, message: 'Is it still available?' };
  const lead = (await call(app, 'POST', `/properties/${published}/contact`, buyerAuth, contact)).data;

  // Notifications to both (the buyer's first), and a dead outbox message for the retry route.
  await call(app, 'POST', '/notifications', adminAuth, { title: 'Hello', message: 'Welcome', user_id: buyer.id });
  await call(app, 'POST', '/notifications', adminAuth, { title: 'Hello', message: 'Admin note', user_id: admin.id, type: 'system' });
  const notifications = await db
    .selectFrom('notifications')
    .select('id')
    .where('user_id', 'in', [buyer.id, admin.id])
    .orderBy('id')
    .execute();
  const now = new Date().toISOString();
  const delivery = await db
    .insertInto('outbox')
    .values({
      channel: 'email',
      idempotency_key: unique('fuzz-'),
      payload: JSON.stringify({ to: buyer.email, subject: 'Hi', text: 'Hi' }),
      status: 'dead',
      attempts: 5,
      available_at: now,
      last_error: 'SMTP refused',
      created_at: now,
      sent_at: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

  // Packages, the buyer's membership (the free package) and an invoice (a bank transfer for the paid one).
  const pkg = async (title: string, price: number, billing_period: string, listings_included: number) => {
    const body = { title: unique(title), price, listings_included, featured_included: 3, billing_period };
    return (await call(app, 'POST', '/payments/packages', adminAuth, body)).data.id;
  };
  const paidPackage = await pkg('Gold ', 49.5, 'month', 20);
  const freePackage = await pkg('Free ', 0, 'one_time', 1);
  await call(app, 'POST', '/payments/checkout', buyerAuth, { item: 'package', id: freePackage });
  const invoice = (await call(app, 'POST', '/payments/checkout', buyerAuth, { item: 'package', id: paidPackage, method: 'bank_transfer' }))
    .data;
  const invoiceIds = await db.selectFrom('invoices').select('id').where('buyer_id', '=', buyer.id).orderBy('id').execute();

  // A device, a second session (its refresh token), signed provider tokens, unsubscribe links.
  await call(app, 'POST', '/notifications/register-device', buyerAuth, { platform: 'android', token: `fcm-${unique('')}` });
  const deviceTokens = await db.selectFrom('devices').select('token').where('user_id', '=', buyer.id).execute();
  const secondSession = (await call(app, 'POST', '/auth/login', {}, { username: buyer.username, password: DEFAULT_PASSWORD })).data;
  const googleIdTokens = [
    await providers.google.signIdToken({ claims: { sub: unique('sub-'), email: `${unique('g')}@gmail.test` } }),
    await providers.google.signIdToken({ claims: { sub: unique('sub-'), email: buyer.email, email_verified: false } }),
  ];
  const facebookAccessTokens = [providers.graph.userToken({ id: unique('fb'), email: `${unique('f')}@fb.test`, name: 'Fb User' })];
  const unsubscribe = new UnsubscribeTokens(TEST_JWT_SECRET);

  return {
    callers: { anonymous: {}, buyer: buyerAuth, admin: adminAuth },
    users: { buyer, admin },
    ids: {
      listing: [published, agencyPublished, pending, draft, sold, onHold],
      term: TAXONOMIES.map(termId),
      agent: [agency.agentId, freeAgent],
      agency: [agency.agencyId],
      savedSearch: savedSearches,
      review: reviews,
      notification: notifications.map((row) => row.id),
      media: [adminGallery.id, adminLoose.id, buyerMedia.id, agencyMedia.id],
      user: [buyer.id, admin.id, agency.agencyUser.id, agency.agentUser.id],
      package: [paidPackage, freePackage],
      invoice: invoiceIds.length > 0 ? invoiceIds.map((row) => row.id) : [Number(invoice.id)],
      delivery: [delivery.id],
      lead: [Number(lead.lead_id)],
    },
    termsByTaxonomy,
    tokens: {
      refresh: [String(secondSession.refresh_token)],
      unsubscribe: [unsubscribe.sign(buyer.id, 'new_lead'), unsubscribe.sign(admin.id, 'system')],
      googleIdTokens,
      facebookAccessTokens,
      deviceTokens: deviceTokens.map((row) => row.token),
    },
    usernames: [buyer.username, admin.username],
    emails: [buyer.email, admin.email],
  };
}
