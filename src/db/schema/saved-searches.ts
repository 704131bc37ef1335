import type { Generated } from 'kysely';

/** Saved searches and the listings they matched. */
export interface SavedSearchesTables {
  saved_searches: SavedSearchesTable;
  saved_search_matches: SavedSearchMatchesTable;
}

export type SavedSearchFrequency = 'instant' | 'daily' | 'weekly';

/** docs/api.md 7: a user's search, kept as its canonical query string (migration 0007). */
export interface SavedSearchesTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  query_string: string;
  email_alerts: Generated<number>;
  frequency: Generated<SavedSearchFrequency>;
  last_notified_at: Generated<string | null>;
  created_at: string;
  updated_at: string;
}

/** A listing that matched a saved search, announced once (filled by the alerts job of the notifications issue). */
interface SavedSearchMatchesTable {
  saved_search_id: number;
  listing_id: number;
  matched_at: string;
  /** Null until the match was announced (at once, or in the next digest). */
  notified_at: Generated<string | null>;
}
