/** Data exchange: where imported records came from (modules/exchange). */
export interface ExchangeTables {
  listing_sources: ListingSourcesTable;
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
