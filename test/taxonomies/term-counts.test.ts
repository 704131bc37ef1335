import fc from 'fast-check';
import { type Kysely, sql, type Transaction } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DB, LISTING_STATES, type ListingState, type Taxonomy } from '../../src/db/schema/index.js';
import {
  deleteListing,
  insertListing,
  linkTerms,
  setListingState,
  unlinkTerms,
} from '../../src/modules/properties/properties.repository.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/database.js';
import { links, newListing, newTerm, unique } from '../helpers/factories.js';

const API = '/realty-api/v1';
const now = () => new Date().toISOString();
const NOT_PUBLISHED = LISTING_STATES.filter((s) => s !== 'publish');

/** Deliberate rollback of a transaction in a test. */
class Rollback extends Error {}

describeEachDialect('term counts (%s)', (dialect) => {
  let t: TestApp;
  let db: Kysely<DB>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    db = t.database.db;
  });
  afterAll(() => t.close());

  const feature = (input: Parameters<typeof newTerm>[2] = {}) => newTerm(t.services.taxonomies, 'property_feature', input);
  const featureLinks = (...terms: TermRecord[]) => links('property_feature', ...terms);

  /** The `count` the public API reports for each term, in the order given. */
  const countsOf = async (...terms: TermRecord[]): Promise<number[]> => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/property-features?include=${terms.map((x) => x.id).join(',')}` });
    expect(res.statusCode).toBe(200);
    const listed = new Map((res.json().data.features as TermRecord[]).map((x) => [x.id, x.count]));
    return terms.map((x) => {
      const count = listed.get(x.id);
      if (count === undefined) throw new Error(`term ${x.id} is not listed`);
      return count;
    });
  };
  const listIds = async (query: string): Promise<number[]> => {
    const res = await t.app.inject({ method: 'GET', url: `${API}/property-features?${query}` });
    expect(res.statusCode).toBe(200);
    return (res.json().data.features as TermRecord[]).map((x) => x.id);
  };

  describe('kept by the database whatever statement changes a listing', () => {
    it('counts published listings only: no other state counts, sold included', async () => {
      const term = await feature();
      for (const status of NOT_PUBLISHED) await newListing(db, { status, terms: featureLinks(term) });
      expect(await countsOf(term)).toEqual([0]);
      await newListing(db, { status: 'publish', terms: featureLinks(term) });
      await newListing(db, { status: 'publish', terms: featureLinks(term) });
      expect(await countsOf(term)).toEqual([2]);
    });

    it('follows publish → unpublish → publish, and publish → sold', async () => {
      const [a, b] = [await feature(), await feature()];
      const listing = await insertListing(
        db,
        { slug: unique('l-'), title: 'Flat', status: 'draft', currency: 'EUR', created_at: now(), updated_at: now() },
        featureLinks(a, b),
      );
      expect(await countsOf(a, b)).toEqual([0, 0]);
      await setListingState(db, listing, 'publish', now());
      expect(await countsOf(a, b)).toEqual([1, 1]);
      await setListingState(db, listing, 'publish', now());
      expect(await countsOf(a, b)).toEqual([1, 1]);
      await setListingState(db, listing, 'pending', now());
      expect(await countsOf(a, b)).toEqual([0, 0]);
      await setListingState(db, listing, 'draft', now());
      expect(await countsOf(a, b)).toEqual([0, 0]);
      await setListingState(db, listing, 'publish', now());
      expect(await countsOf(a, b)).toEqual([1, 1]);
      await setListingState(db, listing, 'sold', now());
      expect(await countsOf(a, b)).toEqual([0, 0]);
      await setListingState(db, listing, 'expired', now());
      expect(await countsOf(a, b)).toEqual([0, 0]);
    });

    it('follows links added to and removed from published and unpublished listings', async () => {
      const [a, b] = [await feature(), await feature()];
      const published = await newListing(db, { terms: featureLinks(a, b) });
      const draft = await newListing(db, { status: 'draft', terms: featureLinks(a) });
      expect(await countsOf(a, b)).toEqual([1, 1]);
      await unlinkTerms(db, published, [a.id]);
      expect(await countsOf(a, b)).toEqual([0, 1]);
      await unlinkTerms(db, published, [a.id]);
      expect(await countsOf(a, b)).toEqual([0, 1]);
      await unlinkTerms(db, draft, [a.id]);
      expect(await countsOf(a, b)).toEqual([0, 1]);
      await linkTerms(db, draft, featureLinks(a, b));
      expect(await countsOf(a, b)).toEqual([0, 1]);
      await linkTerms(db, published, featureLinks(a));
      expect(await countsOf(a, b)).toEqual([1, 1]);
      await setListingState(db, draft, 'publish', now());
      expect(await countsOf(a, b)).toEqual([2, 2]);
      await unlinkTerms(db, published, [a.id, b.id]);
      expect(await countsOf(a, b)).toEqual([1, 1]);
    });

    it('drops a deleted listing from the counts of its terms, whatever its state', async () => {
      const [a, b] = [await feature(), await feature()];
      const published = await newListing(db, { terms: featureLinks(a, b) });
      const other = await newListing(db, { terms: featureLinks(a) });
      const draft = await newListing(db, { status: 'draft', terms: featureLinks(a, b) });
      expect(await countsOf(a, b)).toEqual([2, 1]);
      await deleteListing(db, published);
      expect(await countsOf(a, b)).toEqual([1, 0]);
      await deleteListing(db, draft);
      expect(await countsOf(a, b)).toEqual([1, 0]);
      await deleteListing(db, other);
      expect(await countsOf(a, b)).toEqual([0, 0]);
      const rows = await db.selectFrom('listing_terms').select('listing_id').where('term_id', 'in', [a.id, b.id]).execute();
      expect(rows).toHaveLength(0);
    });

    it('does not add a child’s listings to its parent’s count', async () => {
      const parent = await feature();
      const child = await feature({ parent: parent.id });
      const grandchild = await feature({ parent: child.id });
      await newListing(db, { terms: featureLinks(child) });
      await newListing(db, { terms: featureLinks(grandchild) });
      expect(await countsOf(parent, child, grandchild)).toEqual([0, 1, 1]);
      await newListing(db, { terms: featureLinks(parent, child) });
      expect(await countsOf(parent, child, grandchild)).toEqual([1, 2, 1]);
      expect(await listIds(`parent=${parent.id}&hide_empty=true`)).toEqual([child.id]);
    });

    it('counts each taxonomy’s term of a listing in its own listing', async () => {
      const type = await newTerm(t.services.taxonomies, 'property_type');
      const city = await newTerm(t.services.taxonomies, 'property_city');
      const status = await newTerm(t.services.taxonomies, 'property_status');
      const feat = await feature();
      const terms: Array<[Taxonomy, TermRecord, string, string]> = [
        ['property_type', type, '/property-types', 'property_types'],
        ['property_city', city, '/property-cities', 'cities'],
        ['property_status', status, '/property-status', 'property_status'],
        ['property_feature', feat, '/property-features', 'features'],
      ];
      const listing = await newListing(db, { status: 'draft', terms: terms.map(([taxonomy, term]) => ({ taxonomy, termId: term.id })) });
      await setListingState(db, listing, 'publish', now());
      for (const [, term, path, key] of terms) {
        const res = await t.app.inject({ method: 'GET', url: `${API}${path}?include=${term.id}` });
        expect(res.json().data[key][0].count, path).toBe(1);
      }
    });

    it('leaves the counts alone when a transaction rolls back', async () => {
      const term = await feature();
      const listing = await newListing(db, { status: 'draft', terms: featureLinks(term) });
      await expect(
        db.transaction().execute(async (trx) => {
          await setListingState(trx, listing, 'publish', now());
          await newListing(trx, { terms: featureLinks(term) });
          throw new Rollback();
        }),
      ).rejects.toBeInstanceOf(Rollback);
      expect(await countsOf(term)).toEqual([0]);
    });

    it('leaves the counts of other terms alone when a term is deleted through the API', async () => {
      const [kept, gone] = [await feature(), await feature()];
      const listing = await newListing(db, { terms: featureLinks(kept, gone) });
      await t.services.taxonomies.deleteTerm('property_feature', gone.id);
      expect(await countsOf(kept)).toEqual([1]);
      await setListingState(db, listing, 'draft', now());
      expect(await countsOf(kept)).toEqual([0]);
    });
  });

  describe('listings follow the counts at once', () => {
    it('hide_empty shows a term as soon as a listing using it is published, and hides it when it is not', async () => {
      const [x, y] = [await feature(), await feature()];
      const include = `include=${x.id},${y.id}`;
      const empty = await t.app.inject({ method: 'GET', url: `${API}/property-features?${include}&hide_empty=1` });
      expect(empty.json()).toStrictEqual({ success: false, message: 'Record not found', data: { features: [] } });
      const listing = await newListing(db, { status: 'pending', terms: featureLinks(y) });
      expect((await t.app.inject({ method: 'GET', url: `${API}/property-features?${include}&hide_empty=true` })).json().success).toBe(
        false,
      );
      await setListingState(db, listing, 'publish', now());
      expect(await listIds(`${include}&hide_empty=true`)).toEqual([y.id]);
      await setListingState(db, listing, 'sold', now());
      expect((await t.app.inject({ method: 'GET', url: `${API}/property-features?${include}&hide_empty=true` })).json().success).toBe(
        false,
      );
    });

    it('orderby=count reorders as listings are published and deleted', async () => {
      const [x, y] = [await feature(), await feature()];
      const include = `include=${x.id},${y.id}`;
      await newListing(db, { terms: featureLinks(y) });
      expect(await listIds(`${include}&orderby=count&order=desc`)).toEqual([y.id, x.id]);
      const first = await newListing(db, { terms: featureLinks(x) });
      await newListing(db, { terms: featureLinks(x) });
      expect(await listIds(`${include}&orderby=count&order=desc`)).toEqual([x.id, y.id]);
      expect(await listIds(`${include}&orderby=count`)).toEqual([y.id, x.id]);
      await deleteListing(db, first);
      await newListing(db, { terms: featureLinks(y) });
      expect(await listIds(`${include}&orderby=count&order=desc`)).toEqual([y.id, x.id]);
    });
  });

  describe('random sequences of listing operations (property-based)', () => {
    const TERMS = 5;
    const listingRef = fc.nat({ max: 30 });
    const termRef = fc.nat({ max: TERMS - 1 });
    // Publication is what changes counts: make it about half of the states drawn.
    const state = fc.oneof(fc.constant<ListingState>('publish'), fc.constantFrom<ListingState>(...NOT_PUBLISHED));
    type Op =
      | { kind: 'insert'; state: ListingState; terms: number[] }
      | { kind: 'state'; listing: number; state: ListingState }
      | { kind: 'link'; listing: number; term: number }
      | { kind: 'unlink'; listing: number; terms: number[] }
      | { kind: 'delete'; listing: number }
      | { kind: 'rolled_back'; listing: number; state: ListingState };
    const op: fc.Arbitrary<Op> = fc.oneof(
      { arbitrary: fc.record({ kind: fc.constant('insert' as const), state, terms: fc.subarray([0, 1, 2, 3, 4]) }), weight: 3 },
      { arbitrary: fc.record({ kind: fc.constant('state' as const), listing: listingRef, state }), weight: 3 },
      { arbitrary: fc.record({ kind: fc.constant('link' as const), listing: listingRef, term: termRef }), weight: 2 },
      {
        arbitrary: fc.record({ kind: fc.constant('unlink' as const), listing: listingRef, terms: fc.subarray([0, 1, 2, 3, 4]) }),
        weight: 2,
      },
      { arbitrary: fc.record({ kind: fc.constant('delete' as const), listing: listingRef }), weight: 1 },
      { arbitrary: fc.record({ kind: fc.constant('rolled_back' as const), listing: listingRef, state }), weight: 1 },
    );

    interface ModelListing {
      id: number;
      state: ListingState;
      terms: Set<number>;
    }

    /** Applies one operation to the database and to the model; references wrap around the live listings. */
    async function apply(operation: Op, terms: TermRecord[], model: ModelListing[]): Promise<void> {
      const termLink = (index: number) => ({ termId: (terms[index] as TermRecord).id, taxonomy: 'property_feature' as const });
      if (operation.kind === 'insert') {
        const id = await newListing(db, { status: operation.state, terms: operation.terms.map(termLink) });
        model.push({ id, state: operation.state, terms: new Set(operation.terms) });
        return;
      }
      if (model.length === 0) return;
      const index = operation.listing % model.length;
      const listing = model[index] as ModelListing;
      switch (operation.kind) {
        case 'state':
          await setListingState(db, listing.id, operation.state, now());
          listing.state = operation.state;
          return;
        case 'link':
          if (listing.terms.has(operation.term)) return;
          await linkTerms(db, listing.id, [termLink(operation.term)]);
          listing.terms.add(operation.term);
          return;
        case 'unlink':
          await unlinkTerms(
            db,
            listing.id,
            operation.terms.map((i) => (terms[i] as TermRecord).id),
          );
          for (const i of operation.terms) listing.terms.delete(i);
          return;
        case 'delete':
          await deleteListing(db, listing.id);
          model.splice(index, 1);
          return;
        case 'rolled_back':
          await db
            .transaction()
            .execute(async (trx) => {
              await setListingState(trx, listing.id, operation.state, now());
              await unlinkTerms(trx, listing.id, [(terms[0] as TermRecord).id]);
              throw new Rollback();
            })
            .catch((error: unknown) => {
              if (!(error instanceof Rollback)) throw error;
            });
          return;
      }
    }

    it('count always equals the published listings using the term', async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 15 }), async (operations) => {
          const terms: TermRecord[] = [];
          for (let i = 0; i < TERMS; i++) terms.push(await feature());
          const model: ModelListing[] = [];
          for (const operation of operations) await apply(operation, terms, model);
          const expected = terms.map((_, i) => model.filter((l) => l.state === 'publish' && l.terms.has(i)).length);
          expect(await countsOf(...terms)).toEqual(expected);
          const hidden = await t.app.inject({
            method: 'GET',
            url: `${API}/property-features?include=${terms.map((x) => x.id).join(',')}&hide_empty=true&orderby=id`,
          });
          const visible = (hidden.json().data.features as TermRecord[]).map((x) => x.id);
          expect(visible).toEqual(terms.filter((_, i) => (expected[i] ?? 0) > 0).map((x) => x.id));
        }),
        { numRuns: dialect === 'postgres' ? 10 : 25 },
      );
    });
  });

  // SQLite has a single writer (one connection here), so two transactions cannot interleave; on PostgreSQL
  // (READ COMMITTED) they can, and the count must still come out right.
  describe.skipIf(dialect !== 'postgres')('concurrent transactions (PostgreSQL)', () => {
    /** Resolves once some statement in this database waits for a lock (or after ~2 s). */
    async function someoneWaitsForALock(): Promise<void> {
      for (let i = 0; i < 100; i++) {
        const { rows } = await sql<{ n: number }>`
          select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and datname = current_database()`.execute(db);
        if ((rows[0]?.n ?? 0) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }

    /**
     * Runs `first` in a transaction and, while it is still open, `second` on another connection; then
     * commits the first. `second` may finish at once or wait for the first's locks: both are fine.
     */
    async function interleave(first: (trx: Transaction<DB>) => Promise<void>, second: () => Promise<void>): Promise<void> {
      let other: Promise<void> | undefined;
      await db.transaction().execute(async (trx) => {
        await first(trx);
        other = second();
        await Promise.race([other, someoneWaitsForALock()]);
      });
      await other;
    }

    it('a term linked while another transaction publishes the listing is counted', async () => {
      const term = await feature();
      const listing = await newListing(db, { status: 'draft' });
      await interleave(
        (trx) => linkTerms(trx, listing, featureLinks(term)),
        () => setListingState(db, listing, 'publish', now()),
      );
      expect(await countsOf(term)).toEqual([1]);
    });

    it('a listing published while another transaction links a term to it is counted', async () => {
      const term = await feature();
      const listing = await newListing(db, { status: 'draft' });
      await interleave(
        (trx) => setListingState(trx, listing, 'publish', now()),
        () => linkTerms(db, listing, featureLinks(term)),
      );
      expect(await countsOf(term)).toEqual([1]);
    });

    it('a term unlinked while another transaction unpublishes the listing is not subtracted twice', async () => {
      const term = await feature();
      const listing = await newListing(db, { terms: featureLinks(term) });
      await interleave(
        (trx) => unlinkTerms(trx, listing, [term.id]),
        () => setListingState(db, listing, 'draft', now()),
      );
      expect(await countsOf(term)).toEqual([0]);
    });
  });
});
