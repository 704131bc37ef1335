import type { Updateable } from 'kysely';
import type { ListingState, MediaRow, MediaTable, NewMedia } from '../../db/schema/index.js';
import { insertRows } from '../../db/dialect/bulk-load.js';
import type { Executor } from '../../db/executor.js';

/** A media row with the state of the listing it is attached to (null when it is not attached). */
export type MediaWithListing = MediaRow & { listing_status: ListingState | null };

export interface OwnMediaFilter {
  ownerId: number;
  listingId?: number;
}

export async function insertMedia(db: Executor, media: NewMedia): Promise<MediaRow> {
  return db.insertInto('media').values(media).returningAll().executeTakeFirstOrThrow();
}

/** The columns of a row given to insertGalleryRows, in order (gallery-rows.service.ts). */
const GALLERY_COLUMNS = [
  'owner_id',
  'listing_id',
  'position',
  'storage_key',
  'mime_type',
  'width',
  'height',
  'size_bytes',
  'title',
  'caption',
  'alt',
  'description',
  'sizes',
  'created_at',
];

/** Many gallery rows with few multi-row statements (the bulk write path). */
export function insertGalleryRows(trx: Executor, rows: readonly unknown[][]): Promise<void> {
  return insertRows(trx, 'media', GALLERY_COLUMNS, rows);
}

export async function findMediaWithListing(db: Executor, id: number): Promise<MediaWithListing | undefined> {
  return db
    .selectFrom('media as m')
    .leftJoin('listings as l', 'l.id', 'm.listing_id')
    .selectAll('m')
    .select('l.status as listing_status')
    .where('m.id', '=', id)
    .executeTakeFirst();
}

/** A page of a user's uploads, newest first (index media_owner_idx). */
export async function findOwnMedia(db: Executor, filter: OwnMediaFilter, limit: number, offset: number): Promise<MediaRow[]> {
  return ownMedia(db, filter).selectAll().orderBy('id', 'desc').limit(limit).offset(offset).execute();
}

export async function countOwnMedia(db: Executor, filter: OwnMediaFilter): Promise<number> {
  const row = await ownMedia(db, filter)
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

function ownMedia(db: Executor, filter: OwnMediaFilter) {
  let query = db.selectFrom('media').where('owner_id', '=', filter.ownerId);
  if (filter.listingId !== undefined) query = query.where('listing_id', '=', filter.listingId);
  return query;
}

export async function updateMedia(db: Executor, id: number, changes: Updateable<MediaTable>): Promise<void> {
  await db.updateTable('media').set(changes).where('id', '=', id).execute();
}

/** Listings lose the item with the row; an avatar pointing at it is cleared by the foreign key (set null). */
export async function deleteMedia(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('media').where('id', '=', id).execute();
}

/** Deletes every media row of a user and returns what their files are stored under, in one statement. */
export async function deleteMediaOwnedBy(db: Executor, ownerId: number): Promise<Pick<MediaRow, 'storage_key' | 'sizes'>[]> {
  return db.deleteFrom('media').where('owner_id', '=', ownerId).returning(['storage_key', 'sizes']).execute();
}

/** The media row of a user's current avatar, if any. */
export async function findAvatarOf(db: Executor, userId: number): Promise<MediaRow | undefined> {
  return db
    .selectFrom('users as u')
    .innerJoin('media as m', 'm.id', 'u.avatar_media_id')
    .selectAll('m')
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** Storage keys among `keys` that some media row still refers to: demo listings share files (dialect/ddl/media-keys.ts). */
export async function findKeysInUse(db: Executor, keys: readonly string[]): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom('media').select('storage_key').where('storage_key', 'in', keys).execute();
  return new Set(rows.map((row) => row.storage_key));
}

export async function deleteMediaByIds(db: Executor, ids: readonly number[]): Promise<Pick<MediaRow, 'storage_key' | 'sizes'>[]> {
  return db.deleteFrom('media').where('id', 'in', ids).returning(['storage_key', 'sizes']).execute();
}

// A listing's gallery: the properties module asks for these through MediaService, in its own transactions.

/**
 * A listing holds two kinds of media, told apart by type: its gallery (images) and its attachments (documents,
 * docs/api.md 4.1). Each list has its own positions; replacing one leaves the other alone.
 */
export type ListingMediaKind = 'gallery' | 'attachments';

/** Makes `mediaIds` the listing's gallery in that order; images no longer in it are detached (kept as uploads). */
export async function replaceGallery(db: Executor, listingId: number, mediaIds: number[]): Promise<void> {
  await replaceListingMedia(db, listingId, 'gallery', mediaIds);
}

/** Makes `mediaIds` the listing's list of `kind` in that order; media of that kind no longer in it are detached. */
export async function replaceListingMedia(db: Executor, listingId: number, kind: ListingMediaKind, mediaIds: number[]): Promise<void> {
  let detach = db
    .updateTable('media')
    .set({ listing_id: null, position: 0 })
    .where('listing_id', '=', listingId)
    .where('mime_type', kind === 'gallery' ? 'like' : 'not like', 'image/%');
  if (mediaIds.length > 0) detach = detach.where('id', 'not in', mediaIds);
  await detach.execute();
  for (const [position, id] of mediaIds.entries()) {
    await db.updateTable('media').set({ listing_id: listingId, position }).where('id', '=', id).execute();
  }
}

/** Deletes the listing's gallery and attachment rows and returns where their files are stored. */
export async function deleteGallery(db: Executor, listingId: number): Promise<Pick<MediaRow, 'storage_key' | 'sizes'>[]> {
  return db.deleteFrom('media').where('listing_id', '=', listingId).returning(['storage_key', 'sizes']).execute();
}
