import type { FeedAgency, FeedAgent, FeedListing, FieldWarning } from '../feed-records.js';
import { EntrySpool } from './entry-spool.js';
import { FieldError } from './houzez-meta.js';
import { agencyOf, agentOf, isTrashed, listingOf, type WxrAttachments } from './houzez-posts.js';
import { type WxrEntry, readWxrEntries } from './wxr-xml.js';

/**
 * A WordPress site running the Houzez theme, read from its WXR export (Tools → Export, WXR 1.0–1.2): the
 * terms of Houzez's taxonomies, the authors, the agencies and agents, then the listings.
 *
 * WXR lists posts by id, and a property's pictures are attachment posts that may come after it, as may the agents
 * it names. So the file is read once, streaming: the small things (terms, authors, agencies, agents, and
 * attachment id → URL) are kept, the properties set aside on disk (entry-spool.ts); once the file has been read
 * come the terms (a parent before its children), authors, agencies, agents, then the properties one by one with
 * their pictures and their PDF attachments (`fave_attachments`, the record's `documents`) resolved. Memory follows the number of attachments, terms, authors, agencies and agents, never
 * the number of properties.
 *
 * A `property` item becomes a FeedListing as docs/data-exchange.md ("WordPress sites running Houzez") tables it,
 * key by key, with the keys left out and why (houzez-posts.ts does it): `wp:post_id` is the key, `wp:status` the
 * state, the `fave_…` post meta the fields, the `property_…` categories the terms and places.
 *
 * WXR carries the whole listing, so a meta value that is absent reads as empty: text "", numbers null, lists [].
 * Numbers are text in Houzez ("250000", "1,200", "€1.495.000", "From 450.000 €", "497 m²"): they are read by
 * lib/free-text-number.ts (grouping in either convention, a currency symbol or code, a unit, a leading "From");
 * coordinates are plain decimals only. An optional value that cannot be read ("call us", "1,200,50", meta that
 * does not unserialize) is left out of the listing (undefined; a plan's figure null) and named in the record's
 * `warnings` with the field and "must be of type number" or "is not a valid PHP-serialized array"; the importer
 * decides what a warning means (a strict run rejects). PHP-serialized meta is read without ever making an object
 * of a class (houzez-meta.ts). A post's id and its status are required: without them the record is `unreadable`.
 * Post ids used as references ("12") are kept only when they are positive integers ("" and "-1" are Houzez's
 * "none").
 *
 * `houzez_agency` → FeedAgency { key: post id, name: title, email: fave_agency_email, phone: fave_agency_phone,
 * website: fave_agency_web, address: fave_agency_address }. `houzez_agent` → FeedAgent { key: post id, name:
 * title, email: fave_agent_email, phone: fave_agent_office_num, mobile: fave_agent_mobile, position:
 * fave_agent_position, agency: the first of fave_agent_agencies, or null }. Empty texts are left out (an empty
 * e-mail is none). Their `authorLogin` is `dc:creator`: Houzez links a user to an agent through user meta, which
 * WXR does not export, so the post's author is all the file says; the importer decides what it means. Drafts are
 * yielded, trashed ones skipped.
 *
 * Terms are `wp:term` of the eight taxonomies below (`wp:term_parent` is the parent's slug); `wp:category`,
 * `wp:tag` and other taxonomies are ignored, as are items of other post types (posts, pages, menus).
 */

type WxrTaxonomy =
  | 'property_type'
  | 'property_status'
  | 'property_feature'
  | 'property_label'
  | 'property_country'
  | 'property_state'
  | 'property_city'
  | 'property_area';

export type WxrRecord =
  /** The site the export is of (`wp:base_site_url`, else the channel's `link`): where its pictures are. Yielded first. */
  | { kind: 'site'; at: string; url: string }
  | { kind: 'term'; at: string; taxonomy: WxrTaxonomy; slug: string; name: string; parentSlug?: string }
  | { kind: 'author'; at: string; login: string; email: string; displayName: string; firstName: string; lastName: string }
  /** `agency.key` is the agency's post id as text. */
  | { kind: 'agency'; at: string; agency: FeedAgency; authorLogin?: string }
  /** `agent.key` is the agent's post id; `agent.agency` its agency's post id (fave_agent_agencies). */
  | { kind: 'agent'; at: string; agent: FeedAgent; authorLogin?: string }
  /**
   * `listing.key` is the property's post id; `documents` are the URLs of its PDF attachments (its brochures), in
   * order; `warnings` names the optional values left out because they could not be read.
   */
  | { kind: 'listing'; at: string; listing: FeedListing; authorLogin: string; documents: string[]; warnings: FieldWarning[] }
  | { kind: 'unreadable'; at: string; field?: string; reason: string };

type TermRecord = Extract<WxrRecord, { kind: 'term' }>;

const TAXONOMIES: ReadonlySet<string> = new Set<WxrTaxonomy>([
  'property_type',
  'property_status',
  'property_feature',
  'property_label',
  'property_country',
  'property_state',
  'property_city',
  'property_area',
]);

/**
 * The records of a WordPress export, read in one pass. The properties wait in `spoolFile` (a file this makes and
 * removes; the caller removes it should the reading be cut off) until the whole file has been read. Throws
 * `FeedSyntaxError` for a document that is not a WordPress export (malformed XML, a DOCTYPE, a root other than
 * `<rss>`).
 */
export async function* readWxrSite(input: NodeJS.ReadableStream, spoolFile: string): AsyncIterable<WxrRecord> {
  const properties = await EntrySpool.create(spoolFile);
  try {
    const { records, attachments } = await readDirectory(input, properties);
    yield* records;
    for await (const entry of properties.entries()) {
      const record = recordOf(entry, (): WxrRecord | undefined => {
        const read = listingOf(entry, attachments);
        return (
          read && {
            kind: 'listing',
            at: entry.at,
            ...read,
            listing: withLink(read.listing, entry),
            authorLogin: entry.fields.get('dc:creator') ?? '',
          }
        );
      });
      if (record) yield record;
    }
  } finally {
    await properties.remove();
  }
}

/** The pass: every record but the listings, in the order they are yielded, and the attachments' URLs. */
async function readDirectory(
  input: NodeJS.ReadableStream,
  properties: EntrySpool,
): Promise<{ records: WxrRecord[]; attachments: WxrAttachments }> {
  const terms: WxrRecord[] = [];
  const authors: WxrRecord[] = [];
  const agencies: WxrRecord[] = [];
  const agents: WxrRecord[] = [];
  const attachments = new Map<string, string>();
  const pdfs = new Set<string>();
  let site: WxrRecord | undefined;
  for await (const entry of readWxrEntries(input)) {
    if (entry.kind === 'site') {
      // WordPress writes `<link>` first and `<wp:base_site_url>` later; the latter names the site itself.
      const url = entry.fields.get('wp:base_site_url') ?? entry.fields.get('link') ?? '';
      if (url !== '' && (site === undefined || entry.fields.has('wp:base_site_url'))) site = { kind: 'site', at: entry.at, url };
    } else if (entry.kind === 'author') authors.push(recordOf(entry, () => authorOf(entry)));
    else if (entry.kind === 'term') {
      const record = recordOf(entry, () => termOf(entry));
      if (record) terms.push(record);
    } else {
      const type = entry.fields.get('wp:post_type');
      if (type === 'property') await properties.add(entry);
      else if (type === 'attachment') {
        // Copies, not the parser's slices: a slice keeps the whole chunk of the file it was cut from alive, and
        // the attachments are kept to the end of the file (bench/README.md, "WordPress suite": 1.2 GB at 100,000).
        const id = ownCopy(entry.fields.get('wp:post_id') ?? '');
        const url = ownCopy(entry.fields.get('wp:attachment_url') ?? '');
        if (id !== '' && url !== '') {
          attachments.set(id, url);
          if (isPdf(entry.fields.get('wp:post_mime_type') ?? '', url)) pdfs.add(id);
        }
      } else if (type === 'houzez_agency' && !isTrashed(entry)) {
        agencies.push(
          recordOf(entry, () => ({ kind: 'agency', at: entry.at, agency: withLink(agencyOf(entry), entry), ...authorLoginOf(entry) })),
        );
      } else if (type === 'houzez_agent' && !isTrashed(entry)) {
        agents.push(
          recordOf(entry, () => ({ kind: 'agent', at: entry.at, agent: withLink(agentOf(entry), entry), ...authorLoginOf(entry) })),
        );
      }
    }
  }
  return {
    records: [...(site ? [site] : []), ...parentsFirst(terms), ...authors, ...agencies, ...agents],
    attachments: { urls: attachments, pdfs },
  };
}

/**
 * The text as a string of its own. V8 makes a substring of a long string a view into it ("sliced string"), so a
 * short value cut from a 64 kB chunk of the file keeps the chunk alive for as long as the value lives; going
 * through UTF-8 bytes makes a new flat string.
 */
function ownCopy(text: string): string {
  return text.length === 0 ? text : Buffer.from(text, 'utf8').toString('utf8');
}

/**
 * Whether an attachment is a PDF document: by its `wp:post_mime_type`, else (an export without it) by its file's
 * name. What the file holds is checked again when it is fetched, as an upload's is.
 */
function isPdf(mimeType: string, url: string): boolean {
  if (mimeType !== '') return mimeType.toLowerCase() === 'application/pdf';
  try {
    return new URL(url).pathname.toLowerCase().endsWith('.pdf');
  } catch {
    return false;
  }
}

/** The record `build` makes, or the field it could not read as an `unreadable` record. */
function recordOf<T extends WxrRecord | undefined>(entry: WxrEntry, build: () => T): T | WxrRecord {
  try {
    return build();
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return { kind: 'unreadable', at: entry.at, field: error.field, reason: error.message };
  }
}

/** The post's permalink (its `<link>`) as the record's old address, kept as a redirect by the import. */
function withLink<T extends { url?: string }>(record: T, entry: WxrEntry): T {
  const link = entry.fields.get('link') ?? '';
  return link === '' ? record : { ...record, url: link };
}

function authorLoginOf(entry: WxrEntry): { authorLogin?: string } {
  const login = entry.fields.get('dc:creator') ?? '';
  return login === '' ? {} : { authorLogin: login };
}

function authorOf(entry: WxrEntry): WxrRecord {
  const field = (name: string) => entry.fields.get(name) ?? '';
  const login = field('wp:author_login');
  if (login === '') throw new FieldError('login', 'is required');
  return {
    kind: 'author',
    at: entry.at,
    login,
    email: field('wp:author_email'),
    displayName: field('wp:author_display_name'),
    firstName: field('wp:author_first_name'),
    lastName: field('wp:author_last_name'),
  };
}

/** A term of one of Houzez's taxonomies; undefined for any other taxonomy. */
function termOf(entry: WxrEntry): TermRecord | undefined {
  const field = (name: string) => entry.fields.get(name) ?? '';
  const taxonomy = field('wp:term_taxonomy');
  if (!TAXONOMIES.has(taxonomy)) return undefined;
  const slug = field('wp:term_slug');
  if (slug === '') throw new FieldError('slug', 'is required');
  const name = field('wp:term_name');
  if (name === '') throw new FieldError('name', 'is required');
  const parentSlug = field('wp:term_parent');
  return { kind: 'term', at: entry.at, taxonomy: taxonomy as WxrTaxonomy, slug, name, ...(parentSlug !== '' ? { parentSlug } : {}) };
}

/**
 * The terms in file order, except that a term's parent (in the same taxonomy) is moved before it. WordPress
 * writes parents first already; another exporter may not. A parent that is not in the file, or a loop of parents,
 * leaves the order as it is.
 */
function parentsFirst(records: readonly WxrRecord[]): WxrRecord[] {
  const termKey = (taxonomy: string, slug: string) => `${taxonomy}\n${slug}`;
  const bySlug = new Map<string, TermRecord>();
  for (const record of records) {
    if (record.kind === 'term' && !bySlug.has(termKey(record.taxonomy, record.slug)))
      bySlug.set(termKey(record.taxonomy, record.slug), record);
  }
  const parentOf = (record: WxrRecord) =>
    record.kind === 'term' && record.parentSlug !== undefined ? bySlug.get(termKey(record.taxonomy, record.parentSlug)) : undefined;

  const ordered: WxrRecord[] = [];
  const placed = new Set<WxrRecord>();
  for (const record of records) {
    // The record and its ancestors not placed yet, nearest first; a loop stops where it comes round.
    const chain = new Set<WxrRecord>();
    for (let current: WxrRecord | undefined = record; current && !placed.has(current) && !chain.has(current); current = parentOf(current)) {
      chain.add(current);
    }
    for (const item of [...chain].reverse()) {
      placed.add(item);
      ordered.push(item);
    }
  }
  return ordered;
}
