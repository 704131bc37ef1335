import type { TaxonomyDefinition, TermRecord } from './taxonomies';

export const IMAGE_FIELDS = ['image_url', 'marker_icon_url', 'marker_retina_icon_url', 'custom_link'] as const;

/** The term editor's values: every control holds a string or a switch. */
export interface TermFormValues {
  name: string;
  slug: string;
  description: string;
  /** The parent term's id, '0' for the top level. */
  parent: string;
  /** Whether the term has a colour (an `<input type="color">` always holds one). */
  color_set: boolean;
  color: string;
  image_url: string;
  marker_icon_url: string;
  marker_retina_icon_url: string;
  custom_link: string;
  /** The place of the level above (states: a country, …), '' for none. */
  location_parent: string;
  /** A place's centre, '' for none (then the listings' mean is used). */
  latitude: string;
  longitude: string;
}

/** The body of POST / PUT /terms/{taxonomy}[/{id}] (docs/api.md 1.3). */
export type TermBody = Record<string, string | number | null>;

const DEFAULT_COLOUR = '#607d8b';

export function emptyTermForm(parent = 0, locationParent?: number): TermFormValues {
  return {
    name: '',
    slug: '',
    description: '',
    parent: String(parent),
    color_set: false,
    color: DEFAULT_COLOUR,
    image_url: '',
    marker_icon_url: '',
    marker_retina_icon_url: '',
    custom_link: '',
    location_parent: locationParent === undefined ? '' : String(locationParent),
    latitude: '',
    longitude: '',
  };
}

export function termToForm(term: TermRecord, definition: TaxonomyDefinition): TermFormValues {
  const above = definition.location ? term[definition.location.recordField] : undefined;
  return {
    name: term.name,
    slug: term.slug,
    description: term.description,
    parent: String(term.parent),
    color_set: term.color !== undefined,
    color: term.color ?? DEFAULT_COLOUR,
    image_url: term.image_url ?? '',
    marker_icon_url: term.marker_icon_url ?? '',
    marker_retina_icon_url: term.marker_retina_icon_url ?? '',
    custom_link: term.custom_link ?? '',
    location_parent: above ? String(above.id) : '',
    latitude: term.center ? String(term.center.latitude) : '',
    longitude: term.center ? String(term.center.longitude) : '',
  };
}

/**
 * The editor's values as the API's body. Fields the taxonomy does not take are left out (the API refuses
 * them). A create leaves unset optional fields out; an update sends every field, with `null` clearing an
 * optional one (docs/api.md 1.3: PUT takes null to clear). An empty slug is left out: the API makes one from
 * the name on create and keeps the current one on update.
 */
export function formToTermBody(values: TermFormValues, definition: TaxonomyDefinition, mode: 'create' | 'edit'): TermBody {
  const body: TermBody = { name: values.name.trim() };
  const slug = values.slug.trim();
  if (slug !== '') body.slug = slug;
  const description = values.description.trim();
  if (mode === 'edit' || description !== '') body.description = description;
  const parent = Number.parseInt(values.parent, 10);
  if (mode === 'edit' || parent > 0) body.parent = Number.isFinite(parent) && parent > 0 ? parent : 0;
  if (definition.coloured) {
    if (values.color_set) body.color = values.color.toLowerCase();
    else if (mode === 'edit') body.color = null;
  }
  if (definition.images) {
    for (const field of IMAGE_FIELDS) {
      const value = values[field].trim();
      if (value !== '') body[field] = value;
      else if (mode === 'edit') body[field] = null;
    }
  }
  if (definition.place) {
    // Both or neither: one alone is sent as it is, for the API to name the missing one.
    const [latitude, longitude] = [values.latitude.trim(), values.longitude.trim()];
    if (latitude !== '' || longitude !== '') {
      body.latitude = latitude === '' ? null : Number(latitude);
      body.longitude = longitude === '' ? null : Number(longitude);
    } else if (mode === 'edit') {
      body.latitude = null;
      body.longitude = null;
    }
  }
  if (definition.location) {
    const place = Number.parseInt(values.location_parent, 10);
    if (Number.isFinite(place) && place > 0) body[definition.location.field] = place;
    else if (mode === 'edit') body[definition.location.field] = null;
  }
  return body;
}
