import type { ListingState } from '../../db/schema/index.js';
import type { WebhookFilterInput } from './webhooks.schemas.js';

/**
 * What a filter tests of an event, as it was when the event was derived. A facet left out does not apply to the
 * event's type (an agent has no state or city, an invoice none of them): the filter's list for it does not
 * narrow that event (docs/webhooks.md, "Filters").
 */
export interface EventFacets {
  /** The listing's state: the listing's own, or that of the listing a lead or review is about. */
  state?: ListingState | null;
  /** A `listing.state_changed`'s previous state. */
  previous_state?: ListingState;
  types?: string[];
  city?: string | null;
  agent_ids?: number[];
  agency_id?: number | null;
  /** A `listing.updated`'s changed fields; null when they are unknown (the record was not seen before). */
  changed_fields?: string[] | null;
}

/** Whether an event of `type` with these facets passes the endpoint's filter (none: everything passes). */
export function passesFilter(filter: WebhookFilterInput | null, type: string, facets: EventFacets): boolean {
  if (!filter) return true;
  const { states, types, cities, agent_ids, agency_ids, changed_fields } = filter;
  if (states && facets.state !== undefined) {
    const seen = [facets.state, facets.previous_state].filter((state): state is ListingState => state !== null && state !== undefined);
    if (!seen.some((state) => states.includes(state))) return false;
  }
  if (types && facets.types && !facets.types.some((slug) => types.includes(slug))) return false;
  if (cities && facets.city !== undefined && (facets.city === null || !cities.includes(facets.city))) return false;
  if (agent_ids && facets.agent_ids && !facets.agent_ids.some((id) => agent_ids.includes(id))) return false;
  if (agency_ids && facets.agency_id !== undefined && (facets.agency_id === null || !agency_ids.includes(facets.agency_id))) return false;
  if (changed_fields && type === 'listing.updated' && facets.changed_fields) {
    if (!facets.changed_fields.some((field) => changed_fields.includes(field))) return false;
  }
  return true;
}
