import type { Generated } from 'kysely';
import type { Taxonomy } from './taxonomies.js';

/** The directory: agencies and agents. */
export interface DirectoryTables {
  agencies: AgenciesTable;
  agents: AgentsTable;
  agent_terms: AgentTermsTable;
}

export interface AgenciesTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  slug: string;
  sort_key: string;
  email: Generated<string>;
  phone: Generated<string>;
  description: Generated<string>;
  mobile: Generated<string>;
  whatsapp: Generated<string>;
  fax: Generated<string>;
  website: Generated<string>;
  license: Generated<string>;
  tax_number: Generated<string>;
  address: Generated<string>;
  latitude: Generated<number | null>;
  longitude: Generated<number | null>;
  /** JSON object of profile URLs (docs/api.md 5.1 `social`). */
  social: Generated<string>;
  logo_media_id: Generated<number | null>;
  /** Sum of the ratings of the agency's reviews; the average is computed from it and `reviews_count`. */
  rating_sum: Generated<number>;
  reviews_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface AgentsTable {
  id: Generated<number>;
  user_id: number | null;
  agency_id: number | null;
  name: string;
  slug: string;
  sort_key: string;
  email: Generated<string>;
  phone: Generated<string>;
  visible: Generated<number>;
  position: Generated<string>;
  company: Generated<string>;
  bio: Generated<string>;
  mobile: Generated<string>;
  whatsapp: Generated<string>;
  fax: Generated<string>;
  website: Generated<string>;
  license: Generated<string>;
  tax_number: Generated<string>;
  service_areas: Generated<string>;
  specialties: Generated<string>;
  /** JSON array of language names. */
  languages: Generated<string>;
  /** JSON object of profile URLs (docs/api.md 5.1 `social`). */
  social: Generated<string>;
  picture_media_id: Generated<number | null>;
  /** Sum of the ratings of the agent's reviews; the average is computed from it and `reviews_count`. */
  rating_sum: Generated<number>;
  reviews_count: Generated<number>;
  created_at: string;
  updated_at: string;
}

interface AgentTermsTable {
  agent_id: number;
  term_id: number;
  /** `agent_category` or `agent_city`. */
  taxonomy: Taxonomy;
  position: Generated<number>;
}
