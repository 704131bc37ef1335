import { kyselyCacheVersionReader } from '../../../db/cache-versions.js';
import {
  type MatchableListing,
  matchesListing,
  normalizeSavedSearchQuery,
  TAXONOMY_OF,
  type SearchService,
  type SearchQuery,
  type TaxonomyFilter,
} from '../../search/index.js';
import * as repository from './saved-search-alerts.repository.js';
import {
  anchorsOf,
  type CompiledQuery,
  compileQuery,
  passesPrefilter,
  type SelectionRef,
  setResolution,
  type TermIds,
  type TermResolution,
  termResolution,
} from './saved-search-compiled.js';
import type { Executor } from '../../../db/executor.js';

const SEARCH_TAXONOMIES = [...new Set(Object.values(TAXONOMY_OF))];

/** One term parameter's values as saved (e.g. city=miami,tampa), resolved on its own. */
interface TermList {
  readonly filter: TaxonomyFilter;
  readonly values: readonly string[];
  ids: number[];
  readonly selections: Set<Selection>;
}

/** One distinct set of term parameters (query.terms), shared by the queries naming it. */
interface Selection extends SelectionRef {
  readonly terms: NonNullable<SearchQuery['terms']>;
  readonly lists: readonly TermList[];
  resolution: TermResolution;
  readonly queries: Set<CompiledQuery>;
}

/**
 * Every saved search compiled for matching newly published listings (saved-search-alerts.service.ts), so that a call
 * parses and resolves nothing. Each distinct query string is parsed once by normalizeSavedSearchQuery (as
 * SavedSearchesService reads it back); its term slugs become ids through resolveTerms, the function behind
 * SearchService.resolve, called once per distinct parameter value list (`city=miami,tampa`). NOTE: that relies
 * on resolveTerms resolving each parameter on its own (ResolvedSearch: per parameter, an empty list when none of
 * its values names a term); the alerts test checks the result against resolveTerms of whole searches.
 * matchesListing decides every match.
 *
 * Prefilter. Each query is filed under its two term parameters whose ids are named by the fewest saved searches
 * (for `feature`, one of the features, since all are needed): under each pair of their ids, so that a listing
 * looks only at the queries filed under pairs of its own terms (one parameter: under its ids alone; none: in a
 * list every lookup reads). A query with a parameter naming no existing term can match nothing and is filed
 * nowhere. Before matchesListing, a check of state, terms, currency, bounded ranges, geo boxes and keyword words
 * rejects most candidates (saved-search-compiled.ts).
 *
 * Invalidation, checked at every call through the caller's connection (an alert decision is final, so the
 * index may not be stale for any CACHE_REVALIDATE_MS):
 * - Saved searches: a query string never changes once saved (PUT changes name, e-mail and frequency, which
 *   alerts read from the row), and ids are never reused, so the index follows the set of ids. Without a new
 *   migration (a stamp and its trigger) the check is one pass over the table: (count, max(id), sum(id)). A
 *   larger max loads the rows above the greatest id loaded; a count or sum still different after that
 *   (deletions, or a PostgreSQL row committed after a greater id was loaded) reconciles the whole id list.
 *   A search deleted since is harmless meanwhile: matches are noted by an INSERT … SELECT of its row.
 * - Terms: `cache_versions('terms')` moves with every term row change, counts included, i.e. with every listing
 *   entering `publish`; so a moved stamp only triggers a read of (id, taxonomy, slug) of the search taxonomies,
 *   and only value lists naming a slug or id that changed are resolved again.
 */
export class SavedSearchIndex {
  private readonly searches = new Map<number, CompiledQuery | null>();
  private readonly queries = new Map<string, CompiledQuery>();
  private readonly selections = new Map<string, Selection>();
  private readonly lists = new Map<string, TermList>();
  private idSum = 0;
  private maxLoadedId = 0;
  private termsStamp: string | undefined;
  private terms = new Map<number, string>();
  /** Filed queries; null: to be rebuilt before the next lookup. */
  private postings: Postings | null = null;
  /** How many saved searches name each term (anchors go to the least named). */
  private readonly termRefs = new Map<number, number>();
  private filed = 0;
  private leftovers = 0;
  private epoch = 0;
  private refreshing: Promise<void> = Promise.resolve();

  /** `search` resolves term slugs in the caller's transaction (SearchService.resolveTermsIn). */
  constructor(private readonly search: Pick<SearchService, 'resolveTermsIn'>) {}

  /** Saved searches known, their distinct query strings, term selections and value lists. */
  get size(): { searches: number; queries: number; selections: number; termLists: number } {
    return { searches: this.searches.size, queries: this.queries.size, selections: this.selections.size, termLists: this.lists.size };
  }

  /**
   * Brings the index up to date with what `db` reads. Call it with a connection already held (a transaction):
   * refreshes run one at a time, and waiting for one while holding SQLite's single connection is safe only in
   * that order.
   */
  refresh(db: Executor): Promise<void> {
    const run = this.refreshing.then(() => this.refreshNow(db));
    this.refreshing = run.catch(() => undefined);
    return run;
  }

  /** The ids of the saved searches the listing matches: exactly those matchesListing accepts. */
  matching(listing: MatchableListing): number[] {
    if (!(listing.status === 'publish' || listing.status === 'sold')) return [];
    const postings = this.currentPostings();
    const epoch = ++this.epoch;
    const found: number[] = [];
    let words: Set<string> | undefined;
    const wordsOf = () => (words ??= new Set(listing.search_text.split(' ')));
    const visit = (compiled: CompiledQuery) => {
      if (compiled.seen === epoch) return;
      compiled.seen = epoch;
      if (compiled.searchIds.length > 0 && passesPrefilter(compiled, listing, wordsOf) && matchesListing(listing, compiled.resolved)) {
        for (const id of compiled.searchIds) found.push(id);
      }
    };
    const termIds = [...listing.term_ids].sort((a, b) => a - b);
    for (let i = 0; i < termIds.length; i++) {
      for (const compiled of postings.single.get(termIds[i]!) ?? NONE) visit(compiled);
      const pairs = postings.pairs.get(termIds[i]!);
      if (pairs) for (let j = i + 1; j < termIds.length; j++) for (const compiled of pairs.get(termIds[j]!) ?? NONE) visit(compiled);
    }
    for (const compiled of postings.unanchored) visit(compiled);
    return found;
  }

  /** What resolveTermsIn makes of one parameter alone. */
  private async resolveList(db: Executor, filter: TaxonomyFilter, values: readonly string[]): Promise<number[]> {
    return (await this.search.resolveTermsIn(db, { terms: { [filter]: [...values] } })).termIds[filter] ?? [];
  }

  private async refreshNow(db: Executor): Promise<void> {
    // The stamp before the terms it vouches for, so that a change made meanwhile shows at the next call.
    const stamp = await kyselyCacheVersionReader(db)('terms');
    if (stamp !== this.termsStamp) {
      await this.followTerms(db);
      this.termsStamp = stamp;
    }
    await this.followSavedSearches(db);
    // Filed here rather than at the next lookup, so that warm() leaves nothing to do.
    this.currentPostings();
  }

  private async followTerms(db: Executor): Promise<void> {
    const next = new Map((await repository.findSearchTerms(db, SEARCH_TAXONOMIES)).map((t) => [t.id, `${t.taxonomy}\n${t.slug}`]));
    const changed = new Set<string>();
    const slugOf = (key: string) => key.slice(key.indexOf('\n') + 1);
    for (const [id, key] of next) {
      const old = this.terms.get(id);
      if (old === key) continue;
      changed.add(String(id)).add(slugOf(key));
      if (old !== undefined) changed.add(slugOf(old));
    }
    for (const [id, old] of this.terms) if (!next.has(id)) changed.add(String(id)).add(slugOf(old));
    const stale = new Set<Selection>();
    for (const list of this.lists.values()) {
      if (!list.values.some((value) => changed.has(value))) continue;
      list.ids = await this.resolveList(db, list.filter, list.values);
      for (const selection of list.selections) stale.add(selection);
    }
    for (const selection of stale) {
      selection.resolution = termResolution(termIdsOf(selection.lists));
      for (const compiled of selection.queries) setResolution(compiled, selection.resolution);
    }
    if (stale.size > 0) this.postings = null;
    // Only now: should a resolution above fail, the next refresh finds the same changes again.
    this.terms = next;
  }

  private async followSavedSearches(db: Executor): Promise<void> {
    const stored = await repository.savedSearchFingerprint(db);
    if (stored.count === this.searches.size && stored.idSum === this.idSum && stored.maxId <= this.maxLoadedId) return;
    if (stored.maxId > this.maxLoadedId) await this.add(db, await repository.findStoredQueriesAfter(db, this.maxLoadedId));
    if (stored.count === this.searches.size && stored.idSum === this.idSum) return;
    const ids = new Set(await repository.findSavedSearchIds(db));
    for (const id of [...this.searches.keys()]) if (!ids.has(id)) this.remove(id);
    await this.add(
      db,
      await repository.findStoredQueries(
        db,
        [...ids].filter((id) => !this.searches.has(id)),
      ),
    );
  }

  private async add(db: Executor, rows: readonly repository.StoredQuery[]): Promise<void> {
    for (const row of rows) {
      if (this.searches.has(row.id)) continue;
      const compiled = await this.compiledQuery(db, row.query_string);
      compiled?.searchIds.push(row.id);
      if (compiled?.searchIds.length === 1 && this.postings) this.file(compiled, this.postings);
      this.searches.set(row.id, compiled);
      this.idSum += row.id;
      this.maxLoadedId = Math.max(this.maxLoadedId, row.id);
    }
  }

  private remove(id: number): void {
    const compiled = this.searches.get(id);
    this.searches.delete(id);
    this.idSum -= id;
    if (!compiled) return;
    compiled.searchIds.splice(compiled.searchIds.indexOf(id), 1);
    if (compiled.searchIds.length > 0) return;
    // An emptied query stays in its posting lists (skipped there) until they are a quarter leftovers.
    this.queries.delete(compiled.queryString);
    if (++this.leftovers * 4 > this.filed) this.postings = null;
    const selection = compiled.selection === undefined ? undefined : this.selections.get(compiled.selection.key);
    if (!selection?.queries.delete(compiled) || selection.queries.size > 0) return;
    this.selections.delete(selection.key);
    for (const list of selection.lists) {
      list.selections.delete(selection);
      if (list.selections.size === 0) this.lists.delete(listKey(list.filter, list.values));
    }
  }

  /** The compiled form of a stored query string; null when it no longer reads as a valid search (it can match nothing). */
  private async compiledQuery(db: Executor, queryString: string): Promise<CompiledQuery | null> {
    const known = this.queries.get(queryString);
    if (known) return known;
    let query: SearchQuery;
    try {
      query = normalizeSavedSearchQuery(queryString);
    } catch {
      // NOTE: saved searches are validated when saved; only a later, stricter rule can get here, and then the
      // search endpoint refuses the same parameters too (its /matches answers 400).
      return null;
    }
    const selection = query.terms ? await this.selectionOf(db, query.terms) : undefined;
    const compiled = compileQuery(queryString, query, selection, selection?.terms);
    selection?.queries.add(compiled);
    this.queries.set(queryString, compiled);
    return compiled;
  }

  private async selectionOf(db: Executor, terms: NonNullable<SearchQuery['terms']>): Promise<Selection> {
    const key = JSON.stringify(terms);
    const known = this.selections.get(key);
    if (known) return known;
    const lists: TermList[] = [];
    for (const [filter, values] of Object.entries(terms) as [TaxonomyFilter, string[]][]) lists.push(await this.listOf(db, filter, values));
    const selection: Selection = { key, terms, lists, resolution: termResolution(termIdsOf(lists)), queries: new Set() };
    for (const list of lists) list.selections.add(selection);
    this.selections.set(key, selection);
    return selection;
  }

  private async listOf(db: Executor, filter: TaxonomyFilter, values: readonly string[]): Promise<TermList> {
    const key = listKey(filter, values);
    const known = this.lists.get(key);
    if (known) return known;
    const list: TermList = { filter, values, ids: await this.resolveList(db, filter, values), selections: new Set() };
    this.lists.set(key, list);
    return list;
  }

  private currentPostings(): Postings {
    if (this.postings) return this.postings;
    const postings: Postings = { single: new Map(), pairs: new Map(), unanchored: [] };
    this.termRefs.clear();
    this.filed = 0;
    this.leftovers = 0;
    for (const compiled of this.queries.values()) {
      for (const { ids } of compiled.terms)
        for (const id of ids) this.termRefs.set(id, (this.termRefs.get(id) ?? 0) + compiled.searchIds.length);
    }
    for (const compiled of this.queries.values()) this.file(compiled, postings);
    this.postings = postings;
    return postings;
  }

  private file(compiled: CompiledQuery, postings: Postings): void {
    const anchors = anchorsOf(compiled, (id) => this.termRefs.get(id) ?? 0);
    if (anchors === null) return;
    this.filed++;
    const [first, second] = anchors;
    if (first === undefined) {
      postings.unanchored.push(compiled);
    } else if (second === undefined) {
      for (const id of first) pushTo(postings.single, id, compiled);
    } else {
      for (const a of first) {
        for (const b of second) {
          const [low, high] = a < b ? [a, b] : [b, a];
          let pairs = postings.pairs.get(low);
          if (!pairs) postings.pairs.set(low, (pairs = new Map()));
          pushTo(pairs, high, compiled);
        }
      }
    }
  }
}

/**
 * Queries by anchor: under one term id (one term parameter), under a pair of term ids, lower first (two
 * parameters: a listing must carry one id of each), or, without term parameters, in a list every lookup reads.
 */
interface Postings {
  single: Map<number, CompiledQuery[]>;
  pairs: Map<number, Map<number, CompiledQuery[]>>;
  unanchored: CompiledQuery[];
}

function pushTo(map: Map<number, CompiledQuery[]>, key: number, compiled: CompiledQuery): void {
  const list = map.get(key);
  if (list) list.push(compiled);
  else map.set(key, [compiled]);
}

const NONE: readonly CompiledQuery[] = [];

const listKey = (filter: TaxonomyFilter, values: readonly string[]) => `${filter}=${values.join(',')}`;

/** A selection's term ids, parameter by parameter, in the order the query names them. */
function termIdsOf(lists: readonly TermList[]): TermIds {
  return Object.fromEntries(lists.map((list) => [list.filter, list.ids]));
}
