import type { FreeTextValue } from '../../../lib/free-text-number.js';
import { type FeedAgency, type FeedAgent, type FeedListing, type FeedListingState, type FieldWarning, shortened } from '../feed-records.js';
import {
  FieldError,
  PostMeta,
  type Warn,
  additionalFeaturesOf,
  amountOf,
  areaNumberOf,
  areaOf,
  coordinatesOf,
  energyFeaturesOf,
  floorPlansOf,
  multiUnitsOf,
  numberOf,
  optional,
  postIdsOf,
  virtualTourOf,
} from './houzez-meta.js';
import type { WxrEntry } from './wxr-xml.js';

/**
 * Houzez's posts (`property`, `houzez_agent`, `houzez_agency`) as feed records; the mapping is tabled in
 * docs/data-exchange.md. Each function throws `FieldError` for a required field it cannot read (the record is
 * unreadable); a listing's optional values that cannot be read are left out and listed in its `warnings`.
 */

/** What a WordPress post status means for a listing; undefined for a post in the trash, which is skipped. */
const LISTING_STATES: Record<string, FeedListingState | undefined> = {
  publish: 'publish',
  draft: 'draft',
  'auto-draft': 'draft',
  pending: 'pending',
  // Private posts are seen by their author and administrators only: the nearest API state is a draft.
  private: 'draft',
  // Scheduled: not shown yet, so it waits like a listing under review.
  future: 'pending',
  // Houzez's own post statuses.
  expired: 'expired',
  disapproved: 'disapproved',
  on_hold: 'on_hold',
  houzez_sold: 'sold',
  trash: undefined,
};

const AGENT_DISPLAYS = new Set(['agent_info', 'agency_info', 'author_info', 'none'] as const);
type AgentDisplay = NonNullable<FeedListing['agent_display']>;

/** The post's id, required as every record's key. */
function postIdOf(entry: WxrEntry): string {
  const id = entry.fields.get('wp:post_id') ?? '';
  if (id === '') throw new FieldError('key', 'is required');
  return id;
}

export function isTrashed(entry: WxrEntry): boolean {
  return entry.fields.get('wp:status') === 'trash';
}

/**
 * A property as read: the listing, the URLs of its documents (`documentsOf`: its PDF attachments), and the
 * optional values left out of it because they could not be read.
 */
export interface PropertyRead {
  listing: FeedListing;
  documents: string[];
  warnings: FieldWarning[];
}

/** The export's attachment posts: id → its file's URL, and the ids of those that are PDF documents. */
export interface WxrAttachments {
  urls: ReadonlyMap<string, string>;
  pdfs: ReadonlySet<string>;
}

/** A `property` post; undefined when it is in the trash. */
export function listingOf(entry: WxrEntry, attachments: WxrAttachments): PropertyRead | undefined {
  const field = (name: string) => entry.fields.get(name) ?? '';
  const postStatus = field('wp:status');
  if (!Object.hasOwn(LISTING_STATES, postStatus)) {
    throw new FieldError('status', `must be one of: ${Object.keys(LISTING_STATES).join(', ')} (not "${shortened(postStatus)}")`);
  }
  const status = LISTING_STATES[postStatus];
  if (status === undefined) return undefined;

  const meta = new PostMeta(entry.meta);
  const text = (key: string) => meta.text(key);
  // An optional value that cannot be read is left out (undefined) and reported; the listing is read on.
  const warnings: FieldWarning[] = [];
  const warn: Warn = (problem) => warnings.push({ field: problem.field, reason: problem.message });
  const may = <T>(read: () => T): T | undefined => optional(warn, undefined, read);
  const number = (key: string, name: keyof FeedListing) => may(() => numberOf(text(key), name));
  const valueOf = (read: FreeTextValue | null | undefined) => (read === undefined ? undefined : (read?.value ?? null));
  const names = (taxonomy: string) =>
    entry.categories.filter((term) => term.domain === taxonomy && term.name !== '').map((term) => term.name);
  const size = may(() => areaOf(areaNumberOf(text('fave_property_size'), 'size'), text('fave_property_size_prefix')));
  const land = may(() => areaOf(areaNumberOf(text('fave_property_land'), 'land_size'), text('fave_property_land_postfix')));
  const price = may(() => amountOf(text('fave_property_price'), 'price'));
  const secondPrice = may(() => amountOf(text('fave_property_sec_price'), 'second_price'));
  const display = text('fave_agent_display_option');
  // The site's currency setting, else a code or a one-currency symbol typed with the price ("€1,200").
  const currency = text('fave_currency') || price?.currency || secondPrice?.currency || '';
  const features = may(() => additionalFeaturesOf(text('additional_features')));
  const plans = may(() => floorPlansOf(text('floor_plans'), warn));
  const units = may(() => multiUnitsOf(text('fave_multi_units'), warn));

  const listing: FeedListing = {
    key: postIdOf(entry),
    title: field('title'),
    description: field('content:encoded'),
    status,
    reference: text('fave_property_id'),
    price: valueOf(price),
    second_price: valueOf(secondPrice),
    // "From" typed into the price itself is the prefix Houzez would have shown.
    price_prefix: text('fave_property_price_prefix') || price?.words || '',
    price_postfix: text('fave_property_price_postfix'),
    bedrooms: number('fave_property_bedrooms', 'bedrooms'),
    bathrooms: number('fave_property_bathrooms', 'bathrooms'),
    rooms: number('fave_property_rooms', 'rooms'),
    garage: number('fave_property_garage', 'garage'),
    garage_size: text('fave_property_garage_size'),
    size: size?.value,
    land_size: land?.value,
    year_built: number('fave_property_year', 'year_built'),
    featured: text('fave_featured') === '1',
    address: text('fave_property_map_address') || text('fave_property_address'),
    zipcode: text('fave_property_zip'),
    ...may(() => coordinatesOf(meta)),
    video_url: text('fave_video_url'),
    virtual_tour: virtualTourOf(text('fave_virtual_tour')),
    additional_features: features && withEnergy(features, meta),
    // Both or neither: a plan list without its units (or the reverse) would drop the other on an update.
    floor_plans: plans && units && [...plans, ...units],
    types: names('property_type'),
    statuses: names('property_status'),
    labels: names('property_label'),
    features: names('property_feature'),
    country: names('property_country')[0] ?? null,
    state: names('property_state')[0] ?? null,
    city: names('property_city')[0] ?? null,
    area: names('property_area')[0] ?? null,
    images: imagesOf(meta, attachments.urls),
    agents: postIdsOf(meta.all('fave_agents')),
    agency: postIdsOf(meta.all('fave_property_agency'))[0] ?? null,
  };
  if (size?.unit) listing.size_unit = size.unit;
  if (land?.unit) listing.land_size_unit = land.unit;
  if (AGENT_DISPLAYS.has(display as AgentDisplay)) listing.agent_display = display as AgentDisplay;
  if (/^[A-Za-z]{3}$/.test(currency)) listing.currency = currency.toUpperCase();
  const created = isoDateOf(field('wp:post_date_gmt'));
  if (created) listing.created_at = created;
  const updated = isoDateOf(field('wp:post_modified_gmt'));
  if (updated) listing.updated_at = updated;
  return { listing, documents: documentsOf(meta, attachments, warnings), warnings };
}

/** The site's additional features, then its energy fields (a title the site has already is its own row). */
function withEnergy(features: { title: string; value: string }[], meta: PostMeta): { title: string; value: string }[] {
  const titles = new Set(features.map((feature) => feature.title.toLowerCase()));
  return [...features, ...energyFeaturesOf(meta).filter((feature) => !titles.has(feature.title.toLowerCase()))];
}

/**
 * The URLs of the listing's attachments (`fave_attachments`: brochures, floor plan PDFs) that are in the export,
 * in order, to become its documents (docs/data-exchange.md). The API keeps PDF documents only: any other
 * attachment (a Word file, a picture) is left out with a warning. Ids of no attachment in the export are skipped.
 */
function documentsOf(meta: PostMeta, attachments: WxrAttachments, warnings: FieldWarning[]): string[] {
  const documents: string[] = [];
  for (const id of postIdsOf(meta.all('fave_attachments'))) {
    const url = attachments.urls.get(id);
    if (url === undefined) continue;
    if (attachments.pdfs.has(id)) documents.push(url);
    else warnings.push({ field: 'attachments', reason: `must be a PDF document (attachment ${id} is not one, left out)` });
  }
  return documents;
}

/** The gallery's URLs in order, the featured image (`_thumbnail_id`) first; ids of no known attachment are skipped. */
function imagesOf(meta: PostMeta, attachments: ReadonlyMap<string, string>): string[] {
  const gallery = postIdsOf(meta.all('fave_property_images'));
  const [featured] = postIdsOf([meta.text('_thumbnail_id')]);
  const ids = featured !== undefined && gallery[0] !== featured ? [featured, ...gallery.filter((id) => id !== featured)] : gallery;
  return ids.flatMap((id) => attachments.get(id) ?? []);
}

/** A `houzez_agency` post. */
export function agencyOf(entry: WxrEntry): FeedAgency {
  const meta = new PostMeta(entry.meta);
  return withTexts(
    { key: postIdOf(entry), name: nameOf(entry) },
    {
      email: meta.text('fave_agency_email'),
      phone: meta.text('fave_agency_phone'),
      website: meta.text('fave_agency_web'),
      address: meta.text('fave_agency_address'),
    },
  );
}

/** A `houzez_agent` post; its agency is the first of `fave_agent_agencies`. */
export function agentOf(entry: WxrEntry): FeedAgent {
  const meta = new PostMeta(entry.meta);
  const agent: FeedAgent = withTexts(
    { key: postIdOf(entry), name: nameOf(entry) },
    {
      email: meta.text('fave_agent_email'),
      phone: meta.text('fave_agent_office_num'),
      mobile: meta.text('fave_agent_mobile'),
      position: meta.text('fave_agent_position'),
    },
  );
  agent.agency = postIdsOf(meta.all('fave_agent_agencies'))[0] ?? null;
  return agent;
}

function nameOf(entry: WxrEntry): string {
  const name = entry.fields.get('title') ?? '';
  if (name === '') throw new FieldError('name', 'is required');
  return name;
}

/** The record with its non-empty texts: an empty e-mail is no e-mail, and e-mails identify directory records. */
function withTexts<T extends object>(record: T, texts: Record<string, string>): T {
  for (const [name, value] of Object.entries(texts)) if (value !== '') Object.assign(record, { [name]: value });
  return record;
}

/** WordPress's "YYYY-MM-DD HH:MM:SS" in UTC as ISO 8601; undefined for the zero date of a never-published draft. */
function isoDateOf(text: string): string | undefined {
  const parts = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
  if (!parts) return undefined;
  const date = new Date(`${parts[1]}-${parts[2]}-${parts[3]}T${parts[4]}:${parts[5]}:${parts[6]}Z`);
  // Date would roll "02-30" over to March; a date that does not come back as written is not one.
  if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 19) !== text.replace(' ', 'T')) return undefined;
  return date.toISOString();
}
