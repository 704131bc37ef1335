import type { Frequency } from './query';

/** A saved search as the API answers it (docs/api.md 7). */
export interface SavedSearch {
  id: number;
  name: string;
  query: Record<string, unknown>;
  query_string: string;
  display_text: string;
  email_alerts: boolean;
  frequency: Frequency;
  last_notified_at: string | null;
  created_at: string;
}

/** A term of the listing endpoints (docs/api.md 1.1), as the pickers need it. */
export interface Term {
  id: number;
  name: string;
  slug: string;
}

/** The API resource of one saved search's current matches (its id in `meta.params.id`). */
export const MATCHES_RESOURCE = 'saved-searches-matches';
