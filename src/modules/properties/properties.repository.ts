import { sql } from 'kysely';
import type { ListingRow, ListingState, ListingUpdate, MediaRow, NewListing, Taxonomy } from '../../db/schema/index.js';
import { recordListingMoves } from '../../db/domain-events.js';
import { searchColumnsOf } from '../../lib/search-columns.js';
import type { Executor } from '../../db/executor.js';

export interface TermLink {
  termId: number;
  taxonomy: Taxonomy;
}

/**
 * Listing storage. Term counts are not maintained here: database triggers keep `terms.count` equal to
 * the published listings using each term, whichever statement changes a link or a state
 * (db/dialect/ddl/term-triggers.ts), and renew the `listings` cache stamp (db/dialect/ddl/listing-triggers.ts).
 */
export async function insertListing(db: Executor, listing: NewListing, terms: TermLink[] = []): Promise<number> {
  // The search columns are written with the row: one statement, never a listing without its words.
  const row = { ...listing, ...searchColumnsOf(listing) };
  const { id } = await db.insertInto('listings').values(row).returning('id').executeTakeFirstOrThrow();
  await linkTerms(db, id, terms);
  return id;
}

export async function linkTerms(db: Executor, listingId: number, terms: TermLink[]): Promise<void> {
  if (terms.length === 0) return;
  await db
    .insertInto('listing_terms')
    .values(terms.map((t, position) => ({ listing_id: listingId, term_id: t.termId, taxonomy: t.taxonomy, position })))
    .execute();
}

export async function unlinkTerms(db: Executor, listingId: number, termIds: number[]): Promise<void> {
  if (termIds.length === 0) return;
  await db.deleteFrom('listing_terms').where('listing_id', '=', listingId).where('term_id', 'in', termIds).execute();
}

/**
 * Replaces the listing's terms of the given taxonomies with `terms` (each taxonomy keeps the given order). A
 * taxonomy whose links are already these, in this order, is left as it is: rewriting it would move each term's
 * count down and up again, renewing the terms stamp (db/dialect/ddl/term-triggers.ts) for nothing, which a feed's
 * re-import of changed titles did for every listing.
 */
export async function replaceTermLinks(db: Executor, listingId: number, taxonomies: Taxonomy[], terms: TermLink[]): Promise<void> {
  if (taxonomies.length === 0) return;
  const current = await db
    .selectFrom('listing_terms')
    .select(['taxonomy', 'term_id'])
    .where('listing_id', '=', listingId)
    .where('taxonomy', 'in', taxonomies)
    .orderBy('taxonomy')
    .orderBy('position')
    .execute();
  const linked = (links: readonly { taxonomy: Taxonomy; termId: number }[], taxonomy: Taxonomy) =>
    links.filter((link) => link.taxonomy === taxonomy).map((link) => link.termId);
  const stored = current.map((row) => ({ taxonomy: row.taxonomy, termId: row.term_id }));
  const changed = taxonomies.filter((taxonomy) => linked(stored, taxonomy).join() !== linked(terms, taxonomy).join());
  if (changed.length === 0) return;
  await db.deleteFrom('listing_terms').where('listing_id', '=', listingId).where('taxonomy', 'in', changed).execute();
  const written = terms.filter((link) => changed.includes(link.taxonomy));
  if (written.length === 0) return;
  const positions = new Map<Taxonomy, number>();
  await db
    .insertInto('listing_terms')
    .values(
      written.map((t) => {
        const position = positions.get(t.taxonomy) ?? 0;
        positions.set(t.taxonomy, position + 1);
        return { listing_id: listingId, term_id: t.termId, taxonomy: t.taxonomy, position };
      }),
    )
    .execute();
}

export async function replaceAgents(db: Executor, listingId: number, agentIds: number[]): Promise<void> {
  await db.deleteFrom('listing_agents').where('listing_id', '=', listingId).execute();
  if (agentIds.length === 0) return;
  await db
    .insertInto('listing_agents')
    .values(agentIds.map((agentId, position) => ({ listing_id: listingId, agent_id: agentId, position })))
    .execute();
}

/** After a new gallery (the media module's rows): the featured image dropped when no longer in it, and the listing's time moved. */
export async function fitFeaturedImageToGallery(db: Executor, listingId: number, mediaIds: number[], at: string): Promise<void> {
  await db
    .updateTable('listings')
    .set((eb) => ({
      updated_at: at,
      featured_image_id:
        mediaIds.length === 0
          ? null
          : eb.case().when('featured_image_id', 'in', mediaIds).then(eb.ref('featured_image_id')).else(null).end(),
    }))
    .where('id', '=', listingId)
    .execute();
}

/** After new attachments (the media module's rows): the listing's time moved, so that its record is built anew. */
export async function touchListing(db: Executor, listingId: number, at: string): Promise<void> {
  await db.updateTable('listings').set({ updated_at: at }).where('id', '=', listingId).execute();
}

/** Columns that the search columns are computed from (lib/search-columns.ts). */
const SEARCH_SOURCES = ['title', 'description', 'address', 'zipcode', 'reference', 'latitude', 'longitude'] as const;

/** Applies the changes only while the listing is in `status`; says whether it did. */
export async function updateListingInState(db: Executor, id: number, status: ListingState, changes: ListingUpdate): Promise<boolean> {
  const result = await db.updateTable('listings').set(changes).where('id', '=', id).where('status', '=', status).executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  if (SEARCH_SOURCES.some((column) => changes[column] !== undefined)) await refreshSearchColumns(db, id);
  return true;
}

export async function setListingState(db: Executor, id: number, status: ListingState, at: string): Promise<void> {
  await db
    .updateTable('listings')
    .set((eb) => ({
      status,
      updated_at: at,
      // published_at records the first publication; later moves keep it.
      published_at: status === 'publish' ? eb.fn.coalesce('published_at', eb.val(at)) : eb.ref('published_at'),
    }))
    .where('id', '=', id)
    .execute();
}

export interface Transition {
  listingId: number;
  from: ListingState | null;
  to: ListingState;
  actorId: number | null;
  reason?: string;
  at: string;
}

export async function recordTransition(db: Executor, t: Transition): Promise<void> {
  await db
    .insertInto('listing_transitions')
    .values({ listing_id: t.listingId, from_state: t.from, to_state: t.to, actor_id: t.actorId, reason: t.reason ?? '', at: t.at })
    .execute();
  await recordListingMoves(db, [{ listingId: t.listingId, from: t.from, to: t.to, reason: t.reason ?? '' }], t.at);
}

export async function deleteListing(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('listings').where('id', '=', id).execute();
}

/** What a submission rule checks of a listing (submission-rule.ts): its columns, and how many links and pictures it has. */
export interface SubmissionFacts {
  description: string;
  price: number | null;
  address: string;
  latitude: number | null;
  longitude: number | null;
  bedrooms: number | null;
  bathrooms: number | null;
  size: number | null;
  types: number | string | bigint;
  statuses: number | string | bigint;
  cities: number | string | bigint;
  images: number | string | bigint;
}

export async function findSubmissionFacts(db: Executor, id: number): Promise<SubmissionFacts> {
  return db
    .selectFrom('listings as l')
    .select(['l.description', 'l.price', 'l.address', 'l.latitude', 'l.longitude', 'l.bedrooms', 'l.bathrooms', 'l.size'])
    .select((eb) => {
      const links = (taxonomy: Taxonomy) =>
        eb
          .selectFrom('listing_terms as t')
          .select((inner) => inner.fn.countAll().as('n'))
          .whereRef('t.listing_id', '=', 'l.id')
          .where('t.taxonomy', '=', taxonomy);
      return [
        links('property_type').as('types'),
        links('property_status').as('statuses'),
        links('property_city').as('cities'),
        eb
          .selectFrom('media as m')
          .select((inner) => inner.fn.countAll().as('n'))
          .whereRef('m.listing_id', '=', 'l.id')
          .where('m.mime_type', 'like', 'image/%')
          .as('images'),
      ];
    })
    .where('l.id', '=', id)
    .executeTakeFirstOrThrow() as Promise<SubmissionFacts>;
}

/** Whether a listing holds the slug now or held it before (a former slug keeps leading to its listing). */
export async function isSlugTaken(db: Executor, slug: string): Promise<boolean> {
  return (await findSlugHolder(db, slug)) !== undefined;
}

/** The listing a slug names: the one holding it now, else the one that held it before (`current` false). */
export async function findSlugHolder(db: Executor, slug: string): Promise<{ listingId: number; current: boolean } | undefined> {
  const now = await db.selectFrom('listings').select('id').where('slug', '=', slug).executeTakeFirst();
  if (now) return { listingId: now.id, current: true };
  const before = await db.selectFrom('listing_slug_history').select('listing_id').where('slug', '=', slug).executeTakeFirst();
  return before && { listingId: before.listing_id, current: false };
}

/**
 * Records that a listing moved from `from` to `to`: `from` is kept as a former slug of it, and `to`, if it was
 * one of its own former slugs, is current again.
 */
export async function retireSlug(db: Executor, listingId: number, from: string, to: string, at: string): Promise<void> {
  await db.deleteFrom('listing_slug_history').where('slug', '=', to).where('listing_id', '=', listingId).execute();
  await db.insertInto('listing_slug_history').values({ slug: from, listing_id: listingId, retired_at: at }).execute();
}

// Reading records

/** A listing row with what permission checks need: its author's name and the agency user over that author. */
export type ListingCoreRow = ListingRow & {
  author_display_name: string | null;
  /** The user of the agency whose agent is the author; that agency owns the listing too (docs/api.md 0.3). */
  author_agency_user_id: number | null;
};

export async function findListingCores(db: Executor, ids: readonly number[]): Promise<ListingCoreRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('listings as l')
    .leftJoin('users as u', 'u.id', 'l.author_id')
    .leftJoin('agents as a', 'a.user_id', 'l.author_id')
    .leftJoin('agencies as g', 'g.id', 'a.agency_id')
    .selectAll('l')
    .select(['u.display_name as author_display_name', 'g.user_id as author_agency_user_id'])
    .where('l.id', 'in', ids)
    .execute();
}

export interface TermLinkRow {
  listing_id: number;
  taxonomy: Taxonomy;
  id: number;
  name: string;
  slug: string;
  color: string | null;
}

/** Every term of the listings, in each taxonomy's order. */
export async function findTermLinks(db: Executor, ids: readonly number[]): Promise<TermLinkRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('listing_terms as lt')
    .innerJoin('terms as t', 't.id', 'lt.term_id')
    .select(['lt.listing_id', 'lt.taxonomy', 't.id', 't.name', 't.slug', 't.color'])
    .where('lt.listing_id', 'in', ids)
    .orderBy('lt.listing_id')
    .orderBy('lt.position')
    .orderBy('t.id')
    .execute();
}

export interface ListingAgentRow {
  listing_id: number;
  id: number;
  name: string;
  slug: string;
  email: string;
  phone: string;
  agency_id: number | null;
}

export async function findListingAgents(db: Executor, ids: readonly number[]): Promise<ListingAgentRow[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('listing_agents as la')
    .innerJoin('agents as a', 'a.id', 'la.agent_id')
    .select(['la.listing_id', 'a.id', 'a.name', 'a.slug', 'a.email', 'a.phone', 'a.agency_id'])
    .where('la.listing_id', 'in', ids)
    .orderBy('la.listing_id')
    .orderBy('la.position')
    .execute();
}

export interface AgencyRow {
  id: number;
  name: string;
  slug: string;
  email: string;
  phone: string;
}

export async function findAgencies(db: Executor, ids: readonly number[]): Promise<AgencyRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('agencies').select(['id', 'name', 'slug', 'email', 'phone']).where('id', 'in', ids).execute();
}

/**
 * The galleries of the listings in order; with `perListing`, only the first that many images of each, plus
 * the featured image wherever it stands (one window query, whatever the number of listings). Without it, the
 * listings' attachments (documents) come too, each list in its own order: the caller tells them apart by type.
 */
export async function findGalleries(db: Executor, ids: readonly number[], perListing?: number): Promise<MediaRow[]> {
  if (ids.length === 0) return [];
  if (perListing === undefined) {
    return db
      .selectFrom('media')
      .selectAll()
      .where('listing_id', 'in', ids)
      .orderBy('listing_id')
      .orderBy('position')
      .orderBy('id')
      .execute();
  }
  const ranked = db
    .selectFrom('media as m')
    .innerJoin('listings as l', 'l.id', 'm.listing_id')
    .selectAll('m')
    .select(['l.featured_image_id', sql<number>`row_number() over (partition by m.listing_id order by m.position, m.id)`.as('rank')])
    .where('m.listing_id', 'in', ids)
    .where('m.mime_type', 'like', 'image/%')
    .as('ranked');
  const rows = await db
    .selectFrom(ranked)
    .selectAll()
    .where((eb) => eb.or([eb('rank', '<=', perListing), eb('id', '=', eb.ref('featured_image_id'))]))
    .orderBy('listing_id')
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map(({ featured_image_id: _featured, rank: _rank, ...media }) => media);
}

/** Which of the listings the user has among their favorites. */
export async function findFavoriteIds(db: Executor, userId: number, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('favorites').select('listing_id').where('user_id', '=', userId).where('listing_id', 'in', ids).execute();
  return new Set(rows.map((row) => row.listing_id));
}

// Checks of create/update input

export async function findTermsByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('terms').select(['id', 'taxonomy', 'location_parent_id']).where('id', 'in', ids).execute();
}

export async function findMediaByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('media').select(['id', 'owner_id', 'listing_id', 'mime_type']).where('id', 'in', ids).execute();
}

export async function findAgentsByIds(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('agents').select(['id', 'user_id', 'agency_id']).where('id', 'in', ids).execute();
}

export async function agencyExists(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('agencies').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export async function userExists(db: Executor, id: number): Promise<boolean> {
  return (await db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

/** The directory records of a user: their own agent record (with its agency) and their own agency record. */
export async function findDirectoryOf(
  db: Executor,
  userId: number,
): Promise<{ agentId: number | null; agentAgencyId: number | null; agencyId: number | null }> {
  const [agent, agency] = await Promise.all([
    db.selectFrom('agents').select(['id', 'agency_id']).where('user_id', '=', userId).executeTakeFirst(),
    db.selectFrom('agencies').select('id').where('user_id', '=', userId).executeTakeFirst(),
  ]);
  return { agentId: agent?.id ?? null, agentAgencyId: agent?.agency_id ?? null, agencyId: agency?.id ?? null };
}

export async function findGalleryIds(db: Executor, listingId: number): Promise<number[]> {
  const rows = await db
    .selectFrom('media')
    .select('id')
    .where('listing_id', '=', listingId)
    .where('mime_type', 'like', 'image/%')
    .orderBy('position')
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/** Location term ids of a listing by taxonomy. */
export async function findLocationLinks(db: Executor, listingId: number): Promise<Partial<Record<Taxonomy, number>>> {
  const rows = await db
    .selectFrom('listing_terms')
    .select(['taxonomy', 'term_id'])
    .where('listing_id', '=', listingId)
    .where('taxonomy', 'in', ['property_country', 'property_state', 'property_city', 'property_area'])
    .execute();
  return Object.fromEntries(rows.map((row) => [row.taxonomy, row.term_id]));
}

/** Recomputes the listing's search columns from its stored text and coordinates (after a partial update). */
export async function refreshSearchColumns(db: Executor, listingId: number): Promise<void> {
  const source = await db
    .selectFrom('listings')
    .select(['title', 'description', 'address', 'zipcode', 'reference', 'latitude', 'longitude'])
    .where('id', '=', listingId)
    .executeTakeFirst();
  if (!source) return;
  await db.updateTable('listings').set(searchColumnsOf(source)).where('id', '=', listingId).execute();
}
