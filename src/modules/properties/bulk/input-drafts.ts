import type { ListingState, NewListing } from '../../../db/schema/index.js';
import type { FieldError } from '../../../lib/errors.js';
import { cleanListingColumns } from '../listing-input.js';
import { expiryOnPublish } from '../moderation/listing-states.js';
import type { UpdatePropertyInput } from '../properties.schemas.js';
import type { TermLink } from '../properties.repository.js';
import type { ListingDraft } from './listing-drafts.js';

/** The listing rules a new listing's row depends on (config `listings`). */
export interface DraftRules {
  defaultCurrency: string;
  ttlDays: number | undefined;
}

/**
 * A new listing as an importer has it: the API's fields (docs/api.md 4.6, checked against its schema) with every
 * link resolved to ids, and the slug the importer chose.
 */
export interface ListingInputDraft {
  /** Scalar fields; term, location, gallery and agent fields are ignored here (given resolved below). */
  input: UpdatePropertyInput;
  status: ListingState;
  slug: string;
  authorId: number;
  agencyId: number | null;
  /** Term links in order, locations included. */
  terms: readonly TermLink[];
  agentIds: readonly number[];
}

/**
 * The bulk path's draft of a new listing, its columns cleaned as the API cleans a create (listing-input.ts
 * `cleanListingColumns`) and its row complete: every draft names every column, as one write needs. Problems the
 * schema cannot see come back as field errors instead of a draft.
 */
export function draftOfInput(given: ListingInputDraft, rules: DraftRules, now: Date): { draft: ListingDraft } | { errors: FieldError[] } {
  const errors: FieldError[] = [];
  const columns = cleanListingColumns(given.input, errors);
  if (errors.length > 0) return { errors };
  const at = now.toISOString();
  const published = given.status === 'publish';
  const row: NewListing = {
    slug: given.slug,
    title: columns.title!,
    sort_title: columns.sort_title!,
    description: columns.description ?? '',
    excerpt: columns.excerpt ?? '',
    status: given.status,
    author_id: given.authorId,
    reference: columns.reference ?? '',
    price: columns.price ?? null,
    second_price: columns.second_price ?? null,
    currency: columns.currency ?? rules.defaultCurrency,
    price_prefix: columns.price_prefix ?? '',
    price_postfix: columns.price_postfix ?? '',
    bedrooms: columns.bedrooms ?? null,
    bathrooms: columns.bathrooms ?? null,
    rooms: columns.rooms ?? null,
    garage: columns.garage ?? null,
    garage_size: columns.garage_size ?? '',
    size: columns.size ?? null,
    size_unit: columns.size_unit ?? 'sqft',
    land_size: columns.land_size ?? null,
    land_size_unit: columns.land_size_unit ?? 'sqft',
    year_built: columns.year_built ?? null,
    featured: given.input.featured ? 1 : 0,
    address: columns.address ?? '',
    zipcode: columns.zipcode ?? '',
    latitude: columns.latitude ?? null,
    longitude: columns.longitude ?? null,
    video_url: columns.video_url ?? '',
    virtual_tour: columns.virtual_tour ?? '',
    views: 0,
    agency_id: given.agencyId,
    agent_display: columns.agent_display ?? 'author_info',
    additional_features: columns.additional_features ?? '[]',
    floor_plans: columns.floor_plans ?? '[]',
    featured_image_id: null,
    created_at: at,
    updated_at: at,
    published_at: published ? at : null,
    expires_at: (published ? expiryOnPublish(null, now, rules.ttlDays) : undefined) ?? null,
  };
  return { draft: { row, terms: given.terms, agentIds: given.agentIds, gallery: [], reviews: [] } };
}
