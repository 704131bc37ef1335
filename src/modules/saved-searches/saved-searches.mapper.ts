import { toApiTimestamp } from '../../lib/time.js';
import { searchQueryParams, type SearchQuery } from '../search/index.js';
import type { SavedSearchRow } from './saved-searches.repository.js';
import {
  type CanonicalParam,
  PARAM_KINDS,
  type SavedSearchQueryRecordValue,
  type SavedSearchQueryValue,
  type SavedSearchRecord,
} from './saved-searches.schemas.js';

/** The saved search record (docs/api.md 7) of a row, its search read back from the stored query string, and its text. */
export function toSavedSearch(row: SavedSearchRow, query: SearchQuery, displayText: string): SavedSearchRecord {
  return {
    id: row.id,
    name: row.name,
    query: queryRecordOf(query),
    query_string: row.query_string,
    display_text: displayText,
    email_alerts: row.email_alerts === 1,
    frequency: row.frequency,
    last_notified_at: row.last_notified_at === null ? null : toApiTimestamp(row.last_notified_at),
    created_at: toApiTimestamp(row.created_at),
  };
}

/** The canonical parameters of a search (search-query.ts) with typed values: the record's `query`. */
function queryRecordOf(query: SearchQuery): SavedSearchQueryRecordValue {
  const record: SavedSearchQueryRecordValue = {};
  for (const [name, text] of Object.entries(searchQueryParams(query))) {
    const kind = PARAM_KINDS[name as CanonicalParam];
    // `facets` belongs to one request, never to a saved search (the schema refuses it), so it has no kind.
    if (kind !== undefined) record[name as CanonicalParam] = typedValue(kind, text);
  }
  return record;
}

function typedValue(kind: (typeof PARAM_KINDS)[CanonicalParam], text: string): SavedSearchQueryValue {
  switch (kind) {
    case 'terms':
      return text.split(',');
    case 'ids':
      return text.split(',').map(Number);
    case 'number':
      return Number(text);
    case 'flag':
      return true;
    case 'text':
      return text;
  }
}
