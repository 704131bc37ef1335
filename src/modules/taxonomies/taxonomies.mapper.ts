import type { TermWithLocationParent } from './taxonomies.repository.js';
import type { TermRecord } from './taxonomies.schemas.js';

const LOCATION_PARENT_KEY = {
  property_state: 'parent_country',
  property_city: 'parent_state',
  property_area: 'parent_city',
} as const;

/** Row → API term: `parent` 0 for none; optional fields only when set (docs/api.md 12). */
export function toTerm(row: TermWithLocationParent): TermRecord {
  const term: TermRecord = {
    id: row.id,
    name: row.name,
    slug: row.slug,
    description: row.description,
    count: Number(row.count),
    parent: row.parent_id ?? 0,
  };
  if (row.image_url) term.image_url = row.image_url;
  if (row.marker_icon_url) term.marker_icon_url = row.marker_icon_url;
  if (row.marker_retina_icon_url) term.marker_retina_icon_url = row.marker_retina_icon_url;
  if (row.custom_link) term.custom_link = row.custom_link;
  if (row.color) term.color = row.color;
  if (row.latitude !== null && row.longitude !== null) term.center = { latitude: row.latitude, longitude: row.longitude };
  const locationKey = LOCATION_PARENT_KEY[row.taxonomy as keyof typeof LOCATION_PARENT_KEY];
  if (locationKey && row.location_parent_id !== null && row.location_parent_name !== null) {
    term[locationKey] = {
      id: row.location_parent_id,
      name: row.location_parent_name,
      slug: row.location_parent_slug ?? '',
    };
  }
  return term;
}
