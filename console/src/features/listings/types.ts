/** The API's records this feature reads (docs/api.md 4.1, 9, 1.1, 3.3), as the OpenAPI document types them. */
import type { Schemas } from '@realty-api/client';

export type ListingState = Schemas['Property']['status'];
export const LISTING_STATES = [
  'draft',
  'pending',
  'publish',
  'on_hold',
  'disapproved',
  'expired',
  'sold',
] as const satisfies readonly ListingState[];

export type AgentDisplay = Schemas['Property']['agent_display'];
export const AGENT_DISPLAYS = ['agent_info', 'agency_info', 'author_info', 'none'] as const satisfies readonly AgentDisplay[];

export type AreaUnit = Schemas['Property']['size_unit'];
export const AREA_UNITS = ['sqft', 'm2'] as const satisfies readonly AreaUnit[];

/** A term as a listing carries it; status and label terms also have a colour. */
export type TermRef = Schemas['Property']['property_status'][number];

export type MediaRecord = Schemas['Media'];

/** An agent of a listing, as the agents picker needs one. */
export type AgentSummary = Pick<Schemas['Property']['agents'][number], 'id' | 'name' | 'agency_id'>;

/** A listing as GET /properties/{id} answers it (the full record). */
export type ListingRecord = Schemas['Property'];

/** A listing as the lists answer it (GET /users/my-properties): no description, floor plans or attachments. */
export type ListingSummary = Schemas['PropertySummary'];

/** A term of a taxonomy listing (docs/api.md 1.1); a place's centre (1.3) is set by an administrator, or its listings' mean. */
export type TermRecord = Schemas['Term'];
