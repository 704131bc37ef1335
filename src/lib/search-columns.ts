import { type SearchableText, searchTextOf, titleTokensOf } from './search-tokens.js';
import { geoKey, unitVector } from './geo-grid.js';

/**
 * The columns of `listings` that keyword and geo search read, computed in JavaScript from a listing's text
 * and coordinates (the words cannot be made in SQL): written by every listing write and by migration 0006's
 * backfill.
 */

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
