import type { RequestBody } from '@realty-api/client';
import type { AgentDisplay, AreaUnit, ListingRecord, MediaRecord } from '../types';

/**
 * The listing form's values and their mapping to and from the API (docs/api.md 4.1 record, 4.6 body). Field
 * names are the body's own, so the API's field errors (`price`, `floor_plans.0.rooms`) land on the right
 * control. Numbers are kept as the text of their inputs ('' = none); term and location ids as text too
 * (the values of checkboxes and selects). The gallery keeps its media records for the thumbnails.
 */
export interface FloorPlanValues {
  title: string;
  rooms: string;
  bathrooms: string;
  price: string;
  price_postfix: string;
  size: string;
  size_postfix: string;
  description: string;
  image_url: string;
}

export interface GalleryItem {
  id: number;
  url: string;
  thumbnail: string;
  alt: string;
}

export interface ListingFormValues {
  title: string;
  description: string;
  reference: string;
  price: string;
  second_price: string;
  currency: string;
  price_prefix: string;
  price_postfix: string;
  bedrooms: string;
  bathrooms: string;
  rooms: string;
  garage: string;
  garage_size: string;
  size: string;
  size_unit: AreaUnit;
  land_size: string;
  land_size_unit: AreaUnit;
  year_built: string;
  type_ids: string[];
  status_ids: string[];
  label_ids: string[];
  feature_ids: string[];
  country: string;
  state: string;
  city: string;
  area: string;
  address: string;
  zipcode: string;
  latitude: string;
  longitude: string;
  gallery: GalleryItem[];
  featured_image_id: string;
  floor_plans: FloorPlanValues[];
  additional_features: { title: string; value: string }[];
  video_url: string;
  virtual_tour: string;
  agent_display: AgentDisplay;
  agent_ids: string[];
}

/**
 * The body of POST/PUT /properties (docs/api.md 4.6), as this form writes it: the update's body, every field
 * optional (a create's always carries the title).
 */
export type ListingRequestBody = RequestBody<'/realty-api/v1/properties/{id}', 'put'>;

export const EMPTY_FLOOR_PLAN: FloorPlanValues = {
  title: '',
  rooms: '',
  bathrooms: '',
  price: '',
  price_postfix: '',
  size: '',
  size_postfix: '',
  description: '',
  image_url: '',
};

/** A new listing's form: empty, with the units and display the API would choose. */
export function emptyFormValues(options: { agentId?: number | null } = {}): ListingFormValues {
  const agentId = options.agentId ?? null;
  return {
    title: '',
    description: '',
    reference: '',
    price: '',
    second_price: '',
    currency: '',
    price_prefix: '',
    price_postfix: '',
    bedrooms: '',
    bathrooms: '',
    rooms: '',
    garage: '',
    garage_size: '',
    size: '',
    size_unit: 'sqft',
    land_size: '',
    land_size_unit: 'sqft',
    year_built: '',
    type_ids: [],
    status_ids: [],
    label_ids: [],
    feature_ids: [],
    country: '',
    state: '',
    city: '',
    area: '',
    address: '',
    zipcode: '',
    latitude: '',
    longitude: '',
    gallery: [],
    featured_image_id: '',
    floor_plans: [],
    additional_features: [],
    video_url: '',
    virtual_tour: '',
    agent_display: agentId !== null ? 'agent_info' : 'author_info',
    agent_ids: agentId !== null ? [String(agentId)] : [],
  };
}

const numberText = (value: number | null | undefined): string =>
  value === null || value === undefined || !Number.isFinite(value) ? '' : String(value);
const idText = (term: { id: number } | null | undefined): string => (term ? String(term.id) : '');
const idsText = (terms: readonly { id: number }[] | undefined): string[] => (terms ?? []).map((term) => String(term.id));

export function toGalleryItem(media: MediaRecord): GalleryItem {
  return {
    id: media.id,
    url: media.url,
    thumbnail: media.sizes?.thumbnail?.url ?? media.sizes?.medium?.url ?? media.url,
    alt: media.alt || media.title || '',
  };
}

/** The form's values for an existing listing (the full record of GET /properties/{id}). */
export function toFormValues(record: ListingRecord): ListingFormValues {
  return {
    title: record.title,
    description: record.description ?? '',
    reference: record.reference,
    price: numberText(record.price),
    second_price: numberText(record.second_price),
    currency: record.currency,
    price_prefix: record.price_prefix,
    price_postfix: record.price_postfix,
    bedrooms: numberText(record.bedrooms),
    bathrooms: numberText(record.bathrooms),
    rooms: numberText(record.rooms),
    garage: numberText(record.garage),
    garage_size: record.garage_size,
    size: numberText(record.size),
    size_unit: record.size_unit,
    land_size: numberText(record.land_size),
    land_size_unit: record.land_size_unit,
    year_built: numberText(record.year_built),
    type_ids: idsText(record.property_type),
    status_ids: idsText(record.property_status),
    label_ids: idsText(record.property_label),
    feature_ids: idsText(record.features),
    country: idText(record.address.country),
    state: idText(record.address.state),
    city: idText(record.address.city),
    area: idText(record.address.area),
    address: record.address.address,
    zipcode: record.address.zipcode,
    latitude: numberText(record.address.latitude),
    longitude: numberText(record.address.longitude),
    gallery: record.gallery.map(toGalleryItem),
    featured_image_id: idText(record.featured_image),
    floor_plans: (record.floor_plans ?? []).map((plan) => ({
      title: plan.title,
      rooms: numberText(plan.rooms),
      bathrooms: numberText(plan.bathrooms),
      price: numberText(plan.price),
      price_postfix: plan.price_postfix,
      size: numberText(plan.size),
      size_postfix: plan.size_postfix,
      description: plan.description,
      image_url: plan.image_url,
    })),
    additional_features: (record.additional_features ?? []).map(({ title, value }) => ({ title, value })),
    video_url: record.video_url,
    virtual_tour: record.virtual_tour,
    agent_display: record.agent_display,
    agent_ids: idsText(record.agents),
  };
}

/**
 * The text of a number input as the API's number: '' → null; anything that is not a number is sent as
 * typed, so that the API names the field in its 400 answer rather than the form guessing.
 */
export function parseNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : (trimmed as unknown as number);
}

function parseId(text: string): number | null {
  return text === '' ? null : Number(text);
}

const parseIds = (texts: readonly string[]): number[] => [...new Set(texts.filter((text) => text !== '').map(Number))];

export interface BodyOptions {
  /** `create` leaves out what is empty, so the API's defaults apply; `update` sends every field (null clears). */
  mode: 'create' | 'update';
  /** Create as a draft (create only: a listing that is not a draft cannot become one, 409). */
  draft?: boolean;
}

/** The create/update body (docs/api.md 4.6) of the form's values. */
export function toRequestBody(values: ListingFormValues, options: BodyOptions): ListingRequestBody {
  const mediaIds = [...new Set(values.gallery.map((item) => item.id))];
  const featured = parseId(values.featured_image_id);
  const body: ListingRequestBody = {
    title: values.title.trim(),
    description: values.description,
    reference: values.reference,
    price: parseNumber(values.price),
    second_price: parseNumber(values.second_price),
    currency: values.currency.trim().toUpperCase(),
    price_prefix: values.price_prefix,
    price_postfix: values.price_postfix,
    bedrooms: parseNumber(values.bedrooms),
    bathrooms: parseNumber(values.bathrooms),
    rooms: parseNumber(values.rooms),
    garage: parseNumber(values.garage),
    garage_size: values.garage_size,
    size: parseNumber(values.size),
    size_unit: values.size_unit,
    land_size: parseNumber(values.land_size),
    land_size_unit: values.land_size_unit,
    year_built: parseNumber(values.year_built),
    type_ids: parseIds(values.type_ids),
    status_ids: parseIds(values.status_ids),
    label_ids: parseIds(values.label_ids),
    feature_ids: parseIds(values.feature_ids),
    country: parseId(values.country),
    state: parseId(values.state),
    city: parseId(values.city),
    area: parseId(values.area),
    address: values.address,
    zipcode: values.zipcode,
    latitude: parseNumber(values.latitude),
    longitude: parseNumber(values.longitude),
    media_ids: mediaIds,
    featured_image_id: featured !== null && mediaIds.includes(featured) ? featured : null,
    floor_plans: values.floor_plans.map((plan) => ({
      title: plan.title,
      rooms: parseNumber(plan.rooms),
      bathrooms: parseNumber(plan.bathrooms),
      price: parseNumber(plan.price),
      price_postfix: plan.price_postfix,
      size: parseNumber(plan.size),
      size_postfix: plan.size_postfix,
      description: plan.description,
      image_url: plan.image_url,
    })),
    additional_features: values.additional_features.map(({ title, value }) => ({ title, value })),
    video_url: values.video_url.trim(),
    virtual_tour: values.virtual_tour.trim(),
    agent_display: values.agent_display,
    agent_ids: parseIds(values.agent_ids),
  };
  // An empty currency is not a currency: the API keeps (or defaults) its own.
  if (body.currency === '') delete body.currency;
  if (options.mode === 'update') return body;
  // The title stays even when empty: the API's "title" error then lands on its field.
  const created: ListingRequestBody = { title: body.title };
  for (const [key, value] of Object.entries(body) as [keyof ListingRequestBody, unknown][]) {
    if (value === null || value === '' || (Array.isArray(value) && value.length === 0)) continue;
    (created as Record<string, unknown>)[key] = value;
  }
  if (options.draft) created.draft = true;
  return created;
}
