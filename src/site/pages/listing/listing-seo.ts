import type { PropertyRecord } from '../../../modules/properties/index.js';
import { breadcrumbJsonLd, type Crumb } from '../../components/Breadcrumbs.js';
import { mediaOf, pictureSource } from '../../components/Picture.js';
import { layoutText } from '../../layout/layout.text.js';
import type { PageContext, PageMeta } from '../../page.js';
import { listingPath } from '../../paths.js';
import { fill } from '../../texts.js';
import { listingText } from './listing.text.js';

/**
 * What the listing page tells search engines and link previews (docs/site.md): its title and description, its
 * trail, and JSON-LD that says what the page shows, in the same words and figures.
 */

type Listing = Pick<
  PropertyRecord,
  | 'title'
  | 'slug'
  | 'excerpt'
  | 'status'
  | 'price'
  | 'currency'
  | 'price_prefix'
  | 'price_postfix'
  | 'property_status'
  | 'property_type'
  | 'address'
  | 'bedrooms'
  | 'bathrooms'
  | 'rooms'
  | 'size'
  | 'size_unit'
  | 'year_built'
  | 'features'
  | 'published_at'
  | 'featured_image'
  | 'gallery'
>;

/**
 * Whether a listing is let rather than sold, the rule the Offer's `businessFunction` and the calculator follow: a
 * status term that says so (Houzez's `for-rent`, "Alquiler", "Location", "للإيجار"), or a price per period
 * ("/month", "per week", "/mes", "par mois"). Everything else is for sale.
 */
const LEASE_WORDS =
  /(^|[^\p{L}])(rent|rental|rentals|renting|lease|leasing|let|letting|alquiler|alquilar|arriendo|location|louer|إيجار|للإيجار|ايجار)([^\p{L}]|$)/iu;
const PERIOD_WORDS =
  /(^|[^\p{L}])(month|monthly|mo|week|weekly|wk|day|daily|night|nightly|year|yearly|yr|annum|mes|mensual|semana|d[ií]a|noche|a[nñ]o|mois|mensuel|semaine|jour|nuit|an|شهر|شهريًا|شهري|أسبوع|يوم|ليلة|سنة|سنويًا)([^\p{L}]|$)/iu;

export function isForLease(listing: Pick<Listing, 'property_status' | 'price_postfix'>): boolean {
  if (listing.property_status.some((term) => LEASE_WORDS.test(term.slug.replace(/-/g, ' ')) || LEASE_WORDS.test(term.name))) return true;
  return PERIOD_WORDS.test(listing.price_postfix);
}

/** schema.org's kind of home for a property type, where the type's slug makes it obvious; else Accommodation. */
const APARTMENT = new Set(['apartment', 'apartments', 'flat', 'flats', 'condo', 'condominium', 'studio', 'penthouse', 'loft', 'duplex']);
const HOUSE = new Set(['house', 'houses', 'villa', 'villas', 'bungalow', 'cottage', 'townhouse', 'chalet', 'detached', 'single']);

function accommodationType(listing: Pick<Listing, 'property_type'>): 'Apartment' | 'SingleFamilyResidence' | 'Accommodation' {
  const words = listing.property_type.flatMap((type) => type.slug.split('-'));
  if (words.some((word) => APARTMENT.has(word))) return 'Apartment';
  if (words.some((word) => HOUSE.has(word))) return 'SingleFamilyResidence';
  return 'Accommodation';
}

/** The address as the page prints it and as its PostalAddress gives it, most precise first. */
export interface AddressParts {
  readonly street: string;
  readonly locality: string;
  readonly region: string;
  readonly postalCode: string;
  readonly country: string;
}

export function addressParts({ address }: Pick<Listing, 'address'>): AddressParts {
  const locality = [address.area?.name, address.city?.name].filter((name) => name !== undefined && name !== '').join(', ');
  return {
    street: address.address,
    locality,
    region: address.state?.name ?? '',
    postalCode: address.zipcode,
    country: address.country?.name ?? '',
  };
}

/** The address in one line, as the page shows it under the title. */
export function addressLine(parts: AddressParts): string {
  const place = [parts.postalCode, parts.locality].filter(Boolean).join(' ');
  return [parts.street, place, parts.region, parts.country].filter(Boolean).join(', ');
}

/** The trail above the title: home, the listing's city (its landing page) when it has one, the listing. */
export function listingCrumbs(ctx: PageContext, listing: Pick<Listing, 'title' | 'address'>): Crumb[] {
  const t = listingText[ctx.lang];
  const city = listing.address.city;
  return [
    { name: layoutText[ctx.lang].home, path: '/' },
    city ? { name: city.name, path: `/properties/city/${encodeURIComponent(city.slug)}` } : { name: t.properties, path: '/properties' },
    { name: listing.title },
  ];
}

/**
 * The words of the <title> (and link previews' title): "listing title — price", the listing's title cut at a word
 * when the whole would pass what search results show (about 60 characters, the site's name added after it).
 */
const TITLE_LENGTH = 55;

function shortened(text: string, room: number): string {
  const chars = [...text];
  if (chars.length <= room) return text;
  const cut = chars.slice(0, Math.max(1, room - 1)).join('');
  const boundary = cut.lastIndexOf(' ');
  return `${(boundary > room / 2 ? cut.slice(0, boundary) : cut).trimEnd()}…`;
}

/** The head of the listing page; a preview of a listing that is not public is kept out of search engines. */
export function listingMeta(ctx: PageContext, listing: Listing, isPublic: boolean): PageMeta {
  const t = listingText[ctx.lang];
  const price = ctx.format.price(listing);
  const template = listing.status === 'sold' ? t.title_sold : price ? t.title_price : '{title}';
  const room = TITLE_LENGTH - [...fill(template, { title: '', price })].length;
  const title = fill(template, { title: shortened(listing.title, Math.max(20, room)), price });
  const place = addressLine(addressParts(listing)) || t.property;
  const description = listing.excerpt || fill(t.description_fallback, { title: listing.title, place });
  const featured = mediaOf(listing.featured_image);
  const large = featured?.sizes.large ?? featured?.sizes.medium;
  const path = listingPath(listing.slug);
  return {
    title,
    description,
    canonical: isPublic ? path : null,
    noindex: !isPublic,
    ogType: 'website',
    image: large ? { url: large.url, width: large.width, height: large.height, alt: featured!.alt || listing.title } : null,
    jsonLd: isPublic ? [listingJsonLd(ctx, listing, description), breadcrumbJsonLd(ctx, listingCrumbs(ctx, listing))] : [],
  };
}

const GOOD_RELATIONS = 'http://purl.org/goodrelations/v1#';

/** RealEstateListing with its Offer and the home itself, from the same fields the page prints. */
function listingJsonLd(ctx: PageContext, listing: Listing, description: string): object {
  const url = `${ctx.publicUrl}${ctx.path(listingPath(listing.slug))}`;
  const parts = addressParts(listing);
  const { latitude, longitude } = listing.address;
  const images = listing.gallery.flatMap((reference) => {
    const media = mediaOf(reference);
    const size = media?.sizes.large ?? (media && pictureSource(media) ? { url: pictureSource(media)!.src } : undefined);
    return size ? [size.url] : [];
  });
  const home = {
    '@type': accommodationType(listing),
    name: listing.title,
    numberOfRooms: listing.rooms ?? undefined,
    numberOfBedrooms: listing.bedrooms ?? undefined,
    numberOfBathroomsTotal: listing.bathrooms ?? undefined,
    floorSize:
      listing.size !== null
        ? { '@type': 'QuantitativeValue', value: listing.size, unitCode: listing.size_unit === 'm2' ? 'MTK' : 'FTK' }
        : undefined,
    yearBuilt: listing.year_built ?? undefined,
    address: {
      '@type': 'PostalAddress',
      streetAddress: parts.street || undefined,
      addressLocality: parts.locality || undefined,
      addressRegion: parts.region || undefined,
      postalCode: parts.postalCode || undefined,
      addressCountry: parts.country || undefined,
    },
    geo: latitude !== null && longitude !== null ? { '@type': 'GeoCoordinates', latitude, longitude } : undefined,
    amenityFeature:
      listing.features.length > 0
        ? listing.features.map((feature) => ({ '@type': 'LocationFeatureSpecification', name: feature.name, value: true }))
        : undefined,
  };
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateListing',
    '@id': `${url}#listing`,
    url,
    name: listing.title,
    description,
    inLanguage: ctx.lang,
    datePosted: listing.published_at ?? undefined,
    image: images.length > 0 ? images : undefined,
    offers:
      listing.price !== null
        ? {
            '@type': 'Offer',
            price: listing.price,
            priceCurrency: listing.currency,
            businessFunction: `${GOOD_RELATIONS}${isForLease(listing) ? 'LeaseOut' : 'Sell'}`,
            availability: listing.status === 'sold' ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
            url,
          }
        : undefined,
    mainEntity: home,
  };
}
