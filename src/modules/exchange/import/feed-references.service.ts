import type { Kysely } from 'kysely';
import type { FeedListing } from '../../../adapters/feeds/feed-records.js';
import type { DB, Taxonomy } from '../../../db/schema/index.js';
import { AppError, type FieldError } from '../../../lib/errors.js';
import { slugify, sortKey } from '../../../lib/slug.js';
import { plainText } from '../../../lib/text.js';
import type { TermLink } from '../../properties/index.js';
import type { TaxonomiesService } from '../../taxonomies/index.js';
import * as repository from './feed-import.repository.js';

/** The term fields of a feed's listing, their taxonomies and the API's fields of ids, in the order links are written. */
export const TERM_FIELDS = [
  ['types', 'property_type', 'type_ids'],
  ['statuses', 'property_status', 'status_ids'],
  ['labels', 'property_label', 'label_ids'],
  ['features', 'property_feature', 'feature_ids'],
] as const satisfies readonly (readonly [keyof FeedListing, Taxonomy, string])[];

/** Location fields, top down: each level's parent is the level before it. */
export const LOCATION_FIELDS = [
  ['country', 'property_country'],
  ['state', 'property_state'],
  ['city', 'property_city'],
  ['area', 'property_area'],
] as const satisfies readonly (readonly [keyof FeedListing, Taxonomy])[];

/** A listing's links resolved to ids; each is present when the record carries the field. */
export interface ResolvedLinks {
  /** Term links of the carried term fields, in field order. */
  terms?: TermLink[];
  termTaxonomies: Taxonomy[];
  agentIds?: number[];
  agencyId?: number | null;
}

/**
 * Names in feeds to ids here, remembered for the run: terms by name or slug (a missing one is created, as a
 * site's own listings would have had it), agents and agencies by the feed's key (what FeedDirectory made of the
 * feed's Member or Office), e-mail or, in CSV, id (an unknown one rejects the record). One import resolves each name
 * once.
 */
export class FeedReferences {
  /** Term ids by taxonomy and folded name; a message key where the name cannot make a term (no letter or digit). */
  private readonly terms = new Map<string, number | FieldError['key']>();
  private readonly locations = new Map<string, number>();
  /** Ids by reference; null for a reference that names none here. */
  private readonly directory = { agents: new Map<string, number | null>(), agencies: new Map<string, number | null>() };
  /** The keys of the feed's own Offices. */
  private readonly officeKeys = new Set<string>();

  /** `byId`: a reference of digits may name an agent or agency by its id here (ImportOptions `directoryIds`). */
  constructor(
    private readonly db: Kysely<DB>,
    private readonly taxonomies: TaxonomiesService,
    private readonly byId: boolean,
  ) {}

  /** The feed's key of a Member names its agent from now on (null: the Member was rejected, and names none). */
  knowFeedAgent(key: string, id: number | null): void {
    this.directory.agents.set(key, id);
  }

  knowFeedAgency(key: string, id: number | null): void {
    this.directory.agencies.set(key, id);
    this.officeKeys.add(key);
  }

  /**
   * The agency a Member's `OfficeKey` names: an Office of the feed by its key, or an agency here by e-mail; undefined
   * for none. Not by id: a key of an Office the feed left out is a number of the feed's, not an id here.
   */
  async officeOf(reference: string): Promise<number | undefined> {
    if (!this.officeKeys.has(reference) && !reference.includes('@')) return undefined;
    await this.loadDirectory('agencies', [reference]);
    return this.directory.agencies.get(reference) ?? undefined;
  }

  /**
   * Loads what a batch of records names, creating missing terms; the links of each record, or its errors.
   * `beforeEach` is awaited before each record's links (the import's event-loop turns).
   */
  async resolve(listings: readonly FeedListing[], beforeEach?: () => Promise<void>): Promise<(ResolvedLinks | FieldError[])[]> {
    await this.loadTerms(listings);
    await this.loadDirectory(
      'agents',
      listings.flatMap((listing) => listing.agents ?? []),
    );
    await this.loadDirectory(
      'agencies',
      listings.flatMap((listing) => (listing.agency ? [listing.agency] : [])),
    );
    const resolved: (ResolvedLinks | FieldError[])[] = [];
    for (const listing of listings) {
      await beforeEach?.();
      resolved.push(await this.linksOf(listing));
    }
    return resolved;
  }

  private async linksOf(listing: FeedListing): Promise<ResolvedLinks | FieldError[]> {
    const errors: FieldError[] = [];
    const links: ResolvedLinks = { termTaxonomies: [] };
    for (const [field, taxonomy] of TERM_FIELDS) {
      const names = listing[field];
      if (names === undefined) continue;
      links.termTaxonomies.push(taxonomy);
      const ids = new Set<number>();
      names.forEach((name, n) => {
        const term = this.terms.get(termKey(taxonomy, name))!;
        if (typeof term === 'number') ids.add(term);
        else errors.push({ field: `${field}.${n}`, key: term });
      });
      (links.terms ??= []).push(...[...ids].map((termId) => ({ termId, taxonomy })));
    }
    let parent: number | null = null;
    for (const [field, taxonomy] of LOCATION_FIELDS) {
      const name = listing[field];
      if (name === undefined) continue;
      links.termTaxonomies.push(taxonomy);
      if (name === null) continue;
      parent = await this.location(taxonomy, name, parent, field, errors);
      if (parent !== null) (links.terms ??= []).push({ termId: parent, taxonomy });
    }
    if (listing.agents !== undefined) {
      const ids: number[] = [];
      listing.agents.forEach((reference, n) => {
        const id = this.directory.agents.get(reference);
        if (id === null || id === undefined) errors.push({ field: `agents.${n}`, key: 'exchange_rule_unknown_agent' });
        else if (!ids.includes(id)) ids.push(id);
      });
      links.agentIds = ids;
    }
    if (listing.agency !== undefined) {
      const id = listing.agency === null ? null : (this.directory.agencies.get(listing.agency) ?? undefined);
      if (id === undefined) errors.push({ field: 'agency', key: 'exchange_rule_unknown_agency' });
      else links.agencyId = id;
    }
    return errors.length > 0 ? errors : links;
  }

  private async loadTerms(listings: readonly FeedListing[]): Promise<void> {
    for (const [field, taxonomy] of TERM_FIELDS) {
      const missing = [...new Set(listings.flatMap((listing) => listing[field] ?? []))].filter(
        (name) => !this.terms.has(termKey(taxonomy, name)),
      );
      if (missing.length === 0) continue;
      const clean = missing.map(plainText);
      const found = await repository.findTermsByName(this.db, taxonomy, clean.map(sortKey), clean.map(slugify));
      for (const [n, name] of missing.entries()) {
        // A name matches a term of that name first, then one whose slug it is (feeds that carry slugs).
        const term = found.find((row) => row.sort_key === sortKey(clean[n]!)) ?? found.find((row) => row.slug === slugify(clean[n]!));
        this.terms.set(termKey(taxonomy, name), term?.id ?? (await this.createTerm(taxonomy, name)));
      }
    }
  }

  private async createTerm(taxonomy: Taxonomy, name: string): Promise<number | FieldError['key']> {
    try {
      return (await this.taxonomies.createTerm(taxonomy, { name })).id;
    } catch (error) {
      if (!(error instanceof AppError) || !error.fields[0]) throw error;
      return error.fields[0].key;
    }
  }

  private async location(taxonomy: Taxonomy, name: string, parent: number | null, field: string, errors: FieldError[]) {
    const key = `${taxonomy}\n${parent ?? 0}\n${sortKey(name)}`;
    let id = this.locations.get(key);
    if (id === undefined) {
      try {
        id = await this.db.transaction().execute((trx) => this.taxonomies.findOrCreateLocation(trx, taxonomy, name, parent, field));
      } catch (error) {
        if (!(error instanceof AppError) || error.fields.length === 0) throw error;
        errors.push(...error.fields);
        return null;
      }
      this.locations.set(key, id);
    }
    return id;
  }

  private async loadDirectory(table: 'agents' | 'agencies', references: readonly string[]): Promise<void> {
    const known = this.directory[table];
    const wanted = [...new Set(references)].filter((reference) => !known.has(reference));
    if (wanted.length === 0) return;
    const emailOf = (reference: string) => (reference.includes('@') ? reference.toLowerCase() : undefined);
    const ids = this.byId ? wanted.filter((reference) => /^\d{1,9}$/.test(reference)).map(Number) : [];
    const emails = wanted.map(emailOf).filter((email): email is string => email !== undefined);
    const rows = await repository.findDirectoryRecords(this.db, table, emails, ids);
    for (const reference of wanted) {
      const email = emailOf(reference);
      const row =
        email !== undefined
          ? rows.find((found) => found.email.toLowerCase() === email)
          : ids.length > 0
            ? rows.find((found) => String(found.id) === reference)
            : undefined;
      known.set(reference, row?.id ?? null);
    }
  }
}

/** Names are compared as the taxonomy stores them: HTML-free, folded. */
function termKey(taxonomy: Taxonomy, name: string): string {
  return `${taxonomy}\n${sortKey(plainText(name))}`;
}
