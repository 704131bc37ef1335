import type { Transaction } from 'kysely';
import type { DB, ListingUpdate, Taxonomy } from '../../db/schema/index.js';
import { AppError, type FieldError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { slugify, sortKey } from '../../lib/slug.js';
import { excerptOf, plainText, richText } from '../../lib/text.js';
import type { TaxonomiesService } from '../taxonomies/index.js';
import { isModerator } from './listing-access.js';
import * as repository from './properties.repository.js';
import { MODERATOR_FIELDS, type UpdatePropertyInput } from './properties.schemas.js';

/** docs/api.md 4.6: `year_built` up to five years ahead (buildings sold off-plan). */
const YEARS_AHEAD = 5;

const TERM_FIELDS = {
  type_ids: 'property_type',
  status_ids: 'property_status',
  label_ids: 'property_label',
  feature_ids: 'property_feature',
} as const satisfies Record<string, Taxonomy>;

/** Location levels, top down: each one's parent is the level before it. */
const LOCATION_FIELDS = [
  ['country', 'property_country'],
  ['state', 'property_state'],
  ['city', 'property_city'],
  ['area', 'property_area'],
] as const satisfies readonly (readonly [string, Taxonomy])[];

/** What an existing listing contributes to checking an update (null on create). */
export interface ExistingListing {
  id: number;
  authorId: number | null;
  /** Current location term ids by taxonomy: a new name is created under the current parent level. */
  locations: Partial<Record<Taxonomy, number>>;
}

/** The checked, cleaned result of a create or update body: what to write. */
export interface ListingChanges {
  columns: ListingUpdate;
  /** Taxonomies whose links are replaced, and the new links (locations included). */
  termTaxonomies: Taxonomy[];
  terms: repository.TermLink[];
  agentIds: number[] | undefined;
  galleryIds: number[] | undefined;
  /** The new attachments (documents), in order; undefined when the body names none. */
  attachmentIds: number[] | undefined;
}

/** The caller's directory records: which agents and agency they may name on a listing. */
export interface CallerDirectory {
  agentId: number | null;
  agentAgencyId: number | null;
  agencyId: number | null;
}

/**
 * Turns a create/update body into column values and links, checking everything against the database in
 * the writing transaction: fields only moderators may set (anyone else → 400, no mass assignment), term ids
 * of the right taxonomy, location names (created under their parent when unknown), gallery media (the
 * caller's own images, or ones already in this listing's gallery), attachments (the caller's own PDFs, or ones
 * this listing has already), agents and agency the caller may name.
 * All problems of one request are reported together.
 */
export async function checkListingInput(
  trx: Transaction<DB>,
  caller: AuthUser,
  input: UpdatePropertyInput,
  existing: ExistingListing | null,
  directory: CallerDirectory,
  taxonomies: TaxonomiesService,
): Promise<ListingChanges> {
  const moderator = isModerator(caller);
  const errors: FieldError[] = [];
  if (!moderator) {
    for (const field of MODERATOR_FIELDS) if (input[field] !== undefined) errors.push({ field, key: 'rule_unknown_field' });
  }
  const columns = cleanListingColumns(input, errors);
  const { termTaxonomies, terms } = await checkTerms(trx, input, errors);
  await resolveLocations(trx, input, existing, termTaxonomies, terms, errors, taxonomies);
  const galleryIds = await checkGallery(trx, caller, input, existing, moderator, errors);
  const attachmentIds = await checkAttachments(trx, caller, input, existing, moderator, errors);
  const agentIds = await checkAgents(trx, input, moderator, directory, errors);
  await checkAgency(trx, input, moderator, directory, errors);
  if (moderator && input.author_id !== undefined && !(await repository.userExists(trx, input.author_id))) {
    errors.push({ field: 'author_id', key: 'listing_rule_unknown_user' });
  }
  // RFC 3339 (the schema's date-time) allows a leap second, which a JavaScript Date cannot hold.
  if (moderator && typeof input.expires_at === 'string' && Number.isNaN(Date.parse(input.expires_at))) {
    errors.push({ field: 'expires_at', key: 'rule_format', params: { format: 'date-time' } });
  }
  if (errors.length > 0) throw new AppError('validation_failed', 'validation_failed', errors);
  if (input.agency_id !== undefined) columns.agency_id = input.agency_id;
  if (moderator) {
    if (input.featured !== undefined) columns.featured = input.featured ? 1 : 0;
    if (input.author_id !== undefined) columns.author_id = input.author_id;
    if (input.views !== undefined) columns.views = input.views;
    if (input.expires_at !== undefined) columns.expires_at = input.expires_at === null ? null : new Date(input.expires_at).toISOString();
  }
  return { columns, termTaxonomies, terms, agentIds, galleryIds, attachmentIds };
}

/**
 * Scalar columns: text cleaned (plain or rich), the excerpt and sort key derived, numbers as given; what the
 * schema cannot check (a title blank once cleaned, a year too far ahead, a URL no parser accepts) goes to `errors`.
 */
export function cleanListingColumns(input: UpdatePropertyInput, errors: FieldError[]): ListingUpdate {
  const columns: ListingUpdate = {};
  if (input.title !== undefined) {
    const title = plainText(input.title);
    if (title.length < 3) errors.push({ field: 'title', key: 'rule_min_length', params: { limit: 3 } });
    columns.title = title;
    columns.sort_title = sortKey(title);
  }
  if (input.slug !== undefined) {
    // Checked, never rewritten: an owner choosing a path should see the one they get.
    const slug = slugify(input.slug);
    if (slug === '') errors.push({ field: 'slug', key: 'rule_empty_slug' });
    else if (slug !== input.slug) errors.push({ field: 'slug', key: 'listing_rule_slug', params: { suggestion: slug } });
    else columns.slug = slug;
  }
  if (input.description !== undefined) {
    columns.description = richText(input.description);
    columns.excerpt = excerptOf(columns.description);
  }
  for (const field of ['reference', 'price_prefix', 'price_postfix', 'garage_size', 'address'] as const) {
    const value = input[field];
    if (value !== undefined) columns[field] = plainText(value);
  }
  if (input.zipcode !== undefined) columns.zipcode = plainText(input.zipcode);
  if (input.currency !== undefined) columns.currency = input.currency.toUpperCase();
  for (const field of [
    'price',
    'second_price',
    'bedrooms',
    'bathrooms',
    'rooms',
    'garage',
    'size',
    'land_size',
    'latitude',
    'longitude',
  ] as const) {
    const value = input[field];
    if (value !== undefined) columns[field] = value;
  }
  if (input.size_unit !== undefined) columns.size_unit = input.size_unit;
  if (input.land_size_unit !== undefined) columns.land_size_unit = input.land_size_unit;
  if (input.year_built !== undefined) {
    const latest = new Date().getUTCFullYear() + YEARS_AHEAD;
    if (input.year_built !== null && input.year_built > latest)
      errors.push({ field: 'year_built', key: 'rule_maximum', params: { limit: latest } });
    columns.year_built = input.year_built;
  }
  for (const field of ['video_url', 'virtual_tour'] as const) {
    const value = input[field];
    if (value === undefined) continue;
    // The schema admits only http(s) URLs; the parser also refuses hosts no browser would open.
    if (value !== '' && !URL.canParse(value)) errors.push({ field, key: 'rule_pattern' });
    columns[field] = value;
  }
  if (input.agent_display !== undefined) columns.agent_display = input.agent_display;
  if (input.floor_plans !== undefined) {
    columns.floor_plans = JSON.stringify(
      input.floor_plans.map((plan) => ({
        title: plainText(plan.title),
        rooms: plan.rooms ?? null,
        bathrooms: plan.bathrooms ?? null,
        price: plan.price ?? null,
        price_postfix: plainText(plan.price_postfix ?? ''),
        size: plan.size ?? null,
        size_postfix: plainText(plan.size_postfix ?? ''),
        description: plainText(plan.description ?? ''),
        image_url: plan.image_url ?? '',
      })),
    );
  }
  if (input.additional_features !== undefined) {
    columns.additional_features = JSON.stringify(
      input.additional_features.map((feature) => ({ title: plainText(feature.title), value: plainText(feature.value) })),
    );
  }
  if (input.featured_image_id !== undefined) columns.featured_image_id = input.featured_image_id;
  return columns;
}

async function checkTerms(trx: Transaction<DB>, input: UpdatePropertyInput, errors: FieldError[]) {
  const termTaxonomies: Taxonomy[] = [];
  const terms: repository.TermLink[] = [];
  const given = (Object.keys(TERM_FIELDS) as (keyof typeof TERM_FIELDS)[]).filter((field) => input[field] !== undefined);
  const found = new Map(
    (
      await repository.findTermsByIds(
        trx,
        given.flatMap((field) => input[field] ?? []),
      )
    ).map((term) => [term.id, term]),
  );
  for (const field of given) {
    const taxonomy = TERM_FIELDS[field];
    termTaxonomies.push(taxonomy);
    for (const [index, id] of (input[field] ?? []).entries()) {
      const term = found.get(id);
      if (!term) errors.push({ field: `${field}.${index}`, key: 'rule_unknown_term' });
      else if (term.taxonomy !== taxonomy) errors.push({ field: `${field}.${index}`, key: 'rule_wrong_taxonomy', params: { taxonomy } });
      else terms.push({ termId: id, taxonomy });
    }
  }
  return { termTaxonomies, terms };
}

/**
 * Locations by id (a term of that level) or by name: a known name under the parent level is reused, an
 * unknown one is created there. The parent is the level above as this request sets it, else as the listing
 * has it. `null` removes the level.
 */
async function resolveLocations(
  trx: Transaction<DB>,
  input: UpdatePropertyInput,
  existing: ExistingListing | null,
  termTaxonomies: Taxonomy[],
  terms: repository.TermLink[],
  errors: FieldError[],
  taxonomies: TaxonomiesService,
): Promise<void> {
  let parent: number | null = null;
  for (const [field, taxonomy] of LOCATION_FIELDS) {
    const value = input[field];
    if (value === undefined) {
      parent = existing?.locations[taxonomy] ?? null;
      continue;
    }
    termTaxonomies.push(taxonomy);
    if (value === null) {
      parent = null;
      continue;
    }
    if (typeof value === 'number') {
      const [term] = await repository.findTermsByIds(trx, [value]);
      if (!term) errors.push({ field, key: 'rule_unknown_term' });
      else if (term.taxonomy !== taxonomy) errors.push({ field, key: 'rule_wrong_taxonomy', params: { taxonomy } });
      else terms.push({ termId: value, taxonomy });
      parent = term?.id ?? null;
      continue;
    }
    const name = plainText(value);
    if (name === '') {
      errors.push({ field, key: 'rule_required' });
      continue;
    }
    const id = await taxonomies.findOrCreateLocation(trx, taxonomy, name, parent, field);
    terms.push({ termId: id, taxonomy });
    parent = id;
  }
}

/**
 * Whether the caller may put this media into the listing: it is in this listing already, or it is in none and
 * is the caller's upload (a moderator's: the listing author's). Someone else's, a deleted or a missing media all
 * read the same, so that ids of others' uploads are not confirmed.
 */
function mayAttach(
  media: { owner_id: number; listing_id: number | null } | undefined,
  caller: AuthUser,
  existing: ExistingListing | null,
  moderator: boolean,
): media is { owner_id: number; listing_id: number | null } {
  if (media === undefined) return false;
  if (existing !== null && media.listing_id === existing.id) return true;
  return media.listing_id === null && (media.owner_id === caller.id || (moderator && media.owner_id === existing?.authorId));
}

/** The attachments' media: PDF documents the caller uploaded, or that are this listing's already. */
async function checkAttachments(
  trx: Transaction<DB>,
  caller: AuthUser,
  input: UpdatePropertyInput,
  existing: ExistingListing | null,
  moderator: boolean,
  errors: FieldError[],
): Promise<number[] | undefined> {
  const ids = input.attachment_ids;
  if (ids === undefined) return undefined;
  const found = new Map((await repository.findMediaByIds(trx, ids)).map((media) => [media.id, media]));
  for (const [index, id] of ids.entries()) {
    const media = found.get(id);
    if (!mayAttach(media, caller, existing, moderator))
      errors.push({ field: `attachment_ids.${index}`, key: 'listing_rule_media_not_yours' });
    else if (media.mime_type !== 'application/pdf')
      errors.push({ field: `attachment_ids.${index}`, key: 'listing_rule_media_not_document' });
  }
  return ids;
}

/** The gallery's media: images the caller uploaded, or that are in this listing's gallery already. */
async function checkGallery(
  trx: Transaction<DB>,
  caller: AuthUser,
  input: UpdatePropertyInput,
  existing: ExistingListing | null,
  moderator: boolean,
  errors: FieldError[],
): Promise<number[] | undefined> {
  const ids = input.media_ids;
  if (ids !== undefined) {
    const found = new Map((await repository.findMediaByIds(trx, ids)).map((media) => [media.id, media]));
    for (const [index, id] of ids.entries()) {
      const media = found.get(id);
      // Someone else's upload reads the same as a missing one: ids of others' media are not confirmed.
      if (!mayAttach(media, caller, existing, moderator)) errors.push({ field: `media_ids.${index}`, key: 'listing_rule_media_not_yours' });
      else if (!media.mime_type.startsWith('image/')) errors.push({ field: `media_ids.${index}`, key: 'listing_rule_media_not_image' });
    }
  }
  const featured = input.featured_image_id;
  if (featured !== undefined && featured !== null) {
    const gallery = ids ?? (existing ? await repository.findGalleryIds(trx, existing.id) : []);
    if (!gallery.includes(featured)) errors.push({ field: 'featured_image_id', key: 'listing_rule_featured_not_in_gallery' });
  }
  return ids;
}

/**
 * Non-moderators may name their own agent record and the agents of their agency: the agency they are, or
 * the one their agent record belongs to (co-listing with colleagues).
 */
async function checkAgents(
  trx: Transaction<DB>,
  input: UpdatePropertyInput,
  moderator: boolean,
  directory: CallerDirectory,
  errors: FieldError[],
): Promise<number[] | undefined> {
  const ids = input.agent_ids;
  if (ids === undefined) return undefined;
  const found = new Map((await repository.findAgentsByIds(trx, ids)).map((agent) => [agent.id, agent]));
  for (const [index, id] of ids.entries()) {
    const agent = found.get(id);
    const agencyOfCaller = directory.agencyId ?? directory.agentAgencyId;
    const allowed =
      agent !== undefined &&
      (moderator || agent.id === directory.agentId || (agencyOfCaller !== null && agent.agency_id === agencyOfCaller));
    if (!allowed) errors.push({ field: `agent_ids.${index}`, key: 'listing_rule_agent_not_allowed' });
  }
  return ids;
}

/** Non-moderators may name only their own agency (the agency's user, or an agent of that agency). */
async function checkAgency(
  trx: Transaction<DB>,
  input: UpdatePropertyInput,
  moderator: boolean,
  directory: CallerDirectory,
  errors: FieldError[],
): Promise<void> {
  const id = input.agency_id;
  if (id === undefined || id === null) return;
  const allowed = moderator ? await repository.agencyExists(trx, id) : id === directory.agencyId || id === directory.agentAgencyId;
  if (!allowed) errors.push({ field: 'agency_id', key: 'listing_rule_agency_not_allowed' });
}
