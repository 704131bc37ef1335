import type { Kysely, Transaction } from 'kysely';
import type { FileStorage } from '../../adapters/storage/storage.js';
import type { Executor } from '../../db/executor.js';
import type { DB, MediaRow } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { plainText, richText } from '../../lib/text.js';
import { nowIso } from '../../lib/time.js';
import type { AccountsService } from '../accounts/index.js';
import { IMAGE_TYPES, MEDIA_TYPES, type MediaType, type ProcessedUpload, processUpload } from './image-processing.js';
import { toMedia } from './media.mapper.js';
import * as repository from './media.repository.js';
import type { MediaWithListing } from './media.repository.js';
import {
  type AvatarResultRecord,
  type ListMediaInput,
  MEDIA_MODERATORS,
  type MediaListRecord,
  type MediaRecord,
  type MediaTextInput,
} from './media.schemas.js';
import { avatarUrl, IMAGE_SIZES, type StoredSizes } from './media-urls.js';
import { newStorageKeys, storedKeysOf } from './storage-keys.js';

/** Listing states in which a listing, and so its attached media, is public (docs/api.md 4.3). */
const PUBLIC_LISTING_STATES: readonly string[] = ['publish', 'sold'];

export interface MediaLimits {
  /** Largest accepted image in pixels (width × height). */
  readonly maxImagePixels: number;
}

/** Where files that could not be removed are reported; they are orphans, not failures of the request. */
export interface MediaLog {
  error(details: object, message: string): void;
}

export interface UploadForm {
  file: Buffer;
  fields: MediaTextInput;
}

type Access = 'manage' | 'view';

/** What an avatar change asks of the accounts module, which owns `users` (its avatar pointer and row lock). */
export type AvatarAccounts = Pick<AccountsService, 'lockForAvatarChange' | 'setAvatar'>;

export class MediaService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly storage: FileStorage,
    private readonly limits: MediaLimits,
    private readonly log: MediaLog,
    private readonly accounts: AvatarAccounts,
  ) {}

  /** A file for the caller's listings or documents (POST /media/upload); the route checks the role. */
  async upload(caller: AuthUser, form: UploadForm): Promise<MediaRecord> {
    const text = cleanText(form.fields);
    const processed = await processUpload(form.file, { accept: MEDIA_TYPES, maxPixels: this.limits.maxImagePixels });
    const row = await this.storeAndInsert(processed, (media) =>
      this.db.transaction().execute((trx) => repository.insertMedia(trx, { ...media, ...text, owner_id: caller.id })),
    );
    return toMedia(row, this.storage);
  }

  /**
   * Gallery images of a new listing (POST /properties/with-media): every file is checked and re-encoded
   * before any is stored, so one bad file refuses the request with nothing left behind. Sequential, to
   * bound the memory that decoding 20 large images would take at once.
   */
  async uploadImages(caller: AuthUser, files: readonly Buffer[]): Promise<MediaRecord[]> {
    const processed: ProcessedUpload[] = [];
    for (const file of files) processed.push(await processUpload(file, { accept: IMAGE_TYPES, maxPixels: this.limits.maxImagePixels }));
    const rows: MediaRow[] = [];
    try {
      for (const upload of processed) {
        rows.push(await this.storeAndInsert(upload, (media) => repository.insertMedia(this.db, { ...media, owner_id: caller.id })));
      }
    } catch (error) {
      await this.discard(rows.map((row) => row.id));
      throw error;
    }
    return rows.map((row) => toMedia(row, this.storage));
  }

  /**
   * A picture fetched for a user rather than uploaded by them (a feed import's gallery): checked, sniffed and
   * re-encoded as an upload is, stored, and owned by `ownerId`. Returns the new media id.
   */
  async storeImageFor(ownerId: number, bytes: Buffer): Promise<number> {
    const processed = await processUpload(bytes, { accept: IMAGE_TYPES, maxPixels: this.limits.maxImagePixels });
    const row = await this.storeAndInsert(processed, (media) => repository.insertMedia(this.db, { ...media, owner_id: ownerId }));
    return row.id;
  }

  /**
   * A document fetched for a user (a WordPress site's brochure): checked by its bytes as an uploaded PDF is,
   * stored, owned by `ownerId`, with `title`. Returns the new media id.
   */
  async storeDocumentFor(ownerId: number, bytes: Buffer, title: string): Promise<number> {
    const processed = await processUpload(bytes, { accept: ['application/pdf'], maxPixels: this.limits.maxImagePixels });
    const row = await this.storeAndInsert(processed, (media) => repository.insertMedia(this.db, { ...media, title, owner_id: ownerId }));
    return row.id;
  }

  /** Deletes media rows and their files without permission checks: undoing uploads of a failed request. */
  async discard(ids: readonly number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.removeFilesOf(await repository.deleteMediaByIds(this.db, ids));
  }

  /**
   * Makes the upload the caller's avatar (POST /users/upload-avatar). The previous avatar, row and files,
   * is removed: nothing else refers to it.
   */
  async uploadAvatar(caller: AuthUser, file: Buffer): Promise<AvatarResultRecord> {
    const processed = await processUpload(file, { accept: IMAGE_TYPES, maxPixels: this.limits.maxImagePixels });
    let previous: MediaRow | undefined;
    const row = await this.storeAndInsert(processed, (media) =>
      this.db.transaction().execute(async (trx) => {
        // The user's row lock first, so that concurrent avatar uploads of one user replace each other in turn.
        await this.accounts.lockForAvatarChange(trx, caller.id, media.created_at);
        const inserted = await repository.insertMedia(trx, { ...media, owner_id: caller.id });
        previous = await repository.findAvatarOf(trx, caller.id);
        await this.accounts.setAvatar(trx, caller.id, inserted.id);
        if (previous) await repository.deleteMedia(trx, previous.id);
        return inserted;
      }),
    );
    if (previous) await this.removeFilesOf([previous]);
    return { user_id: caller.id, avatar_id: row.id, avatar_url: avatarUrl(row.sizes, this.storage) };
  }

  /** The caller's own uploads, newest first; moderators too see only their own here. */
  async listOwn(caller: AuthUser, query: ListMediaInput): Promise<MediaListRecord> {
    const window = pageWindow(query);
    const filter = { ownerId: caller.id, ...(query.property_id !== undefined ? { listingId: query.property_id } : {}) };
    const [total, rows] = await Promise.all([
      repository.countOwnMedia(this.db, filter),
      repository.findOwnMedia(this.db, filter, window.perPage, window.offset),
    ]);
    return { media: rows.map((row) => toMedia(row, this.storage)), pagination: paginationOf(total, window) };
  }

  async get(caller: AuthUser | null, id: number): Promise<MediaRecord> {
    return toMedia(await this.findFor(caller, id, 'view'), this.storage);
  }

  async update(caller: AuthUser, id: number, input: MediaTextInput): Promise<MediaRecord> {
    const row = await this.findFor(caller, id, 'manage');
    const changes = cleanText(input);
    if (Object.keys(changes).length === 0) return toMedia(row, this.storage);
    await repository.updateMedia(this.db, id, changes);
    return toMedia({ ...row, ...changes }, this.storage);
  }

  /** Removes the row (which detaches it from its listing and clears an avatar pointing at it), then its files. */
  async delete(caller: AuthUser, id: number): Promise<void> {
    const row = await this.findFor(caller, id, 'manage');
    await repository.deleteMedia(this.db, id);
    await this.removeFilesOf([row]);
  }

  /**
   * Every media item of a user, for account deletion: the rows first, then the files, so that no row is
   * left pointing at a missing file. A storage failure is logged (the files become orphans), not thrown.
   */
  async deleteAllOwnedBy(userId: number): Promise<void> {
    await this.removeFilesOf(await repository.deleteMediaOwnedBy(this.db, userId));
  }

  /**
   * The media item if the caller may see it (owner, moderator, or anyone when it is attached to a public
   * listing), else 404; for `manage`, a caller who may see it but not change it gets 403.
   */
  private async findFor(caller: AuthUser | null, id: number, access: Access): Promise<MediaWithListing> {
    const row = await repository.findMediaWithListing(this.db, id);
    if (!row) throw AppError.notFound();
    const mayManage = caller !== null && (caller.id === row.owner_id || (MEDIA_MODERATORS as readonly string[]).includes(caller.role));
    if (mayManage) return row;
    const isPublic = row.listing_status !== null && PUBLIC_LISTING_STATES.includes(row.listing_status);
    if (!isPublic) throw AppError.notFound();
    if (access === 'manage') throw new AppError('forbidden');
    return row;
  }

  /**
   * Writes the files first, then the row through `insert`; if writing or inserting fails, the files already
   * written are removed, so that a failed upload leaves nothing behind.
   */
  private async storeAndInsert(processed: ProcessedUpload, insert: (media: StoredMedia) => Promise<MediaRow>): Promise<MediaRow> {
    const keys = newStorageKeys(processed.extension);
    const files: { key: string; body: Buffer }[] = [{ key: keys.original, body: processed.body }];
    const sizes: StoredSizes = {};
    for (const name of IMAGE_SIZES) {
      const image = processed.sizes[name];
      if (!image) continue;
      const key = keys.size(name);
      files.push({ key, body: image.body });
      sizes[name] = { key, width: image.width, height: image.height };
    }
    const written = await Promise.allSettled(files.map((file) => this.storage.put(file.key, file.body, processed.mimeType)));
    const failure = written.find((result) => result.status === 'rejected');
    try {
      if (failure) throw failure.reason;
      return await insert({
        storage_key: keys.original,
        mime_type: processed.mimeType,
        width: processed.width,
        height: processed.height,
        size_bytes: processed.body.length,
        sizes: JSON.stringify(sizes),
        created_at: nowIso(),
      });
    } catch (error) {
      await this.removeFiles(files.map((file) => file.key));
      throw error;
    }
  }

  /**
   * Makes `mediaIds` a listing's gallery in that order, in the caller's transaction (the properties module has
   * checked the caller may use them); media no longer in it are detached and kept as uploads.
   */
  replaceListingGallery(db: Executor, listingId: number, mediaIds: number[]): Promise<void> {
    return repository.replaceGallery(db, listingId, mediaIds);
  }

  /** Makes `mediaIds` (documents the caller checked) the listing's attachments in order, in the caller's transaction. */
  replaceListingAttachments(db: Executor, listingId: number, mediaIds: number[]): Promise<void> {
    return repository.replaceListingMedia(db, listingId, 'attachments', mediaIds);
  }

  /**
   * Deletes a listing's gallery rows in the caller's transaction (a listing deletion), and returns what their
   * files are stored under: the caller removes them with removeFilesOf once its transaction committed.
   */
  deleteListingGallery(trx: Transaction<DB>, listingId: number): Promise<Pick<MediaRow, 'storage_key' | 'sizes'>[]> {
    return repository.deleteGallery(trx, listingId);
  }

  /**
   * Removes the stored files of media rows already deleted, except files another row still uses (shared
   * demo images). A storage failure is logged (the files become orphans), not thrown.
   */
  async removeFilesOf(rows: readonly Pick<MediaRow, 'storage_key' | 'sizes'>[]): Promise<void> {
    if (rows.length === 0) return;
    const inUse = await repository.findKeysInUse(
      this.db,
      rows.map((row) => row.storage_key),
    );
    const unused = rows.filter((row) => !inUse.has(row.storage_key));
    if (unused.length > 0) await this.removeFiles(unused.flatMap(storedKeysOf));
  }

  private async removeFiles(keys: string[]): Promise<void> {
    try {
      await this.storage.delete(keys);
    } catch (error) {
      this.log.error({ err: error, keys }, 'could not remove stored media files; they are left as orphans');
    }
  }
}

interface StoredMedia {
  storage_key: string;
  mime_type: MediaType;
  width: number | null;
  height: number | null;
  size_bytes: number;
  sizes: string;
  created_at: string;
}

/** Plain text for the short fields (tags removed), the rich-text allow-list for the description (docs/api.md 0.4). */
function cleanText(input: MediaTextInput): MediaTextInput {
  const text: MediaTextInput = {};
  if (input.title !== undefined) text.title = plainText(input.title);
  if (input.caption !== undefined) text.caption = plainText(input.caption);
  if (input.alt !== undefined) text.alt = plainText(input.alt);
  if (input.description !== undefined) text.description = richText(input.description);
  return text;
}
