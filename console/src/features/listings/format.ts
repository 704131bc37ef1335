import type { ListingRecord } from './types';

/** The smallest picture of a listing for a list row, or undefined. */
export function thumbnailOf(listing: Pick<ListingRecord, 'featured_image' | 'gallery'>): string | undefined {
  const media = listing.featured_image ?? listing.gallery[0];
  return media ? (media.sizes?.thumbnail?.url ?? media.url) : undefined;
}
