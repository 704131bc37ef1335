import type { Kysely } from 'kysely';
import { createListingViewsStamp } from '../dialect/ddl/listing-views-stamp.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type AnyDb = Kysely<any>;

/** Counted views get a stamp of their own, `listing_views`, and leave `listings` alone (dialect/ddl/listing-views-stamp.ts). */
export async function up(db: AnyDb): Promise<void> {
  await createListingViewsStamp(db);
}
