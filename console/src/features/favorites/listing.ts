/** A listing summary as the lists of the API give it (docs/api.md 4.1), the fields these screens show. */
export interface TermRef {
  id: number;
  name: string;
  slug: string;
}

interface MediaSize {
  url: string;
  width: number;
  height: number;
}

export interface PropertySummary {
  id: number;
  title: string;
  excerpt?: string;
  price: number | null;
  currency: string;
  price_prefix?: string | null;
  price_postfix?: string | null;
  bedrooms: number | null;
  address: { city: TermRef | null; state?: TermRef | null; country?: TermRef | null } | null;
  property_type?: TermRef[];
  property_status?: TermRef[];
  featured_image: { url: string; alt?: string; sizes?: Partial<Record<'thumbnail' | 'medium' | 'large', MediaSize>> } | null;
}

/** The smallest picture of the listing fit for a card: its thumbnail, else the medium size, else the original. */
export function thumbnailOf(listing: Pick<PropertySummary, 'featured_image'>): { url: string; alt: string } | null {
  const image = listing.featured_image;
  if (!image) return null;
  const url = image.sizes?.thumbnail?.url ?? image.sizes?.medium?.url ?? image.url;
  return url ? { url, alt: image.alt ?? '' } : null;
}

/** "City, State" as far as the listing names them, or ''. */
export function placeOf(listing: Pick<PropertySummary, 'address'>): string {
  const address = listing.address;
  if (!address) return '';
  return [address.city?.name, address.state?.name].filter((part): part is string => Boolean(part)).join(', ');
}

/** The names of terms (types, statuses) joined for a table cell. */
export function termNames(terms: readonly TermRef[] | undefined): string {
  return (terms ?? []).map((term) => term.name).join(', ');
}
