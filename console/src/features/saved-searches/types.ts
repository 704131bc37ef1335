import type { Schemas } from '@realty-api/client';

/** A saved search as the API answers it (docs/api.md 7). */
export type SavedSearch = Schemas['SavedSearch'];

/** A term of the listing endpoints (docs/api.md 1.1), as the pickers need it. */
export type Term = Pick<Schemas['Term'], 'id' | 'name' | 'slug'>;

/** The API resource of one saved search's current matches (its id in `meta.params.id`). */
export const MATCHES_RESOURCE = 'saved-searches-matches';
