import { randomBytes } from 'node:crypto';
import type { ImageSize, StoredSizes } from './media-urls.js';

/**
 * Storage names are generated, never taken from the client's file name: `2026/11/<32 hex>.jpg` for the
 * original and `<same>-thumbnail.jpg`, `-medium`, `-large` for the sizes. The month folder keeps
 * directories small; the random part makes names unguessable and never reused, so that files can be
 * cached forever.
 */
export function newStorageKeys(extension: string, now: Date = new Date()) {
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  const base = `${now.getUTCFullYear()}/${month}/${randomBytes(16).toString('hex')}`;
  return {
    original: `${base}.${extension}`,
    size: (size: ImageSize) => `${base}-${size}.${extension}`,
  };
}

/** Every stored key of a media row: its original and its sizes. */
export function storedKeysOf(row: { storage_key: string; sizes: string }): string[] {
  const sizes = JSON.parse(row.sizes) as StoredSizes;
  return [row.storage_key, ...Object.values(sizes).map((size) => size.key)];
}
