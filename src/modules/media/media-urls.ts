import type { FileStorage } from '../../adapters/storage/storage.js';

export const IMAGE_SIZES = ['thumbnail', 'medium', 'large'] as const;
export type ImageSize = (typeof IMAGE_SIZES)[number];

interface StoredSize {
  key: string;
  width: number;
  height: number;
}
export type StoredSizes = Partial<Record<ImageSize, StoredSize>>;

/** The URL of one size from a `media.sizes` JSON value; "" when there is no such image. */
export function sizeUrl(sizesJson: string | null, size: ImageSize, storage: FileStorage): string {
  if (!sizesJson) return '';
  const stored = (JSON.parse(sizesJson) as StoredSizes)[size];
  return stored ? storage.url(stored.key) : '';
}

/** Avatars are shown by their `medium` size (fits 600×600): large enough for a profile page, small to load. */
export function avatarUrl(sizesJson: string | null, storage: FileStorage): string {
  return sizeUrl(sizesJson, 'medium', storage);
}
