import type { FileStorage } from '../../adapters/storage/storage.js';
import type { MediaRow } from '../../db/schema/index.js';
import { toApiTimestamp } from '../../lib/time.js';
import { toMedia } from '../media/index.js';
import { formatPrice } from './price-format.js';
import type { AgencyRow, ListingAgentRow, ListingCoreRow, TermLinkRow } from './properties.repository.js';
import type { PropertyRecord, PropertySummaryRecord } from './properties.schemas.js';

/** Where the absolute URLs of records point (docs/api.md 0.4, 12). */
export interface RecordUrls {
  publicUrl: string;
  /** `url` of a listing, with `{slug}` and `{id}`. */
  listingUrlTemplate: string;
  storage: FileStorage;
}

/** A listing's `url` (docs/api.md 12): LISTING_URL_TEMPLATE with `{slug}` and `{id}` filled in. */
export function listingUrl(template: string, listing: { id: number; slug: string }): string {
  return template.replaceAll('{slug}', encodeURIComponent(listing.slug)).replaceAll('{id}', String(listing.id));
}

/** Everything loaded for one listing, by the batched queries of listing-records.service.ts. */
export interface ListingParts {
  core: ListingCoreRow;
  terms: TermLinkRow[];
  agents: ListingAgentRow[];
  agency: AgencyRow | undefined;
  gallery: MediaRow[];
  /** The listing's documents, in order (loaded for full records only). */
  attachments: MediaRow[];
}

type TermRef = { id: number; name: string; slug: string };
type ColouredTermRef = TermRef & { color?: string };

/** The full record (docs/api.md 4.1), `is_favorite` false: the caller's favorite is added per request. */
export function toProperty(parts: ListingParts, urls: RecordUrls): PropertyRecord {
  const { core } = parts;
  return {
    ...commonFields(parts, parts.gallery, urls),
    description: core.description,
    gallery: parts.gallery.map((media) => toMedia(media, urls.storage)),
    attachments: parts.attachments.map((media) => ({
      id: media.id,
      url: urls.storage.url(media.storage_key),
      title: media.title,
      mime_type: 'application/pdf' as const,
    })),
    floor_plans: JSON.parse(core.floor_plans) as PropertyRecord['floor_plans'],
    additional_features: JSON.parse(core.additional_features) as PropertyRecord['additional_features'],
  };
}

/** A list item: no description, floor plans or additional features; at most `galleryLimit` gallery images. */
export function toPropertySummary(parts: ListingParts, urls: RecordUrls, galleryLimit: number): PropertySummaryRecord {
  // The loader may add the featured image past the limit; it shows as featured_image, not in the gallery.
  const gallery = parts.gallery.slice(0, galleryLimit);
  return { ...commonFields(parts, parts.gallery, urls), gallery: gallery.map((media) => toMedia(media, urls.storage)) };
}

function commonFields(parts: ListingParts, images: MediaRow[], urls: RecordUrls): Omit<PropertySummaryRecord, 'gallery'> {
  const { core, terms } = parts;
  const featured = images.find((media) => media.id === core.featured_image_id) ?? images[0];
  const ofTaxonomy = (taxonomy: TermLinkRow['taxonomy']) => terms.filter((t) => t.taxonomy === taxonomy);
  const location = (taxonomy: TermLinkRow['taxonomy']) => {
    const term = terms.find((t) => t.taxonomy === taxonomy);
    return term ? termRef(term) : null;
  };
  return {
    id: core.id,
    title: core.title,
    slug: core.slug,
    url: listingUrl(urls.listingUrlTemplate, core),
    excerpt: core.excerpt,
    status: core.status,
    reference: core.reference,
    price: numberOrNull(core.price),
    second_price: numberOrNull(core.second_price),
    currency: core.currency,
    price_prefix: core.price_prefix,
    price_postfix: core.price_postfix,
    formatted_price: formatPrice(numberOrNull(core.price), core.currency, core.price_prefix, core.price_postfix),
    bedrooms: core.bedrooms,
    bathrooms: core.bathrooms,
    rooms: core.rooms,
    garage: core.garage,
    garage_size: core.garage_size,
    size: numberOrNull(core.size),
    size_unit: core.size_unit,
    land_size: numberOrNull(core.land_size),
    land_size_unit: core.land_size_unit,
    year_built: core.year_built,
    featured: core.featured === 1,
    address: {
      address: core.address,
      zipcode: core.zipcode,
      country: location('property_country'),
      state: location('property_state'),
      city: location('property_city'),
      area: location('property_area'),
      latitude: numberOrNull(core.latitude),
      longitude: numberOrNull(core.longitude),
    },
    property_type: ofTaxonomy('property_type').map(termRef),
    property_status: ofTaxonomy('property_status').map(colouredTermRef),
    property_label: ofTaxonomy('property_label').map(colouredTermRef),
    features: ofTaxonomy('property_feature').map(termRef),
    featured_image: featured ? toMedia(featured, urls.storage) : null,
    video_url: core.video_url,
    virtual_tour: core.virtual_tour,
    agent_display: core.agent_display,
    agents: parts.agents.map((agent) => ({
      id: agent.id,
      name: agent.name,
      slug: agent.slug,
      url: `${urls.publicUrl}/agent/${encodeURIComponent(agent.slug)}`,
      email: agent.email,
      phone: agent.phone,
      agency_id: agent.agency_id,
    })),
    agency: parts.agency
      ? {
          id: parts.agency.id,
          name: parts.agency.name,
          slug: parts.agency.slug,
          url: `${urls.publicUrl}/agency/${encodeURIComponent(parts.agency.slug)}`,
          email: parts.agency.email,
          phone: parts.agency.phone,
        }
      : null,
    author: core.author_id !== null ? { id: core.author_id, display_name: core.author_display_name ?? '' } : null,
    views: Number(core.views),
    rating: core.rating === null ? null : Math.round(Number(core.rating) * 10) / 10,
    reviews_count: Number(core.reviews_count),
    is_favorite: false,
    created_at: toApiTimestamp(core.created_at),
    updated_at: toApiTimestamp(core.updated_at),
    published_at: core.published_at ? toApiTimestamp(core.published_at) : null,
    expires_at: core.expires_at ? toApiTimestamp(core.expires_at) : null,
  };
}

function termRef(term: TermLinkRow): TermRef {
  return { id: term.id, name: term.name, slug: term.slug };
}

function colouredTermRef(term: TermLinkRow): ColouredTermRef {
  return term.color ? { ...termRef(term), color: term.color } : termRef(term);
}

/** PostgreSQL's `double precision` arrives as a number, but keep both drivers honest. */
function numberOrNull(value: number | string | null): number | null {
  return value === null ? null : Number(value);
}
