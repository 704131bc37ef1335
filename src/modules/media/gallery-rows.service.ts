import type { Executor } from '../../db/executor.js';
import { insertGalleryRows } from './media.repository.js';

/** A picture of a listing's gallery as a bulk write has it: its files are stored already (adapters/storage). */
export interface GalleryPicture {
  /** The listing's author, who owns the picture. */
  ownerId: number;
  listingId: number;
  /** From 0, in gallery order. */
  position: number;
  storageKey: string;
  mimeType: string;
  width: number | null;
  height: number | null;
  sizeBytes: number;
  title: string;
  caption: string;
  alt: string;
  description: string;
  /** JSON, as `media.sizes`. */
  sizes: string;
  createdAt: string;
}

/**
 * Writes the `media` rows of many listings' galleries with few statements: the bulk write path's (properties'
 * ListingBulkWriter) way into media's table. Only rows: the files, their sizes and the checks an upload gets
 * (MediaService) are the producer's, which made the pictures itself (the demo seed).
 */
export class GalleryRows {
  insert(trx: Executor, pictures: readonly GalleryPicture[]): Promise<void> {
    return insertGalleryRows(
      trx,
      pictures.map((p) => [
        p.ownerId,
        p.listingId,
        p.position,
        p.storageKey,
        p.mimeType,
        p.width,
        p.height,
        p.sizeBytes,
        p.title,
        p.caption,
        p.alt,
        p.description,
        p.sizes,
        p.createdAt,
      ]),
    );
  }
}
