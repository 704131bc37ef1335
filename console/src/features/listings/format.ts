import type { MediaRecord } from './types';

type Picture = Pick<MediaRecord, 'url' | 'sizes'>;

/** The smallest picture of a listing for a list row, or undefined. */
export function thumbnailOf(listing: { featured_image: Picture | null; gallery: readonly Picture[] }): string | undefined {
  const media = listing.featured_image ?? listing.gallery[0];
  return media ? (media.sizes.thumbnail?.url ?? media.url) : undefined;
}
