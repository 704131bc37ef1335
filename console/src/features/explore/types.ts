import type { Pagination } from '../../api/client';
import type { Facets } from './explore-state';

/** A term as a listing carries it (docs/api.md 4.1); status and label terms also have a colour. */
interface Term {
  id: number;
  name: string;
  slug: string;
  color?: string;
}

interface ImageSize {
  url: string;
  width: number;
  height: number;
}

export interface Media {
  id: number;
  url: string;
  width: number | null;
  height: number | null;
  alt: string;
  title: string;
  caption: string;
  sizes: Partial<Record<'thumbnail' | 'medium' | 'large', ImageSize>>;
}

interface AgentSummary {
  id: number;
  name: string;
  email?: string;
  phone?: string;
}

interface AgencySummary {
  id: number;
  name: string;
  email?: string;
  phone?: string;
}

/** A search result: the listing record without description, floor plans and additional features. */
export interface ListingSummary {
  id: number;
  title: string;
  excerpt: string;
  status: string;
  reference: string;
  price: number | null;
  currency: string;
  price_prefix: string;
  price_postfix: string;
  formatted_price: string;
  bedrooms: number | null;
  bathrooms: number | null;
  rooms: number | null;
  garage: number | null;
  size: number | null;
  size_unit: 'sqft' | 'm2';
  land_size: number | null;
  land_size_unit: 'sqft' | 'm2';
  year_built: number | null;
  featured: boolean;
  address: {
    address: string;
    zipcode: string;
    country: Term | null;
    state: Term | null;
    city: Term | null;
    area: Term | null;
    latitude: number | null;
    longitude: number | null;
  };
  property_type: Term[];
  property_status: Term[];
  property_label: Term[];
  features: Term[];
  featured_image: Media | null;
  gallery: Media[];
  agent_display: 'agent_info' | 'agency_info' | 'author_info' | 'none';
  agents: AgentSummary[];
  agency: AgencySummary | null;
  author: { id: number; display_name: string } | null;
}

/** GET /properties/{id}: the whole record. */
export interface Listing extends ListingSummary {
  description: string;
  additional_features: { title: string; value: string }[];
  published_at: string | null;
}

/** GET /properties/search with `facets`. */
export interface SearchAnswer {
  properties: ListingSummary[];
  pagination: Pagination;
  facets?: Facets;
}

export interface Cluster {
  latitude: number;
  longitude: number;
  count: number;
  property_id?: number;
}

/** GET /properties/search/map. */
export interface ClusterAnswer {
  clusters: Cluster[];
  total: number;
}
