import type { Kysely, Transaction } from 'kysely';
import { isUniqueViolation, lockTransactionKey } from '../../db/dialect/index.js';
import type { CacheStamps } from '../../db/cache-versions.js';
import type { DB, Taxonomy, TermUpdate } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { firstFreeSlug, slugify, sortKey } from '../../lib/slug.js';
import { plainText, richText } from '../../lib/text.js';
import { nowIso } from '../../lib/time.js';
import * as repository from './taxonomies.repository.js';
import { toTerm } from './taxonomies.mapper.js';
import {
  COLOURED_TAXONOMIES,
  type CreateTermInput,
  LOCATION_PARENT,
  TERM_ENDPOINTS,
  type TermEndpoint,
  type TermQueryInput,
  type TermRecord,
  type UpdateTermInput,
} from './taxonomies.schemas.js';
import { parseTermQuery, termQueryKey } from './term-query.js';

type LocationField = 'country_id' | 'state_id' | 'city_id';
const LOCATION_FIELDS: readonly LocationField[] = ['country_id', 'state_id', 'city_id'];
/** Deeper than any real hierarchy; stops the ancestor walk on corrupted data. */
const MAX_DEPTH = 100;

/** Distinct term queries kept; past this the cache starts over (searches can make the key space large). */
const MAX_CACHED_LISTINGS = 1000;

export class TaxonomiesService {
  private readonly listings = new Map<string, { version: string; terms: readonly TermRecord[] }>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly stamps: CacheStamps,
  ) {}

  /**
   * A term listing (docs/api.md 1.2); an empty array is the caller's record-not-found case. Answers are cached
   * per query and stay valid while the database's terms stamp (renewed by triggers on any term change,
   * counts included, from any process) is unchanged; the same frozen array is returned while valid.
   * See CacheStamps for how soon another process's change is seen.
   */
  async listTerms(endpoint: TermEndpoint, query: TermQueryInput): Promise<readonly TermRecord[]> {
    const key = termQueryKey(endpoint, query);
    // Read the stamp first: a change racing the query below leaves an entry that is merely refreshed.
    const version = await this.stamps.current('terms');
    const cached = this.listings.get(key);
    if (cached?.version === version) return cached.terms;
    const filter = parseTermQuery(endpoint, query);
    const terms = Object.freeze((await repository.findTerms(this.db, filter)).map(toTerm));
    if (this.listings.size >= MAX_CACHED_LISTINGS) this.listings.clear();
    this.listings.set(key, { version, terms });
    return terms;
  }

  /** The terms of one taxonomy, as its listing endpoint answers them (the website's menus and facets). */
  async termsOf(taxonomy: Taxonomy, query: TermQueryInput): Promise<readonly TermRecord[]> {
    const endpoint = TERM_ENDPOINTS.find((candidate) => candidate.taxonomy === taxonomy);
    if (!endpoint) throw new Error(`no term endpoint lists ${taxonomy}`);
    return this.listTerms(endpoint, query);
  }

  /**
   * GET /terms/{taxonomy}/{id}: one term; a place without a centre of its own gets its published listings' mean
   * position (computed here rather than in the lists, whose every city would cost a pass over its listings).
   */
  async term(taxonomy: Taxonomy, id: number): Promise<TermRecord> {
    const term = await this.termOrThrow(this.db, taxonomy, id);
    if (term.center || !LOCATION_TAXONOMIES.includes(taxonomy)) return term;
    const center = await repository.findListingsCentre(this.db, id);
    return center ? { ...term, center } : term;
  }

  async hasTerms(): Promise<boolean> {
    return repository.anyTermExists(this.db);
  }

  async createTerm(taxonomy: Taxonomy, input: CreateTermInput): Promise<TermRecord> {
    const name = requiredPlainText('name', input.name);
    const slug = validSlug(input.slug ?? name, input.slug === undefined ? 'name' : 'slug');
    const now = nowIso();
    return this.db.transaction().execute(async (trx) => {
      if (input.parent) await this.checkParent(trx, taxonomy, input.parent, undefined);
      const locationParentId = await this.checkLocationParent(trx, taxonomy, input);
      this.checkColour(taxonomy, input.color);
      const center = checkCentre(taxonomy, input);
      const id = await this.withUniqueSlug(() =>
        repository.insertTerm(trx, {
          taxonomy,
          name,
          slug,
          sort_key: sortKey(name),
          description: richText(input.description ?? ''),
          parent_id: input.parent || null,
          location_parent_id: locationParentId ?? null,
          image_url: input.image_url ?? null,
          marker_icon_url: input.marker_icon_url ?? null,
          marker_retina_icon_url: input.marker_retina_icon_url ?? null,
          custom_link: input.custom_link ?? null,
          color: input.color?.toLowerCase() ?? null,
          latitude: center?.latitude ?? null,
          longitude: center?.longitude ?? null,
          created_at: now,
          updated_at: now,
        }),
      );
      return this.termOrThrow(trx, taxonomy, id);
    });
  }

  /**
   * The id of the location term named `name` (compared folded) under `parentId` in `taxonomy`, created in the
   * caller's transaction when there is none (a listing naming a new city). A taken slug gets a number
   * (`springfield-2`): the same name may exist under another parent. `field` names the input in errors.
   */
  async findOrCreateLocation(
    trx: Transaction<DB>,
    taxonomy: Taxonomy,
    name: string,
    parentId: number | null,
    field: string,
  ): Promise<number> {
    // Two listings naming the same new place at once must not create it twice: the second waits here,
    // then finds the first one's term.
    await lockTransactionKey(trx, `location:${taxonomy}:${parentId ?? 0}:${sortKey(name)}`);
    const existing = await repository.findLocationByName(trx, taxonomy, sortKey(name), parentId);
    if (existing !== undefined) return existing;
    const base = slugify(name);
    if (base === '') throw AppError.invalidField(field, 'rule_empty_slug');
    const slug = await firstFreeSlug(base, (candidate) => repository.slugExists(trx, taxonomy, candidate));
    const now = nowIso();
    return repository.insertTerm(trx, {
      taxonomy,
      name,
      slug,
      sort_key: sortKey(name),
      parent_id: null,
      location_parent_id: parentId,
      image_url: null,
      marker_icon_url: null,
      marker_retina_icon_url: null,
      custom_link: null,
      color: null,
      created_at: now,
      updated_at: now,
    });
  }

  async updateTerm(taxonomy: Taxonomy, id: number, input: UpdateTermInput): Promise<TermRecord> {
    return this.db.transaction().execute(async (trx) => {
      await this.termOrThrow(trx, taxonomy, id);
      const changes: TermUpdate = { updated_at: nowIso() };
      if (input.name !== undefined) {
        changes.name = requiredPlainText('name', input.name);
        changes.sort_key = sortKey(changes.name);
      }
      if (input.slug !== undefined) changes.slug = validSlug(input.slug, 'slug');
      if (input.description !== undefined) changes.description = richText(input.description);
      if (input.parent !== undefined) {
        if (input.parent !== 0) await this.checkParent(trx, taxonomy, input.parent, id);
        changes.parent_id = input.parent || null;
      }
      const locationParentId = await this.checkLocationParent(trx, taxonomy, input);
      if (locationParentId !== undefined) changes.location_parent_id = locationParentId;
      if (input.color !== undefined) {
        this.checkColour(taxonomy, input.color);
        changes.color = input.color?.toLowerCase() ?? null;
      }
      for (const field of ['image_url', 'marker_icon_url', 'marker_retina_icon_url', 'custom_link'] as const) {
        if (input[field] !== undefined) changes[field] = input[field];
      }
      const center = checkCentre(taxonomy, input);
      if (center !== undefined) Object.assign(changes, center ?? { latitude: null, longitude: null });
      await this.withUniqueSlug(() => repository.updateTerm(trx, id, changes));
      return this.termOrThrow(trx, taxonomy, id);
    });
  }

  async deleteTerm(taxonomy: Taxonomy, id: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await this.termOrThrow(trx, taxonomy, id);
      await repository.deleteTerm(trx, id);
    });
  }

  private async termOrThrow(db: Kysely<DB>, taxonomy: Taxonomy, id: number): Promise<TermRecord> {
    const row = await repository.findTermById(db, taxonomy, id);
    if (!row) throw AppError.notFound();
    return toTerm(row);
  }

  /** The parent must be a term of the same taxonomy, and (on update) not the term or a descendant of it. */
  private async checkParent(db: Kysely<DB>, taxonomy: Taxonomy, parentId: number, selfId: number | undefined): Promise<void> {
    let current: number | null = parentId;
    for (let depth = 0; current !== null && depth < MAX_DEPTH; depth++) {
      if (current === selfId) throw AppError.invalidField('parent', 'rule_parent_cycle');
      const row = await repository.findTaxonomyOf(db, current);
      if (!row || row.taxonomy !== taxonomy) {
        throw AppError.invalidField('parent', depth === 0 ? 'rule_unknown_term' : 'rule_invalid');
      }
      current = row.parent_id;
    }
  }

  /**
   * Location terms name their parent with the field of their level (a state's `country_id`, …). Returns the
   * id to store, null to clear, undefined when the body says nothing about it.
   */
  private async checkLocationParent(
    db: Kysely<DB>,
    taxonomy: Taxonomy,
    input: Partial<Record<LocationField, number | null>>,
  ): Promise<number | null | undefined> {
    const expected = LOCATION_PARENT[taxonomy as keyof typeof LOCATION_PARENT];
    for (const field of LOCATION_FIELDS) {
      if (input[field] !== undefined && expected?.field !== field) {
        throw AppError.invalidField(field, 'rule_not_for_taxonomy', { taxonomy });
      }
    }
    if (!expected) return undefined;
    const value = input[expected.field];
    if (value === undefined || value === null) return value;
    const row = await repository.findTaxonomyOf(db, value);
    if (row?.taxonomy !== expected.taxonomy) {
      throw AppError.invalidField(expected.field, 'rule_wrong_taxonomy', { taxonomy: expected.taxonomy });
    }
    return value;
  }

  private checkColour(taxonomy: Taxonomy, color: string | null | undefined): void {
    if (color !== undefined && color !== null && !COLOURED_TAXONOMIES.includes(taxonomy)) {
      throw AppError.invalidField('color', 'rule_not_for_taxonomy', { taxonomy });
    }
  }

  private async withUniqueSlug<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError('conflict', 'term_slug_taken', [{ field: 'slug', key: 'term_slug_taken' }]);
      throw error;
    }
  }
}

function requiredPlainText(field: string, value: string): string {
  const text = plainText(value);
  if (text === '') throw AppError.invalidField(field, 'rule_required');
  return text;
}

function validSlug(source: string, field: string): string {
  const slug = slugify(source);
  if (slug === '') throw AppError.invalidField(field, 'rule_empty_slug');
  return slug;
}

const LOCATION_TAXONOMIES: readonly Taxonomy[] = ['property_country', 'property_state', 'property_city', 'property_area'];

/**
 * A body's centre (`latitude` with `longitude`), for location terms only: the position to store, null to clear
 * it (both null), undefined when the body says nothing about it. One without the other is a 400 on the missing one.
 */
function checkCentre(
  taxonomy: Taxonomy,
  input: { latitude?: number | null; longitude?: number | null },
): { latitude: number; longitude: number } | null | undefined {
  const { latitude, longitude } = input;
  if (latitude === undefined && longitude === undefined) return undefined;
  if (!LOCATION_TAXONOMIES.includes(taxonomy)) {
    throw AppError.invalidField(latitude !== undefined ? 'latitude' : 'longitude', 'rule_not_for_taxonomy', { taxonomy });
  }
  if (latitude === null && longitude === null) return null;
  if (latitude === undefined || latitude === null) throw AppError.invalidField('latitude', 'rule_required');
  if (longitude === undefined || longitude === null) throw AppError.invalidField('longitude', 'rule_required');
  return { latitude, longitude };
}
