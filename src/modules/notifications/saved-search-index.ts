import type { Kysely, Transaction } from 'kysely';
import { kyselyCacheVersionReader } from '../../db/cache-versions.js';
import type { DB } from '../../db/schema.js';
import { boxOfCircle, boxOfPolygon, inBox, type RadiusCircle } from '../search/geo.js';
import { type MatchableListing, matchesListing } from '../search/search-matcher.js';
import { normalizeSavedSearchQuery } from '../search/search-query.js';
import { type ResolvedSearch, resolveTerms, TAXONOMY_OF } from '../search/search-terms.js';
import type { NumberRange, SearchBox, SearchQuery, TaxonomyFilter } from '../search/search-types.js';
import * as repository from './saved-search-alerts.repository.js';

type Executor = Kysely<DB> | Transaction<DB>;
type TermIds = ResolvedSearch['termIds'];

/** The listing fields a range filter of the matcher reads. */
type RangeField = 'price' | 'size' | 'land_size' | 'bedrooms' | 'bathrooms' | 'year_built';
const RANGES: readonly [RangeField, keyof SearchQuery][] = [
  ['price', 'price'], ['size', 'size'], ['land_size', 'land_size'], ['bedrooms', 'bedrooms'], ['bathrooms', 'bathrooms'], ['year_built', 'year_built'],
];
const SEARCH_TAXONOMIES = [...new Set(Object.values(TAXONOMY_OF))];

/**
 * One distinct saved search text (canonical query string), parsed once and shared by every saved search that
 * stores it. `resolved` changes when terms do; the prefilter is what the query alone says.
 */
interface CompiledQuery {
  readonly queryString: string;
  readonly query: SearchQuery;
  readonly selection: Selection | undefined;
  resolved: ResolvedSearch;
  readonly searchIds: number[];
  /** Bounded ranges as [field, min, max]: the listing's value must be present and inside. */
  readonly ranges: readonly [RangeField, number, number][];
  readonly currency: string | undefined;
  readonly includeSold: boolean;
  /** Per geo filter (circle with a radius, box, polygon), boxes of which the listing's point must lie in one (geo.ts: they hold every point the exact test admits). */
  readonly regions: readonly (readonly SearchBox[])[];
  /** The match call in which this query was last looked at (a query sits in several posting lists). */
  seen: number;
}

/** One distinct set of term parameters (SearchService keys its resolutions the same way), resolved by resolveTerms. */
interface Selection {
  readonly terms: NonNullable<SearchQuery['terms']>;
  /** Every slug and id it names: a change to a term named otherwise cannot change its resolution. */
  readonly values: ReadonlySet<string>;
  termIds: TermIds;
  readonly queries: Set<CompiledQuery>;
}

/**
 * Every saved search compiled for matching newly published listings (saved-search-alerts.ts), so that a call
 * parses and resolves nothing: each distinct query string is parsed once (normalizeSavedSearchQuery, as
 * SavedSearchesService reads it back) and each distinct term selection resolved once (resolveTerms, the code
 * behind SearchService.resolve); matchesListing decides every match.
 *
 * Prefilter. Each query is filed under one anchor: the term parameter its listings must carry whose ids are
 * named by the fewest saved searches (for `feature`, one of the features, since all are needed), so a listing
 * looks only at the queries filed under its own terms, plus the few queries without any term parameter. A
 * query with a parameter naming no existing term can match nothing and is filed nowhere. Before
 * matchesListing, a cheap check of state, currency, bounded ranges and geo boxes rejects most candidates.
 *
 * Invalidation, checked at every call through the caller's connection (the alert decides once and for ever,
 * so a stale index is not acceptable even for CACHE_REVALIDATE_MS):
 * - Saved searches: a query string never changes once saved (PUT changes name, e-mail and frequency, which are
 *   read from the row at match time), and ids are never reused, so the index follows the set of ids. A new
 *   migration with a stamp trigger is not allowed here, so the check is one pass over the table: (count,
 *   max(id), sum(id)). A larger max loads the rows above the last one loaded; a count or sum still different
 *   afterwards (deletions, or a PostgreSQL row committed after a higher id was already loaded) reconciles the
 *   whole id list. Rows of a search deleted since are harmless: alerts read each matched search's row.
 * - Terms: `cache_versions('terms')` moves with every term row change, counts included, i.e. with every
 *   listing entering `publish`; so a moved stamp only triggers a read of (id, taxonomy, slug) of the search
 *   taxonomies, and only selections naming a slug or id that changed are resolved again.
 */
export class SavedSearchIndex {
  private readonly searches = new Map<number, CompiledQuery | null>();
  private readonly queries = new Map<string, CompiledQuery>();
  private readonly selections = new Map<string, Selection>();
  private idSum = 0;
  private maxLoadedId = 0;
  private termsStamp: string | undefined;
  private terms = new Map<number, string>();
  /** Term id → queries filed under it; null: to be rebuilt before the next match. */
  private postings: Map<number, CompiledQuery[]> | null = null;
  private unanchored: CompiledQuery[] = [];
  /** How many saved searches name each term (anchors go to the least named). */
  private readonly termRefs = new Map<number, number>();
  private filed = 0;
  private emptyFiled = 0;
  private epoch = 0;
  private refreshing: Promise<void> = Promise.resolve();

  /** Saved searches known, and how many distinct query strings and term selections they have. */
  get size(): { searches: number; queries: number; selections: number } {
    return { searches: this.searches.size, queries: this.queries.size, selections: this.selections.size };
  }

  /**
   * Brings the index up to date with the database `db` reads. Call it with a connection already held (a
   * transaction): refreshes run one at a time, and on SQLite's single connection waiting for one while it
   * holds the connection would deadlock.
   */
  refresh(db: Executor): Promise<void> {
    const run = this.refreshing.then(() => this.refreshNow(db));
    this.refreshing = run.catch(() => undefined);
    return run;
  }

  /** The ids of the saved searches the listing matches (exactly those matchesListing accepts). */
  matching(listing: MatchableListing): number[] {
    if (!(listing.status === 'publish' || listing.status === 'sold')) return [];
    const postings = this.currentPostings();
    const epoch = ++this.epoch;
    const found: number[] = [];
    const visit = (compiled: CompiledQuery) => {
      if (compiled.seen === epoch) return;
      compiled.seen = epoch;
      if (compiled.searchIds.length > 0 && passesPrefilter(compiled, listing) && matchesListing(listing, compiled.resolved)) {
        for (const id of compiled.searchIds) found.push(id);
      }
    };
    for (const termId of listing.term_ids) {
      const filed = postings.get(termId);
      if (filed) for (const compiled of filed) visit(compiled);
    }
    for (const compiled of this.unanchored) visit(compiled);
    return found;
  }

  private async refreshNow(db: Executor): Promise<void> {
    // The stamp before the terms it vouches for, so that a change made meanwhile shows at the next call.
    const stamp = await kyselyCacheVersionReader(db)('terms');
    if (stamp !== this.termsStamp) {
      await this.followTerms(db);
      this.termsStamp = stamp;
    }
    await this.followSavedSearches(db);
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
    this.terms = next;
    if (changed.size === 0) return;
    for (const selection of this.selections.values()) {
      if (![...selection.values].some((value) => changed.has(value))) continue;
      selection.termIds = (await resolveTerms(db, { terms: selection.terms })).termIds;
      for (const compiled of selection.queries) compiled.resolved = { query: compiled.query, termIds: selection.termIds };
      this.postings = null;
    }
  }

  private async followSavedSearches(db: Executor): Promise<void> {
    const stored = await repository.savedSearchFingerprint(db);
    if (stored.count === this.searches.size && stored.idSum === this.idSum && stored.maxId <= this.maxLoadedId) return;
    if (stored.maxId > this.maxLoadedId) await this.add(db, await repository.findStoredQueriesAfter(db, this.maxLoadedId));
    if (stored.count === this.searches.size && stored.idSum === this.idSum) return;
    const ids = new Set(await repository.findSavedSearchIds(db));
    for (const id of [...this.searches.keys()]) if (!ids.has(id)) this.remove(id);
    await this.add(db, await repository.findStoredQueries(db, [...ids].filter((id) => !this.searches.has(id))));
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
    // Left in its posting lists (skipped there) until a quarter of them are such leftovers.
    this.queries.delete(compiled.queryString);
    compiled.selection?.queries.delete(compiled);
    if (compiled.selection?.queries.size === 0) this.selections.delete(JSON.stringify(compiled.selection.terms));
    if (++this.emptyFiled * 4 > this.filed) this.postings = null;
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
    const compiled: CompiledQuery = {
      queryString,
      query,
      selection,
      resolved: { query, termIds: selection?.termIds ?? {} },
      searchIds: [],
      ranges: RANGES.flatMap(([field, name]) => boundsOf(query[name] as NumberRange | undefined, field)),
      currency: query.currency,
      includeSold: query.include_sold === true,
      regions: regionsOf(query),
      seen: 0,
    };
    selection?.queries.add(compiled);
    this.queries.set(queryString, compiled);
    return compiled;
  }

  private async selectionOf(db: Executor, terms: NonNullable<SearchQuery['terms']>): Promise<Selection> {
    const key = JSON.stringify(terms);
    const known = this.selections.get(key);
    if (known) return known;
    const { termIds } = await resolveTerms(db, { terms });
    const selection: Selection = { terms, values: new Set(Object.values(terms).flat()), termIds, queries: new Set() };
    this.selections.set(key, selection);
    return selection;
  }

  private currentPostings(): Map<number, CompiledQuery[]> {
    if (this.postings) return this.postings;
    const postings = new Map<number, CompiledQuery[]>();
    this.unanchored = [];
    this.termRefs.clear();
    this.filed = 0;
    this.emptyFiled = 0;
    const live = [...this.queries.values()];
    for (const compiled of live) {
      for (const ids of Object.values(compiled.resolved.termIds)) {
        for (const id of ids) this.termRefs.set(id, (this.termRefs.get(id) ?? 0) + compiled.searchIds.length);
      }
    }
    for (const compiled of live) this.file(compiled, postings);
    this.postings = postings;
    return postings;
  }

  /** Files a query under its anchor (see the class comment). */
  private file(compiled: CompiledQuery, postings: Map<number, CompiledQuery[]>): void {
    let anchor: readonly number[] | undefined;
    let cost = Infinity;
    const refs = (id: number) => this.termRefs.get(id) ?? 0;
    for (const [name, ids] of Object.entries(compiled.resolved.termIds) as [TaxonomyFilter, number[]][]) {
      if (ids.length === 0) return; // names no term: matches nothing
      const choice = name === 'feature' ? [ids.reduce((best, id) => (refs(id) < refs(best) ? id : best))] : ids;
      const choiceCost = choice.reduce((sum, id) => sum + refs(id), 0);
      if (choiceCost < cost) [anchor, cost] = [choice, choiceCost];
    }
    this.filed++;
    if (anchor === undefined) {
      this.unanchored.push(compiled);
      return;
    }
    for (const id of anchor) {
      const list = postings.get(id);
      if (list) list.push(compiled);
      else postings.set(id, [compiled]);
    }
  }
}

/** Only what matchesListing would also reject: a query passing here is then decided by matchesListing. */
function passesPrefilter(compiled: CompiledQuery, listing: MatchableListing): boolean {
  if (listing.status !== 'publish' && !(compiled.includeSold && listing.status === 'sold')) return false;
  if (compiled.currency !== undefined && listing.currency !== compiled.currency) return false;
  for (const [field, min, max] of compiled.ranges) {
    const value = listing[field];
    if (value === null || value < min || value > max) return false;
  }
  if (compiled.regions.length > 0) {
    const { latitude, longitude } = listing;
    if (latitude === null || longitude === null || listing.geo === null) return false;
    for (const boxes of compiled.regions) if (!boxes.some((box) => inBox({ latitude, longitude }, box))) return false;
  }
  return true;
}

/** A range with a bound, as [field, min, max]; a range without bounds filters nothing (as in matchesListing). */
function boundsOf(range: NumberRange | undefined, field: RangeField): [RangeField, number, number][] {
  if (range === undefined || (range.min === undefined && range.max === undefined)) return [];
  return [[field, range.min ?? -Infinity, range.max ?? Infinity]];
}

function regionsOf(query: SearchQuery): SearchBox[][] {
  const regions: SearchBox[][] = [];
  if (query.circle?.radius !== undefined) regions.push(boxOfCircle(query.circle as RadiusCircle));
  if (query.box) regions.push([query.box]);
  if (query.polygon) regions.push([boxOfPolygon(query.polygon)]);
  return regions;
}
