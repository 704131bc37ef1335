import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../../db/schema.js';
import { type SearchableText, searchTextOf, titleTokensOf } from '../../lib/search-tokens.js';
import { geoKey, unitVector } from './geo.js';

type Executor = Kysely<DB> | Transaction<DB>;

/** What the search columns are computed from. */
export interface SearchSource extends SearchableText {
  latitude?: number | null;
  longitude?: number | null;
}

/** The columns of `listings` that keyword and geo search read (migration 0006). */
export interface SearchColumns {
  search_text: string;
  title_tokens: string;
  geo_key: number | null;
  geo_x: number | null;
  geo_y: number | null;
  geo_z: number | null;
}

/** The search columns of a listing; every key is present (multi-row inserts need the same columns in each row). */
export function searchColumnsOf(listing: SearchSource): SearchColumns {
  const { latitude, longitude } = listing;
  const located = latitude !== null && latitude !== undefined && longitude !== null && longitude !== undefined;
  const [x, y, z] = located ? unitVector(latitude, longitude) : [null, null, null];
  return {
    search_text: searchTextOf(listing),
    title_tokens: titleTokensOf(listing.title),
    geo_key: located ? geoKey(latitude, longitude) : null,
    geo_x: x,
    geo_y: y,
    geo_z: z,
  };
}

/** Recomputes the listing's search columns from its stored text and coordinates (after a partial update). */
export async function refreshSearchColumns(db: Executor, listingId: number): Promise<void> {
  const source = await db
    .selectFrom('listings')
    .select(['title', 'description', 'address', 'zipcode', 'reference', 'latitude', 'longitude'])
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!source) return;
  await db.updateTable('listings').set(searchColumnsOf(source)).where('id', '=', listingId).execute();
}
