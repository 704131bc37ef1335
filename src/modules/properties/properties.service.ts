import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation } from '../../db/dialect/index.js';
import type { DB, ListingState, ListingUpdate } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { type PageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { firstFreeSlug, slugify } from '../../lib/slug.js';
import type { MediaService, MediaRecord } from '../media/index.js';
import type { TaxonomiesService } from '../taxonomies/index.js';
import { assertCanManage, assertCanView, isModerator } from './listing-access.js';
import { type CallerDirectory, checkListingInput, type ListingChanges } from './listing-input.js';
import type { ListingCharges } from './listing-charges.js';
import { accessOf, type ListingAccess, type ListingRecords, type Loaded } from './listing-records.service.js';
import { expiryOnPublish, initialState, stateAfterEdit, targetState } from './moderation/listing-states.js';
import * as repository from './properties.repository.js';
import { assertSubmittable, type SubmissionRules } from './submission-rule.js';
import type { SubmissionField } from '../site-settings/index.js';
import {
  type CreatePropertyInput,
  type ListSort,
  MAX_GALLERY,
  type PropertyListRecord,
  type PropertyRecord,
  type PropertySummaryRecord,
  type UpdatePropertyInput,
} from './properties.schemas.js';
import * as pages from './lists/published-pages.repository.js';
import type { ViewCounter } from './views/view-counter.service.js';

export interface ListingRules {
  requireApproval: boolean;
  editRequiresApproval: boolean;
  defaultCurrency: string;
  ttlDays: number | undefined;
}

/**
 * Attempts of a creation that lost a uniqueness race: concurrent creations picking the same free slug, or
 * creating the same new location term. A retry sees the winner's commit (its term is then reused), and
 * tries its slug with a random suffix, which no concurrent creation will pick too.
 */
const CREATE_ATTEMPTS = 5;
/** Distinct published-list pages kept; past this the cache starts over. */
const MAX_CACHED_PAGES = 2000;
/** Slugs whose listing is kept; past this the cache starts over. */
const MAX_CACHED_SLUGS = 20_000;

/** Listings (docs/api.md 4.1, 4.2, 4.6): read, list, create, update, delete, gallery. */
export class PropertiesService {
  private readonly pageCache = new Map<string, { version: string; answer: PropertyListRecord }>();
  private countCache: { version: string; total: number } | undefined;
  private slugCache: { version: string; holders: Map<string, { listingId: number; current: boolean }> } = {
    version: '',
    holders: new Map(),
  };

  constructor(
    private readonly db: Kysely<DB>,
    private readonly records: ListingRecords,
    private readonly taxonomies: TaxonomiesService,
    private readonly media: MediaService,
    private readonly views: ViewCounter,
    private readonly rules: ListingRules,
    private readonly quotas: ListingCharges,
    private readonly submission: SubmissionRules,
  ) {}

  /**
   * One listing as the caller may see it (else 404), counting a view per client and hour. Anonymous callers
   * get the cached frozen record itself (so its serialization is reused); others a copy with `is_favorite`.
   */
  async get(caller: AuthUser | null, id: number, clientAddress: string): Promise<PropertyRecord> {
    const loaded = await this.records.record(id);
    assertCanView(caller, loaded?.access);
    this.views.count(id, caller ? `user:${caller.id}` : `ip:${clientAddress}`);
    return caller ? (await this.withFavorites(caller, [loaded!.record]))[0]! : loaded!.record;
  }

  /**
   * Listings as an administrator sees them (every state; `is_favorite` false), by id, read now (not from the
   * cache) and without counting a view: what outbound webhooks send (modules/webhooks). A listing that does not
   * exist is absent from the map.
   */
  async recordsForModerators(ids: readonly number[]): Promise<Map<number, PropertyRecord>> {
    const loaded = await this.records.freshRecords(ids);
    return new Map(loaded.map(({ record }) => [record.id, record]));
  }

  /**
   * The listing a page path names by its slug, as the caller may see it (else 404: unknown, or in a state that is
   * not public and not the caller's), without counting a view: the website counts the page's views itself, also
   * when it answers from its cache. A former slug answers `movedTo`, the listing's slug now (its page answers
   * 301), under the same visibility rule.
   */
  async findBySlug(caller: AuthUser | null, slug: string): Promise<{ record: PropertyRecord } | { movedTo: string }> {
    const holder = await this.slugHolder(slug);
    const loaded = holder && (await this.records.record(holder.listingId));
    assertCanView(caller, loaded?.access);
    if (!holder!.current && loaded!.record.slug !== slug) return { movedTo: loaded!.record.slug };
    return { record: caller ? (await this.withFavorites(caller, [loaded!.record]))[0]! : loaded!.record };
  }

  /**
   * Published listings, one page (GET /properties without filters, through SearchService.answer); the answer is
   * cached per page while the data stamp holds, and the same object returned while it does.
   */
  async listPublished(caller: AuthUser | null, window: PageWindow, sort: ListSort = 'd_date'): Promise<PropertyListRecord> {
    const version = await this.records.version();
    const key = `${sort}:${window.page}:${window.perPage}`;
    const cached = this.pageCache.get(key);
    let answer = cached?.version === version ? cached.answer : undefined;
    if (!answer) {
      const [ids, total] = await Promise.all([pages.findPublishedIds(this.db, sort, window), this.publishedCount(version)]);
      const properties = (await this.records.summariesOf(ids)).map((loaded) => loaded.record);
      answer = Object.freeze({ properties, pagination: paginationOf(total, window) });
      if (this.pageCache.size >= MAX_CACHED_PAGES) this.pageCache.clear();
      this.pageCache.set(key, { version, answer });
    }
    if (!caller) return answer;
    return { ...answer, properties: await this.withFavorites(caller, answer.properties) };
  }

  /**
   * One page of the published listings of an agent (naming it) or of an agency (its own and those naming one of
   * its agents), in the order of `sortby`: their ids and total (docs/api.md 12, the directory's listing pages).
   */
  publishedPageOf(
    owner: { kind: 'agent' | 'agency'; id: number },
    sort: ListSort,
    window: PageWindow,
  ): Promise<{ ids: number[]; total: number }> {
    return owner.kind === 'agent'
      ? pages.findAgentListingPage(this.db, owner.id, sort, window)
      : pages.findAgencyListingPage(this.db, owner.id, sort, window);
  }

  /** Summaries of the given listings in that order, `is_favorite` set for the caller (other modules' lists). */
  async summaries(caller: AuthUser | null, ids: readonly number[]): Promise<PropertySummaryRecord[]> {
    const records = (await this.records.summariesOf(ids)).map((loaded) => loaded.record);
    return caller ? this.withFavorites(caller, records) : records;
  }

  /** The loaded summaries with their access facts, for modules that filter by visibility themselves. */
  async loadSummaries(ids: readonly number[]): Promise<Loaded<PropertySummaryRecord>[]> {
    return this.records.summariesOf(ids);
  }

  /** Who may see and change a listing (one primary-key query), for modules that act on listings. */
  async findAccess(id: number): Promise<ListingAccess | undefined> {
    const [core] = await repository.findListingCores(this.db, [id]);
    return core && accessOf(core);
  }

  /** The gallery of a listing the caller may see, in order (GET /properties/{id}/media). */
  async gallery(caller: AuthUser | null, id: number): Promise<MediaRecord[]> {
    const loaded = await this.records.record(id);
    assertCanView(caller, loaded?.access);
    // The schema refers to Media by $ref, which types as unknown; the mapper builds MediaRecords.
    return loaded!.record.gallery as MediaRecord[];
  }

  async create(caller: AuthUser, input: CreatePropertyInput): Promise<PropertyRecord> {
    const directory = await repository.findDirectoryOf(this.db, caller.id);
    // Read before the transaction: on SQLite its one connection is the transaction's until it ends.
    const required = await this.submission.submissionFields();
    let id: number | undefined;
    for (let attempt = 1; id === undefined; attempt++) {
      try {
        const contended = attempt > 1;
        id = await this.db.transaction().execute((trx) => this.insert(trx, caller, input, directory, contended, required));
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= CREATE_ATTEMPTS) throw error;
      }
    }
    return this.freshRecord(caller, id);
  }

  /**
   * POST /properties/with-media: the images become the gallery after any `media_ids`; they are stored
   * first (each checked before any is kept) and removed again if the listing is refused.
   */
  async createWithImages(caller: AuthUser, input: CreatePropertyInput, images: readonly Buffer[]): Promise<PropertyRecord> {
    const given = input.media_ids ?? [];
    if (given.length + images.length > MAX_GALLERY)
      throw AppError.invalidField('images', 'rule_max_items', { limit: MAX_GALLERY - given.length });
    const uploaded = (await this.media.uploadImages(caller, images)).map((media) => media.id);
    try {
      return await this.create(caller, { ...input, media_ids: [...given, ...uploaded] });
    } catch (error) {
      await this.media.discard(uploaded);
      throw error;
    }
  }

  async update(caller: AuthUser, id: number, input: UpdatePropertyInput): Promise<PropertyRecord> {
    const directory = await repository.findDirectoryOf(this.db, caller.id);
    const required = await this.submission.submissionFields();
    try {
      await this.write(caller, id, input, directory, required);
    } catch (error) {
      // Two listings taking the same new slug at once: the unique index decides, the loser hears why.
      if (input.slug !== undefined && isUniqueViolation(error)) throw slugTaken();
      throw error;
    }
    return this.freshRecord(caller, id);
  }

  private async write(
    caller: AuthUser,
    id: number,
    input: UpdatePropertyInput,
    directory: CallerDirectory,
    required: readonly SubmissionField[],
  ): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const [core] = await repository.findListingCores(trx, [id]);
      const access = core && accessOf(core);
      assertCanView(caller, access);
      assertCanManage(caller, access);
      const existing = { id, authorId: core!.author_id, locations: await repository.findLocationLinks(trx, id) };
      const changes = await checkListingInput(trx, caller, input, existing, directory, this.taxonomies);
      const newSlug = changes.columns.slug;
      if (newSlug === core!.slug) delete changes.columns.slug;
      else if (newSlug !== undefined) {
        const holder = await repository.findSlugHolder(trx, newSlug);
        if (holder && holder.listingId !== id) throw slugTaken();
      }
      const to = this.stateAfterUpdate(caller, core!.status, input, hasEdits(changes));
      // A PUT that changes nothing writes nothing (and does not send a published listing back to review).
      if (to === core!.status && !hasEdits(changes)) return;
      // Submitting a draft in per_listing mode needs its paid fee.
      await this.quotas.chargeMove(trx, caller, id, core!.status, to);
      const now = new Date();
      const columns: ListingUpdate = { ...changes.columns, updated_at: now.toISOString() };
      if (to !== core!.status) {
        Object.assign(columns, this.entering(to, core!.status, core!.published_at, now, changes.columns.expires_at), { status: to });
      }
      // A featured image dropped from the gallery stops being the featured image.
      if (
        changes.galleryIds &&
        columns.featured_image_id === undefined &&
        core!.featured_image_id !== null &&
        !changes.galleryIds.includes(core!.featured_image_id)
      ) {
        columns.featured_image_id = null;
      }
      // The outcome was decided from the state read above: a state change committed since (a moderator's
      // decision) must not be overwritten, so the write applies only in that state.
      if (!(await repository.updateListingInState(trx, id, core!.status, columns)))
        throw new AppError('conflict', 'listing_changed_meanwhile');
      if (to !== core!.status) {
        await repository.recordTransition(trx, { listingId: id, from: core!.status, to, actorId: caller.id, at: columns.updated_at! });
      }
      if (changes.columns.slug !== undefined) await repository.retireSlug(trx, id, core!.slug, changes.columns.slug, columns.updated_at!);
      await this.writeLinks(trx, id, changes);
      if (core!.status === 'draft' && to !== 'draft' && !isModerator(caller)) await assertSubmittable(trx, id, required);
    });
  }

  /**
   * Sets a listing's gallery to `mediaIds` in order, without a caller: the pictures a feed import fetched for
   * it (media its author owns). The featured image stays if it is still in the gallery.
   */
  async setImportedGallery(listingId: number, mediaIds: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.media.replaceListingGallery(trx, listingId, mediaIds);
      await repository.fitFeaturedImageToGallery(trx, listingId, mediaIds, new Date().toISOString());
    });
  }

  /** Sets a listing's attachments to `mediaIds` in order, without a caller: the documents a feed import fetched for it. */
  async setImportedAttachments(listingId: number, mediaIds: number[]): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.media.replaceListingAttachments(trx, listingId, mediaIds);
      await repository.touchListing(trx, listingId, new Date().toISOString());
    });
  }

  /** Deletes the listing with its gallery: rows in one transaction, then the files no other row uses. */
  async delete(caller: AuthUser, id: number): Promise<void> {
    const removed = await this.db.transaction().execute(async (trx) => {
      const [core] = await repository.findListingCores(trx, [id]);
      const access = core && accessOf(core);
      assertCanView(caller, access);
      assertCanManage(caller, access);
      const gallery = await this.media.deleteListingGallery(trx, id);
      await repository.deleteListing(trx, id);
      return gallery;
    });
    await this.media.removeFilesOf(removed);
  }

  private async insert(
    trx: Transaction<DB>,
    caller: AuthUser,
    input: CreatePropertyInput,
    directory: CallerDirectory,
    contended: boolean,
    required: readonly SubmissionField[],
  ): Promise<number> {
    const changes = await checkListingInput(trx, caller, input, null, directory, this.taxonomies);
    // Spent before anything is written: a 402 leaves nothing behind, and a concurrent creation by the same
    // user waits on the membership row (then finds the credit gone) instead of racing for the slug.
    await this.quotas.chargeCreation(trx, caller);
    const moderator = isModerator(caller);
    const now = new Date();
    const at = now.toISOString();
    const draft = (input.draft ?? false) || this.quotas.createsAsDraft(caller);
    const status: ListingState =
      moderator && input.status !== undefined
        ? input.status
        : initialState(draft, { byModerator: moderator, requireApproval: this.rules.requireApproval });
    const isAgent = caller.role === 'agent' && directory.agentId !== null;
    // docs/api.md 12: an agent's listing shows its own agent record by default; others show the author.
    changes.agentIds ??= isAgent ? [directory.agentId!] : [];
    const title = changes.columns.title!;
    const base = slugify(title) || 'listing';
    const slug = await firstFreeSlug(contended ? `${base}-${randomBytes(3).toString('hex')}` : base, (candidate) =>
      repository.isSlugTaken(trx, candidate),
    );
    const id = await repository.insertListing(trx, {
      ...changes.columns,
      title,
      slug,
      status,
      author_id: changes.columns.author_id ?? caller.id,
      currency: changes.columns.currency ?? this.rules.defaultCurrency,
      agent_display: changes.columns.agent_display ?? (isAgent ? 'agent_info' : 'author_info'),
      agency_id: changes.columns.agency_id !== undefined ? changes.columns.agency_id : (directory.agencyId ?? directory.agentAgencyId),
      created_at: at,
      updated_at: at,
      published_at: null,
      expires_at: changes.columns.expires_at ?? null,
      ...(status === 'publish' ? this.entering('publish', null, null, now, changes.columns.expires_at) : {}),
    });
    await repository.recordTransition(trx, { listingId: id, from: null, to: status, actorId: caller.id, at });
    await this.writeLinks(trx, id, changes);
    if (status !== 'draft' && !moderator) await assertSubmittable(trx, id, required);
    return id;
  }

  private async writeLinks(trx: Transaction<DB>, id: number, changes: ListingChanges): Promise<void> {
    await repository.replaceTermLinks(trx, id, changes.termTaxonomies, changes.terms);
    if (changes.agentIds) await repository.replaceAgents(trx, id, changes.agentIds);
    if (changes.galleryIds) await this.media.replaceListingGallery(trx, id, changes.galleryIds);
    if (changes.attachmentIds) await this.media.replaceListingAttachments(trx, id, changes.attachmentIds);
  }

  /**
   * The state after a PUT: a moderator's `status` (any state), `draft: false` submitting a draft,
   * `draft: true` on a draft (nothing to do; on any other state 409), else the edit rule of 4.3 when
   * something was edited.
   */
  private stateAfterUpdate(caller: AuthUser, from: ListingState, input: UpdatePropertyInput, edited: boolean): ListingState {
    const moderator = isModerator(caller);
    if (moderator && input.status !== undefined) return input.status;
    if (input.draft === true && from !== 'draft') throw new AppError('invalid_transition', 'invalid_transition', [], { state: from });
    if (input.draft === false && from === 'draft') {
      return targetState('submit_listing', from, { byModerator: moderator, requireApproval: this.rules.requireApproval })!;
    }
    return edited ? stateAfterEdit(from, moderator, this.rules.editRequiresApproval) : from;
  }

  /** Columns of a listing entering `to`: the first publication date, and a new expiry period when due. */
  private entering(
    to: ListingState,
    from: ListingState | null,
    publishedAt: string | null,
    now: Date,
    explicitExpiry?: string | null,
  ): ListingUpdate {
    if (to !== 'publish') return {};
    const columns: ListingUpdate = { published_at: publishedAt ?? now.toISOString() };
    const expiry = expiryOnPublish(from, now, this.rules.ttlDays);
    if (expiry !== undefined && explicitExpiry === undefined) columns.expires_at = expiry;
    return columns;
  }

  /** Which listing a slug names, kept while the listings stamp holds (a slug change renews it). */
  private async slugHolder(slug: string): Promise<{ listingId: number; current: boolean } | undefined> {
    const version = await this.records.version();
    if (this.slugCache.version !== version) this.slugCache = { version, holders: new Map() };
    const { holders } = this.slugCache;
    if (holders.has(slug)) return holders.get(slug);
    const holder = await repository.findSlugHolder(this.db, slug);
    // An unknown slug is not kept: a page request cannot fill the cache with made-up paths.
    if (holder && version === this.slugCache.version) {
      if (holders.size >= MAX_CACHED_SLUGS) holders.clear();
      holders.set(slug, holder);
    }
    return holder;
  }

  /** Counting every published listing is the costly part of a page (milliseconds at 100,000): one count per version. */
  private async publishedCount(version: string): Promise<number> {
    if (this.countCache?.version !== version) this.countCache = { version, total: await pages.countPublished(this.db) };
    return this.countCache.total;
  }

  /** The record after a write (this process's own write renewed the stamp, so it is rebuilt). */
  private async freshRecord(caller: AuthUser, id: number): Promise<PropertyRecord> {
    const loaded = await this.records.record(id);
    if (!loaded) throw AppError.notFound(); // deleted by someone else in the meantime
    return (await this.withFavorites(caller, [loaded.record]))[0]!;
  }

  private async withFavorites<T extends { id: number; is_favorite: boolean }>(caller: AuthUser, records: readonly T[]): Promise<T[]> {
    const favorites = await repository.findFavoriteIds(
      this.db,
      caller.id,
      records.map((record) => record.id),
    );
    return records.map((record) => (favorites.has(record.id) ? { ...record, is_favorite: true } : record));
  }
}

/** A slug another listing holds or held: 409, named on the field. */
function slugTaken(): AppError {
  return new AppError('conflict', 'listing_slug_taken', [{ field: 'slug', key: 'listing_slug_taken' }]);
}

/** Whether an update body changes anything besides the state. */
function hasEdits(changes: ListingChanges): boolean {
  return (
    Object.keys(changes.columns).length > 0 ||
    changes.termTaxonomies.length > 0 ||
    changes.agentIds !== undefined ||
    changes.galleryIds !== undefined ||
    changes.attachmentIds !== undefined
  );
}
