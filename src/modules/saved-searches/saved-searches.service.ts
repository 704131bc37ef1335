import type { Kysely } from 'kysely';
import type { DB, Taxonomy } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { type PageWindow, pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import type { Language } from '../../i18n/index.js';
import { plainText } from '../../lib/text.js';
import { nowIso } from '../../lib/time.js';
import {
  searchQueryString,
  normalizeSavedSearchQuery,
  TAXONOMY_OF,
  TAXONOMY_FILTERS,
  type SearchQuery,
  type SearchResult,
  type SearchService,
} from '../search/index.js';
import { displayTextOf, isTermId, termNameLookup } from './display-text.js';
import { toSavedSearch } from './saved-searches.mapper.js';
import * as repository from './saved-searches.repository.js';
import {
  type CreateSavedSearchInput,
  MAX_NAME_LENGTH,
  type SavedSearchesInput,
  type SavedSearchListRecord,
  type SavedSearchRecord,
  type UpdateSavedSearchInput,
} from './saved-searches.schemas.js';

export interface SavedSearchesOptions {
  /** SAVED_SEARCHES_PER_USER (docs/api.md 0.6): the next one is a 409. */
  perUser: number;
}

/**
 * Saved searches (docs/api.md 7): a user's searches, stored as canonical query strings, listed with a text that
 * describes each, and run again on demand (`/matches`) through the search endpoint's own service, so that the
 * matches are exactly what GET /properties/search answers for the same parameters.
 */
export class SavedSearchesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly search: SearchService,
    private readonly options: SavedSearchesOptions,
  ) {}

  /** Saves the search of `query` or `query_string` (exactly one; invalid parameters → 400); the user's limit reached → 409. */
  async create(caller: AuthUser, input: CreateSavedSearchInput, language: Language): Promise<SavedSearchRecord> {
    const query = searchOf(input);
    const [displayText] = await this.displayTexts([query], language);
    const name = input.name === undefined ? defaultName(displayText!) : cleanName(input.name);
    const row = await this.db.transaction().execute(async (trx) => {
      await repository.lockSavedSearchesOf(trx, caller.id);
      if ((await repository.countSavedSearches(trx, caller.id)) >= this.options.perUser) {
        throw new AppError('conflict', 'saved_search_limit_reached', [], { limit: this.options.perUser });
      }
      return repository.insertSavedSearch(trx, {
        userId: caller.id,
        name,
        queryString: searchQueryString(query),
        emailAlerts: input.email_alerts ?? true,
        frequency: input.frequency ?? 'daily',
        createdAt: nowIso(),
      });
    });
    return toSavedSearch(row, query, displayText!);
  }

  /** The caller's saved searches, newest first, paged; their terms are named in one query for the page. */
  async list(caller: AuthUser, input: SavedSearchesInput, language: Language): Promise<SavedSearchListRecord> {
    const window = pageWindow(input);
    const page = await repository.findSavedSearchPage(this.db, caller.id, window);
    const queries = page.rows.map((row) => storedSearch(row.query_string));
    const texts = await this.displayTexts(queries, language);
    return {
      saved_searches: page.rows.map((row, i) => toSavedSearch(row, queries[i]!, texts[i]!)),
      pagination: paginationOf(page.total, window),
    };
  }

  /** One of the caller's saved searches; another user's, or an unknown id → 404. */
  async get(caller: AuthUser, id: number, language: Language): Promise<SavedSearchRecord> {
    const row = await repository.findOwnSavedSearch(this.db, caller.id, id);
    if (!row) throw AppError.notFound();
    const query = storedSearch(row.query_string);
    const [displayText] = await this.displayTexts([query], language);
    return toSavedSearch(row, query, displayText!);
  }

  /** Renames the caller's saved search or changes its alerts; the search itself stays. Another user's → 404. */
  async update(caller: AuthUser, id: number, input: UpdateSavedSearchInput, language: Language): Promise<SavedSearchRecord> {
    if (input.name === undefined && input.email_alerts === undefined && input.frequency === undefined) {
      throw AppError.invalidField('(root)', 'saved_search_rule_update_empty');
    }
    const row = await repository.updateOwnSavedSearch(this.db, caller.id, id, {
      ...(input.name !== undefined ? { name: cleanName(input.name) } : {}),
      ...(input.email_alerts !== undefined ? { emailAlerts: input.email_alerts } : {}),
      ...(input.frequency !== undefined ? { frequency: input.frequency } : {}),
      updatedAt: nowIso(),
    });
    if (!row) throw AppError.notFound();
    const query = storedSearch(row.query_string);
    const [displayText] = await this.displayTexts([query], language);
    return toSavedSearch(row, query, displayText!);
  }

  /** Deletes the caller's saved search (and what it has matched); another user's, or one already deleted → 404. */
  async delete(caller: AuthUser, id: number): Promise<void> {
    if (!(await repository.deleteOwnSavedSearch(this.db, caller.id, id))) throw AppError.notFound();
  }

  /** The listings the caller's saved search finds now: the answer of GET /properties/search for its parameters. */
  async matches(caller: AuthUser, id: number, window: PageWindow): Promise<SearchResult> {
    const row = await repository.findOwnSavedSearch(this.db, caller.id, id);
    if (!row) throw AppError.notFound();
    return this.search.search(caller, await this.search.resolve(storedSearch(row.query_string)), window);
  }

  /** The display text of each search, with the terms of all of them named by one query. */
  private async displayTexts(queries: readonly SearchQuery[], language: Language): Promise<string[]> {
    const taxonomies = new Set<Taxonomy>();
    const values = new Set<string>();
    for (const query of queries) {
      for (const filter of TAXONOMY_FILTERS) {
        const given = query.terms?.[filter];
        if (!given?.length) continue;
        taxonomies.add(TAXONOMY_OF[filter]);
        for (const value of given) values.add(value);
      }
    }
    const slugs = [...values].filter((value) => !isTermId(value));
    const ids = [...values].filter(isTermId).map(Number);
    const termName = termNameLookup(await repository.findNamedTerms(this.db, [...taxonomies], slugs, ids));
    return queries.map((query) => displayTextOf(query, termName, language));
  }
}

/** The search a create body describes: exactly one of `query` and `query_string`. */
function searchOf(input: CreateSavedSearchInput): SearchQuery {
  if (input.query !== undefined && input.query_string !== undefined)
    throw AppError.invalidField('query_string', 'saved_search_rule_query_both');
  if (input.query === undefined && input.query_string === undefined)
    throw AppError.invalidField('query', 'saved_search_rule_query_missing');
  return normalizeSavedSearchQuery(input.query ?? input.query_string!);
}

/** A stored query string read back: it was written canonical by searchQueryString, so it reads as it was saved. */
function storedSearch(queryString: string): SearchQuery {
  return normalizeSavedSearchQuery(queryString);
}

/** C0 and C1 controls and the Unicode line and paragraph separators: a name is one line. */
const CONTROLS = /[\p{Cc}\u2028\u2029]/gu;

function oneLine(text: string): string {
  return plainText(text).replace(CONTROLS, ' ').replace(/\s+/g, ' ').trim();
}

/** A name as given (docs/api.md 0.4, 12): plain text on one line; nothing left → 400. */
function cleanName(name: string): string {
  const cleaned = oneLine(name);
  if (cleaned === '') throw AppError.invalidField('name', 'saved_search_rule_blank_name');
  return cleaned;
}

/** Without a name, the search is named by its display text, cut to the longest name allowed. */
function defaultName(displayText: string): string {
  const chars = [...oneLine(displayText)];
  return chars.length <= MAX_NAME_LENGTH
    ? chars.join('')
    : `${chars
        .slice(0, MAX_NAME_LENGTH - 1)
        .join('')
        .trimEnd()}…`;
}
