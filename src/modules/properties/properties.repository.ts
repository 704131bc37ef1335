import type { Kysely, Transaction } from 'kysely';
import type { DB, ListingState, NewListing, Taxonomy } from '../../db/schema.js';

type Executor = Kysely<DB> | Transaction<DB>;

export interface TermLink {
  termId: number;
  taxonomy: Taxonomy;
}

/**
 * Listing storage. Term counts are not maintained here: database triggers keep `terms.count` equal to
 * the published listings using each term, whichever statement changes a link or a state
 * (db/dialect/term-triggers.ts).
 */
export async function insertListing(db: Executor, listing: NewListing, terms: TermLink[] = []): Promise<number> {
  const { id } = await db.insertInto('listings').values(listing).returning('id').executeTakeFirstOrThrow();
  await linkTerms(db, id, terms);
  return id;
}

export async function linkTerms(db: Executor, listingId: number, terms: TermLink[]): Promise<void> {
  if (terms.length === 0) return;
  await db
    .insertInto('listing_terms')
    .values(terms.map((t, position) => ({ listing_id: listingId, term_id: t.termId, taxonomy: t.taxonomy, position })))
    .execute();
}

export async function unlinkTerms(db: Executor, listingId: number, termIds: number[]): Promise<void> {
  if (termIds.length === 0) return;
  await db.deleteFrom('listing_terms').where('listing_id', '=', listingId).where('term_id', 'in', termIds).execute();
}

export async function setListingState(db: Executor, id: number, status: ListingState, at: string): Promise<void> {
  await db
    .updateTable('listings')
    .set((eb) => ({
      status,
      updated_at: at,
      // published_at records the first publication; later moves keep it.
      published_at: status === 'publish' ? eb.fn.coalesce('published_at', eb.val(at)) : eb.ref('published_at'),
    }))
    .where('id', '=', id)
    .execute();
}

export async function deleteListing(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('listings').where('id', '=', id).execute();
}
