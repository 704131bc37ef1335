import type { ListingRecord } from './types';

/**
 * A listing's price for a table cell: the amount in its currency with the listing's prefix and postfix, in
 * the page's language; '' without a price. A currency code Intl does not know is written before the number.
 */
export function formatPrice(
  listing: Pick<ListingRecord, 'price' | 'currency' | 'price_prefix' | 'price_postfix'>,
  language: string,
): string {
  if (listing.price === null) return '';
  let amount: string;
  try {
    amount = new Intl.NumberFormat(language, {
      style: 'currency',
      currency: listing.currency,
      minimumFractionDigits: 0,
      maximumFractionDigits: 2,
    }).format(listing.price);
  } catch {
    amount = `${listing.currency} ${new Intl.NumberFormat(language).format(listing.price)}`;
  }
  return [listing.price_prefix, amount + listing.price_postfix].filter((part) => part !== '').join(' ');
}

/** The smallest picture of a listing for a list row, or undefined. */
export function thumbnailOf(listing: Pick<ListingRecord, 'featured_image' | 'gallery'>): string | undefined {
  const media = listing.featured_image ?? listing.gallery[0];
  return media ? (media.sizes?.thumbnail?.url ?? media.url) : undefined;
}
