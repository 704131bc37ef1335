import { sql, type Transaction } from 'kysely';
import type { DB, Taxonomy } from '../../../db/schema/index.js';
import type { Executor } from '../../../db/executor.js';

/** All SQL of saved-search alerts (docs/api.md 7): the index's reads, the matches, the digests. */

/** Ids per `IN (…)` list and rows per multi-row insert: well inside both drivers' parameter limits. */
const IDS_PER_STATEMENT = 1000;

function chunksOf<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}

// The in-memory index (saved-search-index.service.ts)

/** What changes when saved searches are added or deleted; one pass over saved_searches_user_idx. */
export interface SavedSearchFingerprint {
  count: number;
  maxId: number;
  idSum: number;
}

export async function savedSearchFingerprint(db: Executor): Promise<SavedSearchFingerprint> {
  const row = await db
    .selectFrom('saved_searches')
    .select((eb) => [eb.fn.countAll().as('n'), eb.fn.max('id').as('top'), eb.fn.sum('id').as('total')])
    .executeTakeFirstOrThrow();
  // PostgreSQL answers count and sum as bigint text; both stay far below 2^53.
  return { count: Number(row.n), maxId: Number(row.top ?? 0), idSum: Number(row.total ?? 0) };
}

export interface StoredQuery {
  id: number;
  query_string: string;
}

/** The saved searches numbered above `afterId`, in id order. */
export async function findStoredQueriesAfter(db: Executor, afterId: number): Promise<StoredQuery[]> {
  return db.selectFrom('saved_searches').select(['id', 'query_string']).where('id', '>', afterId).orderBy('id').execute();
}

export async function findStoredQueries(db: Executor, ids: readonly number[]): Promise<StoredQuery[]> {
  const rows: StoredQuery[] = [];
  for (const chunk of chunksOf(ids, IDS_PER_STATEMENT)) {
    rows.push(...(await db.selectFrom('saved_searches').select(['id', 'query_string']).where('id', 'in', chunk).execute()));
  }
  return rows;
}

export async function findSavedSearchIds(db: Executor): Promise<number[]> {
  const rows = await db.selectFrom('saved_searches').select('id').execute();
  return rows.map((row) => row.id);
}

export interface SearchTermRow {
  id: number;
  taxonomy: Taxonomy;
  slug: string;
}

/** What term resolution reads of the terms (search-terms.ts): id, taxonomy and slug, nothing that moves with counts. */
export async function findSearchTerms(db: Executor, taxonomies: readonly Taxonomy[]): Promise<SearchTermRow[]> {
  return db.selectFrom('terms').select(['id', 'taxonomy', 'slug']).where('taxonomy', 'in', taxonomies).execute();
}

// Matching (matchPublished)

export interface NotedMatch {
  saved_search_id: number;
  /** Set (to the time of noting) for a match of an `instant` search, which is announced in the same transaction. */
  notified_at: string | null;
}

/**
 * Notes a listing's matches with these saved searches, those of `instant` searches as announced already (their
 * announcement goes out in the same transaction); answers the matches that were new. One statement per 1000
 * searches, reading each search's frequency as it inserts, and skipping searches deleted meanwhile. A (saved
 * search, listing) pair noted before is left as it was, announced or not: that is what keeps a listing that
 * re-enters `publish` from being announced to the same search again (docs/api.md 12).
 */
export async function noteMatches(db: Executor, listingId: number, searchIds: readonly number[], at: string): Promise<NotedMatch[]> {
  if (!Number.isSafeInteger(listingId)) throw new TypeError(`listing id ${listingId} is not an integer`);
  const noted: NotedMatch[] = [];
  for (const chunk of chunksOf(searchIds, IDS_PER_STATEMENT)) {
    noted.push(
      ...(await db
        .insertInto('saved_search_matches')
        .columns(['saved_search_id', 'listing_id', 'matched_at', 'notified_at'])
        .expression((eb) =>
          eb
            .selectFrom('saved_searches')
            .select((s) => [
              'id',
              sql.lit(listingId).as('listing_id'),
              sql<string>`${at}`.as('matched_at'),
              s
                .case()
                .when('frequency', '=', 'instant')
                .then(sql<string>`${at}`)
                .else(null)
                .end()
                .as('notified_at'),
            ])
            // NOTE: SQLite needs this WHERE: without one, the ON of the upsert would read as a join constraint.
            .where('id', 'in', chunk),
        )
        .onConflict((oc) => oc.columns(['saved_search_id', 'listing_id']).doNothing())
        .returning(['saved_search_id', 'notified_at'])
        .execute()),
    );
  }
  return noted;
}

export interface AlertTarget {
  id: number;
  user_id: number;
  name: string;
  email_alerts: number;
}

/** Who owns these saved searches, and what they are called. */
export async function findAlertTargets(db: Executor, ids: readonly number[]): Promise<Map<number, AlertTarget>> {
  const targets = new Map<number, AlertTarget>();
  for (const chunk of chunksOf(ids, IDS_PER_STATEMENT)) {
    const rows = await db.selectFrom('saved_searches').select(['id', 'user_id', 'name', 'email_alerts']).where('id', 'in', chunk).execute();
    for (const row of rows) targets.set(row.id, row);
  }
  return targets;
}

export interface MatchKey {
  saved_search_id: number;
  listing_id: number;
}

export async function setLastNotified(db: Executor, searchIds: readonly number[], at: string): Promise<void> {
  for (const chunk of chunksOf(searchIds, IDS_PER_STATEMENT)) {
    await db.updateTable('saved_searches').set({ last_notified_at: at }).where('id', 'in', chunk).execute();
  }
}

export async function findListingTitles(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  const titles = new Map<number, string>();
  for (const chunk of chunksOf(ids, IDS_PER_STATEMENT)) {
    for (const row of await db.selectFrom('listings').select(['id', 'title']).where('id', 'in', chunk).execute())
      titles.set(row.id, row.title);
  }
  return titles;
}

// Digests (sendDigests)

/** A digest is due for a daily search whose last one is at least `daily` old, a weekly one `weekly`; stored timestamps compare as text. */
export interface DigestCutoffs {
  daily: string;
  weekly: string;
}

type SavedSearchRef = 'saved_searches.id' | 's.id';

/**
 * Due: a daily search last notified (or, never notified, created) at or before the daily cutoff, a weekly one
 * the weekly cutoff; and an `instant` search at once (its matches normally go out as they are found: pending
 * ones remain only from before a change of frequency). And it has a match not yet announced whose listing is
 * published now: a digest does not list what can no longer be seen (such a match waits, still unannounced,
 * until its listing is published again).
 */
function dueCondition(cutoffs: DigestCutoffs, ref: SavedSearchRef) {
  const table = ref === 's.id' ? 's' : 'saved_searches';
  const since = sql<string>`coalesce(${sql.ref(`${table}.last_notified_at`)}, ${sql.ref(`${table}.created_at`)})`;
  const frequency = sql.ref(`${table}.frequency`);
  return sql<boolean>`(${frequency} = 'instant'
    or (${frequency} = 'daily' and ${since} <= ${cutoffs.daily})
    or (${frequency} = 'weekly' and ${since} <= ${cutoffs.weekly}))
    and exists (
      select 1 from saved_search_matches m inner join listings l on l.id = m.listing_id
      where m.notified_at is null and m.saved_search_id = ${sql.ref(ref)} and l.status = 'publish'
    )`;
}

/** The next `limit` due searches after `afterId`, in id order (a walk of the primary key; each probe of pending matches seeks saved_search_matches_pending_idx). */
export async function findDueSearchIds(db: Executor, afterId: number, limit: number, cutoffs: DigestCutoffs): Promise<number[]> {
  const rows = await db
    .selectFrom('saved_searches as s')
    .select('s.id')
    .where('s.id', '>', afterId)
    .where(dueCondition(cutoffs, 's.id'))
    .orderBy('s.id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

export interface ClaimedDigest {
  id: number;
  user_id: number;
  name: string;
  email_alerts: number;
}

/**
 * Takes the searches of `ids` that are still due, setting their last digest to `at`, in one conditional update:
 * of two processes, the second finds them no longer due (PostgreSQL re-checks the condition on the row the first
 * one committed; SQLite runs one writer at a time) and takes none. The first statement of its transaction, so
 * that SQLite takes the write lock before reading anything.
 */
export async function claimDueSearches(
  trx: Transaction<DB>,
  ids: readonly number[],
  cutoffs: DigestCutoffs,
  at: string,
): Promise<ClaimedDigest[]> {
  if (ids.length === 0) return [];
  return trx
    .updateTable('saved_searches')
    .set({ last_notified_at: at })
    .where('id', 'in', ids)
    .where(dueCondition(cutoffs, 'saved_searches.id'))
    .returning(['id', 'user_id', 'name', 'email_alerts'])
    .execute();
}

export interface ClaimedMatch extends MatchKey {
  matched_at: string;
}

/** Marks announced, and answers, exactly the unannounced matches of these searches whose listing is published. */
export async function claimPendingMatches(trx: Transaction<DB>, searchIds: readonly number[], at: string): Promise<ClaimedMatch[]> {
  const claimed: ClaimedMatch[] = [];
  for (const chunk of chunksOf(searchIds, IDS_PER_STATEMENT)) {
    claimed.push(
      ...(await trx
        .updateTable('saved_search_matches')
        .set({ notified_at: at })
        .where('notified_at', 'is', null)
        .where('saved_search_id', 'in', chunk)
        .where((eb) =>
          eb.exists(
            eb
              .selectFrom('listings')
              .select(sql.lit(1).as('one'))
              .whereRef('listings.id', '=', 'saved_search_matches.listing_id')
              .where('listings.status', '=', 'publish'),
          ),
        )
        .returning(['saved_search_id', 'listing_id', 'matched_at'])
        .execute()),
    );
  }
  return claimed;
}
