import fc from 'fast-check';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DB, ListingState } from '../../src/db/schema/index.js';
import type { Announcement } from '../../src/modules/notifications/delivery/notifier.service.js';
import { SavedSearchAlerts } from '../../src/modules/saved-searches/alerts/saved-search-alerts.service.js';
import { matchesListing } from '../../src/modules/search/matcher/search-matcher.js';
import { loadMatchableListings } from '../../src/modules/search/matcher/search-matcher.repository.js';
import { normalizeSavedSearchQuery } from '../../src/modules/search/query/search-query.js';
import { searchQueryString } from '../../src/modules/search/query/search-canonical.js';
import { resolveTerms } from '../../src/modules/search/query/search-terms.repository.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { links, newListing, newSignedInUser, newTerm, newUser, unique } from '../helpers/factories.js';
import { API, type Auth, createdId, savedSearchClient, type SavedSearchClient } from '../saved-searches/saved-search-fixtures.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describeEachDialect('saved-search alerts (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;
  let client: SavedSearchClient;
  let alerts: SavedSearchAlerts;
  let apartment: TermRecord;
  let villa: TermRecord;
  /** Creation time of the saved searches is the real clock: digests are driven from here. */
  const base = Date.now();
  const at = (ms: number) => new Date(base + ms);

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
    client = savedSearchClient(t.app);
    alerts = new SavedSearchAlerts(db, t.services.notifier, t.services.search);
    apartment = await newTerm(t.services.taxonomies, 'property_type', { name: unique('Apartment ') });
    villa = await newTerm(t.services.taxonomies, 'property_type', { name: unique('Villa ') });
  });
  afterAll(() => t.close());

  /** A city of the test's own, so that no other test's listings or searches meet it. */
  const newCity = (name = unique('City ')) => newTerm(t.services.taxonomies, 'property_city', { name });
  const save = (auth: Auth, query_string: string, frequency: 'instant' | 'daily' | 'weekly', extra: Record<string, unknown> = {}) =>
    createdId(client, auth, { query_string, frequency, ...extra });
  const listingIn = (city: TermRecord, extra: Parameters<typeof newListing>[1] = {}) =>
    newListing(db, {
      title: unique('Listing '),
      price: 250_000,
      ...extra,
      terms: [...links('property_city', city), ...links('property_type', apartment)],
    });

  /** What the domain-event job does: match, then announce, in one transaction. */
  const published = (listingIds: number[], now: Date): Promise<Announcement[]> =>
    db.transaction().execute(async (trx) => {
      const announcements = await alerts.matchPublished(trx, listingIds, now);
      await t.services.notifier.announce(trx, announcements, now);
      return announcements;
    });
  const notificationsOf = (userId: number) =>
    db
      .selectFrom('notifications')
      .select(['type', 'source', 'title', 'message', 'data'])
      .where('user_id', '=', userId)
      .orderBy('id')
      .execute();
  const emailsOf = async (userId: number) =>
    (await db.selectFrom('outbox').select(['payload']).where('channel', '=', 'notification_email').execute())
      .map((row) => JSON.parse(row.payload) as { user_id: number; data: Record<string, unknown> })
      .filter((payload) => payload.user_id === userId);
  const matchesOf = (searchIds: number[]) =>
    db
      .selectFrom('saved_search_matches')
      .select(['saved_search_id', 'listing_id', 'notified_at'])
      .where('saved_search_id', 'in', searchIds)
      .orderBy('saved_search_id')
      .orderBy('listing_id')
      .execute();
  const setStatus = (listingId: number, status: ListingState) =>
    db.updateTable('listings').set({ status }).where('id', '=', listingId).execute();
  const digestsOf = async (userId: number) =>
    (await notificationsOf(userId)).filter((n) => n.source.startsWith('digest:')).map((n) => ({ ...n, data: JSON.parse(n.data) }));

  it('tells an instant search once per matching listing, never again when the listing comes back; notes a daily one; ignores the rest', async () => {
    const { user, auth } = await newSignedInUser(t);
    const city = await newCity();
    const elsewhere = await newCity();
    const instant = await save(auth, `type=${apartment.slug}&city=${city.slug}`, 'instant', { name: 'Flats' });
    const daily = await save(auth, `city=${city.slug}`, 'daily');
    const other = await save(auth, `city=${elsewhere.slug}`, 'instant');
    const villas = await save(auth, `type=${villa.slug}&city=${city.slug}`, 'instant');
    const first = await listingIn(city, { title: 'Sunny flat' });

    const announced = await published([first], at(HOUR));
    expect(announced).toEqual([
      {
        userId: user.id,
        type: 'saved_search_match',
        source: `match:${instant}:${first}`,
        text: {
          title: 'saved_search_match_title',
          message: 'saved_search_match_message',
          params: { search: 'Flats', title: 'Sunny flat' },
        },
        data: { saved_search_id: instant, property_id: first },
      },
    ]);
    expect(await matchesOf([instant, daily, other, villas])).toEqual([
      { saved_search_id: instant, listing_id: first, notified_at: at(HOUR).toISOString() },
      { saved_search_id: daily, listing_id: first, notified_at: null },
    ]);
    const notifications = await notificationsOf(user.id);
    expect(notifications).toEqual([
      {
        type: 'saved_search_match',
        source: `match:${instant}:${first}`,
        title: 'New match for “Flats”',
        message: 'Sunny flat matches your saved search.',
        data: JSON.stringify({ saved_search_id: instant, property_id: first }),
      },
    ]);
    expect(await emailsOf(user.id)).toHaveLength(1);
    const record = (await client.list(auth)).json().data.saved_searches.find((s: { id: number }) => s.id === instant);
    expect(record.last_notified_at).toBe(`${at(HOUR).toISOString().slice(0, 19)}Z`);

    // Out of publish and back: noted already, so nothing more, whatever the frequency.
    await setStatus(first, 'on_hold');
    await setStatus(first, 'publish');
    expect(await published([first], at(2 * HOUR))).toEqual([]);
    expect(await published([first, first], at(3 * HOUR))).toEqual([]);
    expect(await notificationsOf(user.id)).toHaveLength(1);

    const second = await listingIn(city);
    expect((await published([second], at(4 * HOUR))).map((a) => a.source)).toEqual([`match:${instant}:${second}`]);
    expect(await notificationsOf(user.id)).toHaveLength(2);
  });

  it('with e-mail alerts off: the in-app notification, no e-mail', async () => {
    const { user, auth } = await newSignedInUser(t);
    const city = await newCity();
    const quiet = await save(auth, `city=${city.slug}`, 'instant', { email_alerts: false });
    const listing = await listingIn(city);
    const [announcement] = await published([listing], at(HOUR));
    expect(announcement).toMatchObject({ source: `match:${quiet}:${listing}`, skip: ['email'] });
    expect(await notificationsOf(user.id)).toHaveLength(1);
    expect(await emailsOf(user.id)).toEqual([]);
  });

  it('a daily digest lists the new matches once a day; a weekly one waits seven days', async () => {
    const { user, auth } = await newSignedInUser(t);
    const city = await newCity();
    const daily = await save(auth, `city=${city.slug}`, 'daily', { name: 'Daily' });
    const weekly = await save(auth, `city=${city.slug}&max_price=300000`, 'weekly', { name: 'Weekly' });
    const [a, b] = [await listingIn(city), await listingIn(city, { price: 200_000 })];
    expect(await published([a, b], at(HOUR))).toEqual([]);
    const hidden = await listingIn(city);
    await published([hidden], at(HOUR));
    await setStatus(hidden, 'on_hold'); // not listed while it cannot be seen

    await alerts.sendDigests(at(2 * HOUR)); // not a day since the search was saved
    expect(await digestsOf(user.id)).toEqual([]);

    expect(await alerts.sendDigests(at(DAY + HOUR))).toBeGreaterThanOrEqual(1);
    const [first] = await digestsOf(user.id);
    expect(first).toEqual({
      type: 'saved_search_match',
      source: `digest:${daily}:${b}`,
      title: 'New matches for “Daily”',
      message: '2 new listings match your saved search.',
      data: { saved_search_id: daily, property_ids: [b, a], count: 2 },
    });
    expect((await emailsOf(user.id)).map((e) => e.data)).toEqual([first!.data]);

    const c = await listingIn(city, { price: 150_000 });
    await published([c], at(DAY + 2 * HOUR));
    await alerts.sendDigests(at(DAY + 3 * HOUR)); // same period: nothing more
    await alerts.sendDigests(at(DAY + 3 * HOUR));
    expect(await digestsOf(user.id)).toHaveLength(1);

    await alerts.sendDigests(at(2 * DAY + 2 * HOUR));
    const daily2 = (await digestsOf(user.id))[1];
    expect(daily2).toMatchObject({ source: `digest:${daily}:${c}`, data: { saved_search_id: daily, property_ids: [c], count: 1 } });

    await alerts.sendDigests(at(7 * DAY - HOUR));
    expect((await digestsOf(user.id)).filter((d) => d.data.saved_search_id === weekly)).toEqual([]);
    await alerts.sendDigests(at(7 * DAY + 2 * HOUR));
    const weeklyDigests = (await digestsOf(user.id)).filter((d) => d.data.saved_search_id === weekly);
    expect(weeklyDigests.map((d) => d.data)).toEqual([{ saved_search_id: weekly, property_ids: [c, b, a], count: 3 }]);
    expect((await matchesOf([daily, weekly])).filter((m) => m.notified_at === null).map((m) => m.listing_id)).toEqual([hidden, hidden]);

    // The hidden listing comes back: it is announced then, once.
    await setStatus(hidden, 'publish');
    await published([hidden], at(9 * DAY));
    await alerts.sendDigests(at(15 * DAY));
    const last = (await digestsOf(user.id)).slice(3);
    expect(last.map((d) => d.data)).toEqual([
      { saved_search_id: daily, property_ids: [hidden], count: 1 },
      { saved_search_id: weekly, property_ids: [hidden], count: 1 },
    ]);
    await alerts.sendDigests(at(30 * DAY));
    expect(await digestsOf(user.id)).toHaveLength(5);
  });

  it('two processes sending the same digests send each once', async () => {
    const { user, auth } = await newSignedInUser(t);
    const city = await newCity();
    const searches = await Promise.all([1, 2, 3].map(() => save(auth, `city=${city.slug}`, 'daily')));
    await published([await listingIn(city), await listingIn(city)], at(HOUR));
    const peer = new SavedSearchAlerts(db, t.services.notifier, t.services.search, { digestBatchSize: 1 });
    await Promise.all([alerts.sendDigests(at(DAY + HOUR)), peer.sendDigests(at(DAY + HOUR)), peer.sendDigests(at(DAY + HOUR))]);
    const digests = await digestsOf(user.id);
    expect(digests.map((d) => d.data.saved_search_id).sort()).toEqual([...searches].sort());
    expect(digests.every((d) => d.data.count === 2)).toBe(true);
  });

  it('a deleted saved search, or user, leaves nothing behind and is never matched again', async () => {
    const { user, auth } = await newSignedInUser(t);
    const city = await newCity();
    const gone = await save(auth, `city=${city.slug}`, 'instant');
    const kept = await save(auth, `city=${city.slug}`, 'daily');
    await alerts.warm();
    await published([await listingIn(city)], at(HOUR));
    expect(await matchesOf([gone, kept])).toHaveLength(2);

    expect((await client.remove(auth, gone)).statusCode).toBe(200);
    expect(await matchesOf([gone])).toEqual([]);
    expect(await published([await listingIn(city)], at(2 * HOUR))).toEqual([]);
    expect(await matchesOf([gone])).toEqual([]);

    const emails = (await emailsOf(user.id)).length; // queued before: the outbox worker sends or drops them
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    expect(await db.selectFrom('saved_searches').select('id').where('user_id', '=', user.id).execute()).toEqual([]);
    expect(await matchesOf([gone, kept])).toEqual([]);
    expect(await published([await listingIn(city)], at(3 * HOUR))).toEqual([]);
    await alerts.sendDigests(at(2 * DAY));
    expect(await matchesOf([gone, kept])).toEqual([]);
    expect(await notificationsOf(user.id)).toEqual([]);
    expect(await emailsOf(user.id)).toHaveLength(emails);
  });

  it('follows searches saved and terms created or renamed after the index was built', async () => {
    const { auth } = await newSignedInUser(t);
    await alerts.warm();
    const future = unique('future-city-');
    const early = await save(auth, `city=${future}`, 'instant');
    const city = await newCity();
    expect(await published([await listingIn(city)], at(HOUR))).toEqual([]);

    const created = await newCity(future); // slug of the name, as the saved search spelt it
    expect(created.slug).toBe(future);
    const inFuture = await listingIn(created);
    expect((await published([inFuture], at(2 * HOUR))).map((a) => a.source)).toEqual([`match:${early}:${inFuture}`]);

    const renamed = `${future}-renamed`;
    await t.services.taxonomies.updateTerm('property_city', created.id, { slug: renamed });
    const late = await save(auth, `city=${renamed}`, 'instant');
    const another = await listingIn(created);
    expect((await published([another], at(3 * HOUR))).map((a) => a.source)).toEqual([`match:${late}:${another}`]);

    // A second process (its own index) agrees.
    const peer = new SavedSearchAlerts(db, t.services.notifier, t.services.search);
    const third = await listingIn(created);
    expect(await db.transaction().execute((trx) => peer.matchPublished(trx, [third], at(4 * HOUR)))).toMatchObject([
      { source: `match:${late}:${third}` },
    ]);
  });

  it('matches exactly the listings GET /properties/search answers for the same query', async () => {
    const { auth } = await newSignedInUser(t);
    const [city, other] = [await newCity(), await newCity()];
    const miami = { latitude: 25.7617, longitude: -80.1918 };
    const specs: {
      state?: ListingState;
      city: TermRecord;
      price: number | null;
      title: string;
      point?: { latitude: number; longitude: number };
      beds?: number;
    }[] = [
      { city, price: 150_000, title: 'Sunny loft', point: miami, beds: 1 },
      { city, price: 300_000, title: 'Quiet house', point: { latitude: 25.9, longitude: -80.2 }, beds: 3 },
      { city: other, price: 450_000, title: 'Sunny villa', point: { latitude: 40.7, longitude: -74 }, beds: 4 },
      { city: other, price: null, title: 'Plot', beds: 2 },
      { city, price: 200_000, title: 'Sunny draft', point: miami, state: 'draft' },
      { city, price: 250_000, title: 'Sold loft', point: miami, state: 'sold', beds: 2 },
    ];
    const listingIds: number[] = [];
    for (const spec of specs) {
      listingIds.push(
        await newListing(db, {
          status: spec.state ?? 'publish',
          title: spec.title,
          price: spec.price,
          bedrooms: spec.beds ?? null,
          ...(spec.point ?? {}),
          terms: [...links('property_city', spec.city), ...links('property_type', spec.price === null ? villa : apartment)],
        }),
      );
    }
    const queries = [
      'min_price=200000&max_price=450000',
      `city=${city.slug}&type=${apartment.slug}`,
      'keyword=sunny',
      'latitude=25.77&longitude=-80.19&radius=20',
      `city=${city.slug},${other.slug}&min_beds=2&include_sold=true`,
      `keyword=loft&max_price=200000&city=${city.slug}`,
      `type=${villa.slug}`,
    ];
    const searchIds = await Promise.all(queries.map((query) => save(auth, query, 'daily')));
    await published(listingIds, at(HOUR));
    const matched = await matchesOf(searchIds);
    for (const [i, query] of queries.entries()) {
      const res = await t.app.inject({ method: 'GET', url: `${API}/properties/search?${query}&per_page=100` });
      expect(res.statusCode, res.body).toBe(200);
      const found = (res.json().data.properties as { id: number }[]).map((p) => p.id).filter((id) => listingIds.includes(id));
      const expected = matched.filter((m) => m.saved_search_id === searchIds[i]).map((m) => m.listing_id);
      expect(
        expected.sort((x, y) => x - y),
        query,
      ).toEqual(found.sort((x, y) => x - y));
    }
    expect(matched.length).toBeGreaterThan(queries.length); // the searches are not all empty
  });

  it('finds exactly what matchesListing finds over every saved search (the prefilter rejects nothing it accepts)', async () => {
    const cities = [await newCity(), await newCity(), await newCity()];
    const features = [await newTerm(t.services.taxonomies, 'property_feature'), await newTerm(t.services.taxonomies, 'property_feature')];
    const centres = [
      [25.77, -80.19],
      [-18.14, 178.44],
      [89.6, 10],
    ] as const;
    const pick = <T>(values: readonly T[]) => fc.constantFrom(...values);
    // Each parameter in about a third of the searches, so that most searches match something.
    const sometimes = <T>(arb: fc.Arbitrary<T>) =>
      fc.oneof({ arbitrary: fc.constant(undefined), weight: 2 }, { arbitrary: arb, weight: 1 });
    const queryArb = fc
      .record({
        city: sometimes(
          fc.subarray(
            cities.map((c) => c.slug),
            { minLength: 1 },
          ),
        ),
        type: sometimes(pick([apartment.slug, villa.slug, `${apartment.slug},${villa.slug}`, 'no-such-type'])),
        feature: sometimes(
          fc.subarray(
            features.map((f) => f.slug),
            { minLength: 1 },
          ),
        ),
        min_price: sometimes(pick([0, 100_000, 250_000])),
        max_price: sometimes(pick([250_000, 400_000])),
        min_beds: sometimes(pick([1, 3])),
        currency: sometimes(pick(['USD', 'EUR'])),
        keyword: sometimes(pick(['sunny', 'loft garden'])),
        geo: sometimes(
          fc.oneof(
            fc
              .record({ centre: pick(centres), radius: pick([5, 50, 20_000]) })
              .map(({ centre, radius }) => `latitude=${centre[0]}&longitude=${centre[1]}&radius=${radius}`),
            fc.constant('ne_lat=-17&ne_lng=-179.5&sw_lat=-19&sw_lng=178'),
            fc.constant('polygon=25.2 -80.6,26.3 -80.5,25.8 -80.1,26.2 -79.7,25.3 -79.8'),
          ),
        ),
        include_sold: fc.boolean(),
      })
      .map(({ geo, include_sold, ...params }) => {
        const parts = Object.entries(params)
          .filter(([, v]) => v !== undefined)
          .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(',') : v}`);
        if (params.min_price !== undefined && params.max_price !== undefined && params.min_price > params.max_price)
          parts.splice(
            parts.findIndex((p) => p.startsWith('min_price')),
            1,
          );
        return [...parts, ...(geo ? [geo] : []), ...(include_sold ? ['include_sold=true'] : [])].join('&');
      });
    const queries = fc.sample(queryArb, { numRuns: 150, seed: 7 });
    const searchIds: number[] = [];
    // Stored directly (the API allows 50 per user), canonical as the API stores them.
    const owner = await newUser(db);
    for (const query of queries) {
      const row = await db
        .insertInto('saved_searches')
        .values({
          user_id: owner.id,
          name: query.slice(0, 50),
          query_string: searchQueryString(normalizeSavedSearchQuery(query)),
          frequency: 'weekly',
          created_at: at(0).toISOString(),
          updated_at: at(0).toISOString(),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      searchIds.push(row.id);
    }

    const listingArb = fc.record({
      city: pick(cities),
      type: pick([apartment, villa]),
      features: fc.subarray(features),
      price: fc.option(pick([0, 100_000, 250_000, 400_000, 900_000]), { nil: null }),
      beds: fc.option(pick([0, 1, 3, 5]), { nil: null }),
      currency: pick(['USD', 'EUR']),
      title: pick(['Sunny loft', 'Garden flat', 'Plain']),
      point: fc.option(fc.tuple(pick(centres), fc.double({ min: -0.5, max: 0.5, noNaN: true })), { nil: null }),
      status: pick<ListingState>(['publish', 'publish', 'publish', 'sold', 'draft']),
    });
    const listingIds: number[] = [];
    for (const spec of fc.sample(listingArb, { numRuns: 60, seed: 11 })) {
      listingIds.push(
        await newListing(db, {
          status: spec.status,
          title: spec.title,
          price: spec.price,
          bedrooms: spec.beds,
          currency: spec.currency,
          ...(spec.point ? { latitude: Math.min(90, spec.point[0][0] + spec.point[1]), longitude: spec.point[0][1] + spec.point[1] } : {}),
          terms: [
            ...links('property_city', spec.city),
            ...links('property_type', spec.type),
            ...links('property_feature', ...spec.features),
          ],
        }),
      );
    }
    await published(listingIds, at(HOUR));
    const found = (await matchesOf(searchIds)).map((m) => `${m.saved_search_id}:${m.listing_id}`).sort();

    const listings = await loadMatchableListings(db, listingIds);
    const expected: string[] = [];
    for (const [i, query] of queries.entries()) {
      const resolved = await resolveTerms(db, normalizeSavedSearchQuery(query));
      for (const listing of listings) if (matchesListing(listing, resolved)) expected.push(`${searchIds[i]}:${listing.id}`);
    }
    expect(found).toEqual(expected.sort());
    expect(expected.length).toBeGreaterThan(100);
  });
});
