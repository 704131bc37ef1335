import type { Schemas } from '@realty-api/client';

/** A listing summary as the lists of the API give it (docs/api.md 4.1). */
export type PropertySummary = Schemas['PropertySummary'];

/** A term as a listing carries it. */
export type TermRef = Pick<PropertySummary['property_type'][number], 'id' | 'name' | 'slug'>;

/** The smallest picture of the listing fit for a card: its thumbnail, else the medium size, else the original. */
export function thumbnailOf(listing: {
  featured_image: Pick<Schemas['Media'], 'url' | 'alt' | 'sizes'> | null;
}): { url: string; alt: string } | null {
  const image = listing.featured_image;
  if (!image) return null;
  const url = image.sizes.thumbnail?.url ?? image.sizes.medium?.url ?? image.url;
  return url ? { url, alt: image.alt } : null;
}

/** "City, State" as far as the listing names them, or ''. */
export function placeOf(listing: { address: Pick<PropertySummary['address'], 'city' | 'state'> }): string {
  const address = listing.address;
  return [address.city?.name, address.state?.name].filter((part): part is string => Boolean(part)).join(', ');
}

/** The names of terms (types, statuses) joined for a table cell. */
export function termNames(terms: readonly TermRef[] | undefined): string {
  return (terms ?? []).map((term) => term.name).join(', ');
}
