import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { FeedAgent, FeedListing, FeedRecord, FieldWarning } from '../../../adapters/feeds/feed-records.js';
import { statementsHoldTheThread } from '../../../db/dialect/index.js';
import type { Executor } from '../../../db/executor.js';
import type { DB, ListingState } from '../../../db/schema/index.js';
import { translate } from '../../../i18n/index.js';
import { AppError, type FieldError } from '../../../lib/errors.js';
import { EventLoopTurns } from '../../../lib/event-loop-turns.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { slugify } from '../../../lib/slug.js';
import {
  type DraftRules,
  type ListingDraft,
  type PropertiesService,
  type UpdatePropertyInput,
  draftOfInput,
} from '../../properties/index.js';
import type { FeedPictures } from '../pictures/feed-pictures.service.js';
import type { Redirects } from '../redirects/redirects.service.js';
import { type DirectoryOutcome, type FeedDirectory, importActor } from './feed-directory.service.js';
import * as repository from './feed-import.repository.js';
import { checkedListing, scalarInput } from './feed-listing-check.js';
import { type FeedReferences, LOCATION_FIELDS, type ResolvedLinks, TERM_FIELDS } from './feed-references.service.js';
import type { ImportCounts, ImportOptions, ListingRecord, Rejection, Warning } from './import-summary.js';
import { changedFields, type OwnListings } from './own-listings.service.js';

/*
 * One feed import's pass over the records (feed-importer.service.ts runs it): batches checked, looked up and
 * rejected, updated or skipped; new listings handed on as drafts; withdrawals; what it counted and reported.
 */

/** Records checked and looked up together: one transaction of new listings at most, one query per lookup. */
const BATCH = 500;
/** Rejections kept in the summary; the `onRejected` callback sees every one. */
const MAX_REPORTED = 1000;
/** States a withdrawal leaves alone: the listing is off the market already, and `sold` says why. */
const OFF_MARKET: readonly ListingState[] = ['expired', 'sold'];
const WITHDRAWABLE = (['draft', 'pending', 'publish', 'on_hold', 'disapproved'] as const).filter((state) => !OFF_MARKET.includes(state));

interface Checked {
  /** The record's position in its batch: rejections are reported in file order. */
  index: number;
  at: string;
  listing: FeedListing;
  owner: string | undefined;
  fingerprint: string;
  existing: repository.SourceRow | undefined;
  /** A listing made here, named by its own key: it has no source row, and `listing` holds only the changed fields. */
  own?: boolean;
  /** The record's old address (`url`), kept as a redirect once the listing is written. */
  address?: string;
  /** The URLs of the listing's documents, when the record gives them (a WordPress site's brochures). */
  documents?: readonly string[];
}

/** A record's warnings, reported once the record is known to be imported. */
interface Warned {
  index: number;
  at: string;
  key: string;
  warnings: readonly FieldWarning[];
}

type BatchRecord = Extract<FeedRecord, { kind: 'listing' | 'unreadable' }>;
type DirectoryRecord = Extract<FeedRecord, { kind: 'agent' | 'agency' }>;
/** A rejection found in a batch, reported once the batch is checked: field errors, or a reader's reasons. */
type Found = { at: string; key: unknown; errors: readonly (FieldError | Rejection['errors'][number])[] };

/** One import's state: what it counted, the keys it saw, the slugs it gave. */
export class ImportRun {
  readonly counts: ImportCounts = { read: 0, created: 0, updated: 0, unchanged: 0, withdrawn: 0, rejected: 0, warnings: 0 };
  readonly rejections: Rejection[] = [];
  readonly warnings: Warning[] = [];
  redirectsKept = 0;
  stopped = false;
  private readonly seen = new Set<string>();
  private readonly slugs = new Set<string>();
  /** The source rows of the drafts handed to the writer, written in the transaction that writes the draft. */
  private readonly sourceOf = new WeakMap<
    ListingDraft,
    {
      key: string;
      fingerprint: string;
      index: number;
      images: readonly string[];
      documents: readonly string[];
      address: string | undefined;
    }
  >();
  private readonly actor: AuthUser;
  /** Updates and withdrawals are a transaction each; on SQLite the serving thread gets a turn between them. */
  private readonly turns: EventLoopTurns;
  /**
   * A batch's checks, fingerprints and links hold the thread on either database (no statement in them): turns
   * between records there too, where a batch of 500 held it 100–200 ms on a busy machine (issue 38).
   */
  private readonly checkTurns = new EventLoopTurns(true);

  constructor(
    private readonly db: Kysely<DB>,
    private readonly properties: PropertiesService,
    private readonly pictures: FeedPictures,
    private readonly references: FeedReferences,
    private readonly directory: FeedDirectory,
    private readonly own: OwnListings,
    private readonly redirects: Redirects,
    private readonly rules: DraftRules,
    private readonly options: ImportOptions,
  ) {
    this.actor = importActor(options.actorId);
    this.turns = new EventLoopTurns(statementsHoldTheThread(db));
  }

  /** Reads the feed in batches: rejects, updates and skips as it goes, and yields the drafts of new listings. */
  async *newListingDrafts(records: AsyncIterable<FeedRecord>): AsyncGenerator<ListingDraft[]> {
    let batch: BatchRecord[] = [];
    for await (const record of records) {
      this.counts.read++;
      if (record.kind === 'agent' || record.kind === 'agency') {
        // With `strict`, file order decides what is written: the listings before this record are done first.
        if (this.options.strict && batch.length > 0) {
          yield await this.processBatch(batch);
          batch = [];
          if (this.stopped) return;
        }
        await this.directoryRecord(record);
        if (this.stopped) return;
      } else batch.push(record);
      if (batch.length === BATCH) {
        yield await this.processBatch(batch);
        batch = [];
        if (this.stopped) return;
      }
    }
    if (batch.length > 0) yield await this.processBatch(batch);
  }

  /**
   * A Member or Office: its agent or agency made sure of here (feed-directory.service.ts), its key then naming that
   * for the listings. A rejected one names none, and a listing naming it is rejected in turn.
   */
  private async directoryRecord(record: DirectoryRecord): Promise<void> {
    let outcome: DirectoryOutcome;
    if (record.kind === 'agency') {
      outcome = await this.directory.agency(record.agency);
      this.references.knowFeedAgency(record.agency.key, 'id' in outcome ? outcome.id : null);
    } else {
      outcome = await this.directory.agent(record.agent, await this.agencyOf(record.agent));
      this.references.knowFeedAgent(record.agent.key, 'id' in outcome ? outcome.id : null);
    }
    const address = record.kind === 'agency' ? record.agency.url : record.agent.url;
    if ('id' in outcome && outcome.id !== null && address && !this.options.dryRun) {
      const id = outcome.id;
      this.redirectsKept += await this.redirects.keep(this.db, [
        { address, record: record.kind === 'agency' ? { agencyId: id } : { agentId: id } },
      ]);
    } else if (this.options.dryRun && !('errors' in outcome) && address && this.redirects.pathOf(address) !== undefined) {
      this.redirectsKept++;
    }
    if ('errors' in outcome) {
      this.reject(record.at, record.kind === 'agency' ? record.agency.key : record.agent.key, outcome.errors);
      if (this.options.strict) this.stopped = true;
    }
    this.options.onProgress?.({ ...this.counts });
  }

  /**
   * The agency a Member's `OfficeKey` puts the agent in: an Office before it in the feed or an agency's e-mail here;
   * null for none. Undefined leaves the agent's agency as it is: when the feed does not say, in a dry run (which
   * looks up no references), and when the key names no agency here (an Office the feed left out or rejected), since
   * rejecting the agent over it would reject all its listings too.
   */
  private async agencyOf(agent: FeedAgent): Promise<number | null | undefined> {
    if (agent.agency === undefined || this.options.dryRun) return undefined;
    return agent.agency === null ? null : this.references.officeOf(agent.agency);
  }

  /**
   * Checks a batch, then writes it: changed records through the update, new ones returned as drafts. Every
   * problem found is reported in file order; with `strict` nothing after the first rejected record is written.
   */
  private async processBatch(records: readonly BatchRecord[]): Promise<ListingDraft[]> {
    const rejected = new Map<number, Found>();
    const keys = records.flatMap((record) =>
      record.kind === 'listing' && typeof record.listing.key === 'string' ? [record.listing.key] : [],
    );
    const [sources, own] = await Promise.all([repository.findSources(this.db, this.options.source, keys), this.own.find(keys)]);
    const checked: Checked[] = [];
    const warned: Warned[] = [];
    const imported: { index: number; record: ListingRecord; listing: FeedListing }[] = [];
    for (const [index, record] of records.entries()) {
      await this.checkTurns.next();
      if (record.kind === 'unreadable') {
        rejected.set(index, { at: record.at, key: record.key, errors: [{ field: record.field ?? '(record)', reason: record.reason }] });
        continue;
      }
      const { at, owner } = record;
      const key = record.listing.key;
      const ownListing = typeof key === 'string' ? own.get(key) : undefined;
      const existing = ownListing
        ? { listingId: ownListing.listingId, fingerprint: '' }
        : typeof key === 'string'
          ? sources.get(key)
          : undefined;
      const { listing, errors, warnings } = checkedListing(record.listing, existing === undefined, record.warnings ?? []);
      if (errors.length === 0 && this.seen.has(listing.key)) errors.push({ field: 'key', key: 'exchange_rule_repeated_key' });
      if (errors.length > 0) {
        rejected.set(index, { at, key: listing.key, errors });
        continue;
      }
      if (warnings.length > 0) {
        // A strict run takes a warning for what it is: a value of the record that cannot be imported.
        if (this.options.strict) {
          rejected.set(index, { at, key: listing.key, errors: warnings });
          continue;
        }
        warned.push({ index, at, key: listing.key, warnings });
      }
      if (this.options.onImported) imported.push({ index, record, listing });
      this.seen.add(listing.key);
      if (ownListing) {
        const changed = changedFields(listing, ownListing.current);
        if (changed === undefined) this.counts.unchanged++;
        else checked.push({ index, at, listing: changed, owner, fingerprint: '', existing, own: true, address: listing.url });
        continue;
      }
      const { documents } = record;
      const fingerprint = fingerprintOf(listing, documents);
      if (existing?.fingerprint === fingerprint) this.counts.unchanged++;
      else checked.push({ index, at, listing, owner, fingerprint, existing, address: listing.url, documents });
    }
    const drafts: ListingDraft[] = [];
    const updates: { record: Checked; links: ResolvedLinks }[] = [];
    if (this.options.dryRun) {
      // References are not looked up: that creates the terms a feed names.
      for (const record of checked) {
        this.counts[record.existing ? 'updated' : 'created']++;
        if (record.address && this.redirects.pathOf(record.address) !== undefined) this.redirectsKept++;
      }
    } else {
      const links = await this.references.resolve(
        checked.map((record) => record.listing),
        () => this.checkTurns.next(),
      );
      const now = new Date();
      for (const [n, record] of checked.entries()) {
        await this.checkTurns.next();
        const resolved = links[n]!;
        if (Array.isArray(resolved)) rejected.set(record.index, { at: record.at, key: record.listing.key, errors: resolved });
        else if (record.existing) updates.push({ record, links: resolved });
        else {
          const made = this.draftOf(record, resolved, now);
          if ('errors' in made) rejected.set(record.index, { at: record.at, key: record.listing.key, errors: made.errors });
          else drafts.push(made.draft);
        }
      }
    }
    // With `strict`, the first rejected record in the file ends the import: nothing after it is written.
    const cut = this.options.strict && rejected.size > 0 ? Math.min(...rejected.keys()) : Infinity;
    for (const { record, links } of updates) {
      if (record.index >= cut) continue;
      await this.turns.next();
      await this.update(record, links, rejected);
    }
    for (const index of [...rejected.keys()].sort((a, b) => a - b)) {
      if (index > cut) break;
      const { at, key, errors } = rejected.get(index)!;
      this.reject(at, key, errors);
    }
    for (const record of warned) if (record.index < cut && !rejected.has(record.index)) this.warn(record);
    for (const { index, record, listing } of imported) {
      if (index < cut && !rejected.has(index)) this.options.onImported!(record, listing);
    }
    if (cut !== Infinity) this.stopped = true;
    this.options.onProgress?.({ ...this.counts });
    return drafts.filter((draft) => this.sourceOf.get(draft)!.index < cut);
  }

  private draftOf(record: Checked, links: ResolvedLinks, now: Date): ReturnType<typeof draftOfInput> {
    const made = draftOfInput(
      {
        input: scalarInput(record.listing) as UpdatePropertyInput,
        status: record.listing.status ?? 'publish',
        slug: this.slugFor(record.listing),
        authorId: (record.owner && this.options.ownerOf?.(record.owner)) || (this.options.ownerId ?? this.options.actorId),
        agencyId: links.agencyId ?? null,
        terms: links.terms ?? [],
        agentIds: links.agentIds ?? [],
      },
      this.rules,
      now,
    );
    if ('draft' in made) {
      const { key, images = [] } = record.listing;
      const documents = record.documents ?? [];
      this.sourceOf.set(made.draft, {
        key,
        fingerprint: record.fingerprint,
        index: record.index,
        images,
        documents,
        address: record.address,
      });
    }
    return made;
  }

  /** A changed record through the API's own update: the fields it carries, as the feed has them. */
  private async update(record: Checked, links: ResolvedLinks, rejected: Map<number, Found>) {
    const { listing } = record;
    const input: Record<string, unknown> = scalarInput(listing);
    if (listing.status !== undefined) input.status = listing.status;
    const idsOf = (taxonomy: string) => (links.terms ?? []).filter((link) => link.taxonomy === taxonomy).map((link) => link.termId);
    for (const [field, taxonomy, apiField] of TERM_FIELDS) if (listing[field] !== undefined) input[apiField] = idsOf(taxonomy);
    for (const [field] of LOCATION_FIELDS) if (listing[field] !== undefined) input[field] = listing[field];
    if (links.agentIds !== undefined) input.agent_ids = links.agentIds;
    if (links.agencyId !== undefined) input.agency_id = links.agencyId;
    try {
      await this.properties.update(this.actor, record.existing!.listingId, input as UpdatePropertyInput);
    } catch (error) {
      if (!(error instanceof AppError) || error.fields.length === 0) throw error;
      rejected.set(record.index, { at: record.at, key: listing.key, errors: error.fields });
      return;
    }
    if (listing.images !== undefined) await this.pictures.replace(record.existing!.listingId, listing.images);
    if (record.documents !== undefined) await this.pictures.replace(record.existing!.listingId, record.documents, 'document');
    if (record.address)
      this.redirectsKept += await this.redirects.keep(this.db, [
        { address: record.address, record: { listingId: record.existing!.listingId } },
      ]);
    // A listing made here has no source row to keep a fingerprint in: the next read-back compares it anew.
    if (!record.own) await repository.updateFingerprint(this.db, record.existing!.listingId, record.fingerprint, new Date().toISOString());
    this.counts.updated++;
  }

  /** In the transaction of new listings: their source rows, and the pictures they wait for. */
  async recordSources(trx: Executor, ids: readonly number[], drafts: readonly ListingDraft[]) {
    const at = new Date().toISOString();
    const sources = drafts.map((draft) => this.sourceOf.get(draft)!);
    await repository.insertSources(
      trx,
      sources.map(({ key, fingerprint }, n) => ({ listingId: ids[n]!, source: this.options.source, key, fingerprint, at })),
    );
    this.redirectsKept += await this.redirects.keep(
      trx,
      sources.flatMap(({ address }, n) => (address ? [{ address, record: { listingId: ids[n]! } }] : [])),
    );
    await this.pictures.enqueue(
      trx,
      sources.flatMap(({ images }, n) => (images.length > 0 ? [{ listingId: ids[n]!, urls: images }] : [])),
    );
    const documents = sources.flatMap(({ documents }, n) => (documents.length > 0 ? [{ listingId: ids[n]!, urls: documents }] : []));
    if (documents.length > 0) await this.pictures.enqueue(trx, documents, 'document');
    this.counts.created += drafts.length;
  }

  /** The source's listings on the market that the feed did not name go to `expired` (never deleted). */
  async withdrawMissing(): Promise<void> {
    const PAGE = 500;
    for (let after = 0; ;) {
      const page = await repository.withdrawableListings(this.db, this.options.source, WITHDRAWABLE, after, PAGE);
      for (const { listingId, key } of page) {
        if (this.seen.has(key)) continue;
        if (!this.options.dryRun) {
          await this.turns.next();
          await this.properties.update(this.actor, listingId, { status: 'expired' });
        }
        this.counts.withdrawn++;
      }
      if (page.length < PAGE) return;
      after = page[page.length - 1]!.listingId;
    }
  }

  /** The title's slug; a title met before in this import gets the key's hash too, so two drafts never share one. */
  private slugFor(listing: FeedListing): string {
    const base = slugify(listing.title ?? '') || 'listing';
    const slug = this.slugs.has(base) ? `${base}-${createHash('sha256').update(listing.key).digest('hex').slice(0, 8)}` : base;
    this.slugs.add(base);
    return slug;
  }

  /** Reports the warnings of a record that was imported (or, in a dry run, would be). */
  private warn({ at, key, warnings }: Warned): void {
    for (const { field, reason } of warnings) {
      const warning: Warning = { at, ...(key !== '' ? { key } : {}), field, reason };
      this.counts.warnings++;
      if (this.warnings.length < MAX_REPORTED) this.warnings.push(warning);
      this.options.onWarning?.(warning);
    }
  }

  /** Reports a rejected record: field errors in the API's English words, or a reader's reasons as they are. */
  private reject(at: string, key: unknown, errors: readonly (FieldError | Rejection['errors'][number])[]): void {
    const rejection: Rejection = {
      at,
      ...(typeof key === 'string' && key !== '' ? { key } : {}),
      errors: errors.map((error) => ('reason' in error ? error : { field: error.field, reason: translate('en', error.key, error.params) })),
    };
    this.counts.rejected++;
    if (this.rejections.length < MAX_REPORTED) this.rejections.push(rejection);
    this.options.onRejected?.(rejection);
  }
}

/**
 * The record's content as a hash, independent of key order: its fields and, when it gives them, its documents; the
 * times a feed stamps are not imported and not counted.
 */
function fingerprintOf(listing: FeedListing, documents?: readonly string[]): string {
  const { created_at: _created, updated_at: _updated, ...fields } = listing;
  // Records without documents hash as they always did, so that their next import finds them unchanged.
  const content = documents === undefined || documents.length === 0 ? fields : { ...fields, '(documents)': documents };
  const sorted = Object.fromEntries(
    Object.entries(content)
      .filter(([, value]) => value !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : 1)),
  );
  return createHash('sha256').update(JSON.stringify(sorted)).digest('base64url');
}
