import type { Generated } from 'kysely';

/** Data exchange: where imported records came from (modules/exchange). */
export interface ExchangeTables {
  listing_sources: ListingSourcesTable;
  feed_pictures: FeedPicturesTable;
  feed_tokens: FeedTokensTable;
}

export interface ListingSourcesTable {
  listing_id: number;
  /** The source's name (`--source`, default the file's name without its extension). */
  source: string;
  /** The listing's key in that source (CSV `key`, RESO `ListingKey`, Kyero `id`). */
  source_key: string;
  /** Hash of the record as last imported: the same record again writes nothing. */
  fingerprint: string;
  imported_at: string;
}

export type FeedPictureState = 'pending' | 'stored' | 'failed';

/** A picture a feed names, fetched into its listing's gallery by a background job. */
export interface FeedPicturesTable {
  id: Generated<number>;
  listing_id: number;
  /** Its place in the gallery the feed gives. */
  position: number;
  url: string;
  state: Generated<FeedPictureState>;
  media_id: number | null;
  attempts: Generated<number>;
  /** A pending picture is not tried before this time: the next try after a failure, or a claim's end. */
  not_before: string;
  last_error: Generated<string>;
}

/** A portal's secret feed URL (GET /feeds/{token}); revoking deletes the row. */
export interface FeedTokensTable {
  id: Generated<number>;
  /** Who the token is for, as the administrator named it ("Kyero", "idealista"). */
  name: string;
  /** The feed format name (`csv`, `reso`, `kyero`). */
  format: string;
  /** SHA-256 (hex) of the token: the token itself is shown once and never stored. */
  token_hash: string;
  /** The token's last 4 characters, shown in the list to tell tokens apart. */
  token_hint: string;
  created_by: number | null;
  created_at: string;
  /** The last pull, written at most once a minute. */
  last_used_at: string | null;
}
