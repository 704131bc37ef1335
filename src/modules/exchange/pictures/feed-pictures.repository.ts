import type { Executor } from '../../../db/executor.js';
import type { FeedFileKind } from '../../../db/schema/index.js';

/** The URLs of `kind` a feed gave each listing, in gallery (or attachments) order. */
export async function urlsByListing(
  db: Executor,
  listingIds: readonly number[],
  kind: FeedFileKind = 'picture',
): Promise<Map<number, string[]>> {
  const urls = new Map<number, string[]>();
  if (listingIds.length === 0) return urls;
  const rows = await db
    .selectFrom('feed_pictures')
    .select(['listing_id', 'url'])
    .where('listing_id', 'in', listingIds)
    .where('kind', '=', kind)
    .orderBy('listing_id')
    .orderBy('position')
    .execute();
  for (const row of rows) (urls.get(row.listing_id) ?? urls.set(row.listing_id, []).get(row.listing_id)!).push(row.url);
  return urls;
}

export async function insertPictures(
  db: Executor,
  pictures: readonly { listingId: number; urls: readonly string[] }[],
  at: string,
  kind: FeedFileKind = 'picture',
) {
  const rows = pictures.flatMap(({ listingId, urls }) =>
    urls.map((url, position) => ({ listing_id: listingId, kind, position, url, not_before: at })),
  );
  // Several statements when a batch names many pictures: SQLite binds at most 32,766 values in one.
  for (let start = 0; start < rows.length; start += 5_000) {
    await db
      .insertInto('feed_pictures')
      .values(rows.slice(start, start + 5_000))
      .execute();
  }
}

/** Removes a listing's pictures (or documents); the media ids of those already stored, for the caller to discard. */
export async function deletePicturesOf(db: Executor, listingId: number, kind: FeedFileKind = 'picture'): Promise<number[]> {
  const rows = await db
    .deleteFrom('feed_pictures')
    .where('listing_id', '=', listingId)
    .where('kind', '=', kind)
    .returning('media_id')
    .execute();
  return rows.flatMap((row) => (row.media_id === null ? [] : [row.media_id]));
}

/**
 * Claims up to `limit` pictures due at `now`, with their listing's author: each one's `not_before` moves to
 * `until`, so that another run (a process whose claim of the job lapsed) passes them by meanwhile.
 */
export async function claimDue(db: Executor, now: string, until: string, limit: number) {
  const due = await db
    .selectFrom('feed_pictures')
    .innerJoin('listings', 'listings.id', 'feed_pictures.listing_id')
    .selectAll('feed_pictures')
    .select('listings.author_id')
    .where('feed_pictures.state', '=', 'pending')
    .where('feed_pictures.not_before', '<=', now)
    .orderBy('feed_pictures.not_before')
    .orderBy('feed_pictures.id')
    .limit(limit)
    .execute();
  if (due.length === 0) return [];
  await db
    .updateTable('feed_pictures')
    .set({ not_before: until })
    .where(
      'id',
      'in',
      due.map((row) => row.id),
    )
    .execute();
  return due;
}

/** Whether the picture was still waiting (an import may have replaced the listing's pictures meanwhile). */
export async function markStored(db: Executor, id: number, mediaId: number): Promise<boolean> {
  const result = await db
    .updateTable('feed_pictures')
    .set({ state: 'stored', media_id: mediaId, last_error: '' })
    .where('id', '=', id)
    .where('state', '=', 'pending')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function markFailedTry(db: Executor, id: number, attempts: number, retryAt: string | null, error: string): Promise<void> {
  await db
    .updateTable('feed_pictures')
    .set({ attempts, last_error: error, ...(retryAt === null ? { state: 'failed' } : { not_before: retryAt }) })
    .where('id', '=', id)
    .execute();
}

/** The stored pictures of a listing's feed gallery (or its documents), in order. */
export async function storedGallery(db: Executor, listingId: number, kind: FeedFileKind = 'picture'): Promise<number[]> {
  const rows = await db
    .selectFrom('feed_pictures')
    .select('media_id')
    .where('listing_id', '=', listingId)
    .where('kind', '=', kind)
    .where('state', '=', 'stored')
    .where('media_id', 'is not', null)
    .orderBy('position')
    .execute();
  return rows.map((row) => row.media_id!);
}

/** How many pictures wait, and how many failed for good (operations, tests, the bench). */
export async function pictureCounts(db: Executor): Promise<Record<'pending' | 'stored' | 'failed', number>> {
  const rows = await db
    .selectFrom('feed_pictures')
    .select(['state', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('state')
    .execute();
  const counts = { pending: 0, stored: 0, failed: 0 };
  for (const row of rows) counts[row.state] = Number(row.n);
  return counts;
}
