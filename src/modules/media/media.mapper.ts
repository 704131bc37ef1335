import type { FileStorage } from '../../adapters/storage/storage.js';
import type { MediaRow } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { MediaRecord } from './media.schemas.js';
import { IMAGE_SIZES, type StoredSizes } from './media-urls.js';

/** Row → API media: absolute URLs from the storage; `sizes` holds only the sizes that exist (none for documents). */
export function toMedia(row: MediaRow, storage: FileStorage): MediaRecord {
  const stored = JSON.parse(row.sizes) as StoredSizes;
  const sizes: MediaRecord['sizes'] = {};
  for (const name of IMAGE_SIZES) {
    const size = stored[name];
    if (size) sizes[name] = { url: storage.url(size.key), width: size.width, height: size.height };
  }
  return {
    id: row.id,
    url: storage.url(row.storage_key),
    mime_type: row.mime_type as MediaRecord['mime_type'],
    width: row.width,
    height: row.height,
    size_bytes: Number(row.size_bytes),
    title: row.title,
    caption: row.caption,
    alt: row.alt,
    description: row.description,
    sizes,
    owner_id: row.owner_id,
    created_at: toApiTimestamp(row.created_at),
  };
}
