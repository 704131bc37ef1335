/** The API's records this feature reads (docs/api.md 4.1, 9, 1.1, 3.3). */

export const LISTING_STATES = ['draft', 'pending', 'publish', 'on_hold', 'disapproved', 'expired', 'sold'] as const;
export type ListingState = (typeof LISTING_STATES)[number];

export const AGENT_DISPLAYS = ['agent_info', 'agency_info', 'author_info', 'none'] as const;
export type AgentDisplay = (typeof AGENT_DISPLAYS)[number];

export const AREA_UNITS = ['sqft', 'm2'] as const;
export type AreaUnit = (typeof AREA_UNITS)[number];

export interface TermRef {
  id: number;
  name: string;
  slug: string;
  color?: string;
}

interface MediaSize {
  url: string;
  width: number;
  height: number;
}

export interface MediaRecord {
  id: number;
  url: string;
  mime_type: string;
  width: number | null;
  height: number | null;
  title: string;
  alt: string;
  sizes?: { thumbnail?: MediaSize; medium?: MediaSize; large?: MediaSize };
}

interface FloorPlanRecord {
  title: string;
  rooms: number | null;
  bathrooms: number | null;
  price: number | null;
  price_postfix: string;
  size: number | null;
  size_postfix: string;
  description: string;
  image_url: string;
}

export interface AgentSummary {
  id: number;
  name: string;
  agency_id?: number | null;
}

/** A listing as GET /properties/{id} answers it (the full record); list items omit some arrays. */
export interface ListingRecord {
  id: number;
  title: string;
  slug: string;
  url: string;
  description?: string;
  excerpt: string;
  status: ListingState;
  reference: string;
  price: number | null;
  second_price: number | null;
  currency: string;
  price_prefix: string;
  price_postfix: string;
  formatted_price: string;
  bedrooms: number | null;
  bathrooms: number | null;
  rooms: number | null;
  garage: number | null;
  garage_size: string;
  size: number | null;
  size_unit: AreaUnit;
  land_size: number | null;
  land_size_unit: AreaUnit;
  year_built: number | null;
  featured: boolean;
  address: {
    address: string;
    zipcode: string;
    country: TermRef | null;
    state: TermRef | null;
    city: TermRef | null;
    area: TermRef | null;
    latitude: number | null;
    longitude: number | null;
  };
  property_type: TermRef[];
  property_status: TermRef[];
  property_label: TermRef[];
  features: TermRef[];
  featured_image: MediaRecord | null;
  gallery: MediaRecord[];
  floor_plans?: FloorPlanRecord[];
  additional_features?: { title: string; value: string }[];
  video_url: string;
  virtual_tour: string;
  agent_display: AgentDisplay;
  agents: AgentSummary[];
  agency: { id: number; name: string } | null;
  created_at: string;
  updated_at: string;
  published_at: string | null;
}

/** A term of a taxonomy listing (docs/api.md 1.1). */
export interface TermRecord {
  id: number;
  name: string;
  slug: string;
  parent: number;
  color?: string;
  parent_country?: TermRef;
  parent_state?: TermRef;
  parent_city?: TermRef;
  /** A place's centre (docs/api.md 1.3): set by an administrator, or (GET /terms/{taxonomy}/{id}) its listings' mean. */
  center?: { latitude: number; longitude: number };
}

/** One state move of a listing (GET /properties/{id}/history). */
export interface HistoryEntry {
  from: ListingState | null;
  to: ListingState;
  actor: { id: number; display_name: string } | null;
  reason: string;
  at: string;
}
