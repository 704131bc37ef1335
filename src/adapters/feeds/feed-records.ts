/**
 * The format-neutral records every feed format reads into and writes from (CSV, RESO, Kyero, WordPress): a
 * reader turns a file into `FeedRecord`s, the import checks and writes them; the export reads listings into
 * `FeedListing`s and a writer turns them into a file. Formats know nothing of the database, the database
 * knows nothing of formats.
 *
 * A field a record leaves `undefined` is one its format does not carry: an import keeps what the listing has
 * there (docs/data-exchange.md, "Which side wins"). `null` clears it.
 */

/** The listing states of the API (docs/api.md 4.2). */
export type FeedListingState = 'draft' | 'pending' | 'publish' | 'on_hold' | 'disapproved' | 'expired' | 'sold';

export interface FeedFloorPlan {
  title: string;
  rooms?: number | null;
  bathrooms?: number | null;
  price?: number | null;
  price_postfix?: string;
  size?: number | null;
  size_postfix?: string;
  description?: string;
  image_url?: string;
}

/** A listing as a feed carries it. Field names and units are the API's (docs/api.md 4.1). */
export interface FeedListing {
  /** The listing's key in its source: unique within the source, stable across exports (required). */
  key: string;
  title?: string;
  /** HTML allowed; cleaned as the API cleans it. */
  description?: string;
  status?: FeedListingState;
  reference?: string;
  price?: number | null;
  second_price?: number | null;
  /** ISO 4217. */
  currency?: string;
  price_prefix?: string;
  price_postfix?: string;
  bedrooms?: number | null;
  bathrooms?: number | null;
  rooms?: number | null;
  garage?: number | null;
  garage_size?: string;
  size?: number | null;
  size_unit?: 'sqft' | 'm2';
  land_size?: number | null;
  land_size_unit?: 'sqft' | 'm2';
  year_built?: number | null;
  featured?: boolean;
  address?: string;
  zipcode?: string;
  latitude?: number | null;
  longitude?: number | null;
  video_url?: string;
  virtual_tour?: string;
  agent_display?: 'agent_info' | 'agency_info' | 'author_info' | 'none';
  additional_features?: { title: string; value: string }[];
  floor_plans?: FeedFloorPlan[];
  /** Term names of each taxonomy, in order (`property_type`, `property_status`, `property_label`, `property_feature`). */
  types?: string[];
  statuses?: string[];
  labels?: string[];
  features?: string[];
  /** Location by names, top down: each level lies within the one before it. */
  country?: string | null;
  state?: string | null;
  city?: string | null;
  area?: string | null;
  /** Picture URLs, the gallery in order (the first is the featured image). */
  images?: string[];
  /** Agents by their `key` in the same feed (`FeedAgent.key`) or by e-mail, in order. */
  agents?: string[];
  /** The agency by its `key` in the same feed (`FeedAgency.key`) or by e-mail; null for none. */
  agency?: string | null;
  /** ISO 8601; exported for the reader's information, never imported over the database's own. */
  created_at?: string;
  updated_at?: string;
  /**
   * The listing's address on the site the feed comes from (a WordPress permalink): imported as a redirect of that
   * path to the listing's page here, never written as a field, never exported.
   */
  url?: string;
}

/** An agent (RESO `Member`) as a feed carries it. */
export interface FeedAgent {
  key: string;
  name: string;
  email?: string;
  phone?: string;
  mobile?: string;
  position?: string;
  /** The agent's agency by its feed key or e-mail. */
  agency?: string | null;
  /** The agent's page on the site the feed comes from: imported as a redirect to its page here. */
  url?: string;
}

/** An agency (RESO `Office`) as a feed carries it. */
export interface FeedAgency {
  key: string;
  name: string;
  email?: string;
  phone?: string;
  website?: string;
  address?: string;
  /** The agency's page on the site the feed comes from: imported as a redirect to its page here. */
  url?: string;
}

/** An optional value a reader left out of a record, and why: the record is imported without it, and reported. */
export interface FieldWarning {
  field: string;
  reason: string;
}

/**
 * One record read from a feed. `at` says where it was in the file, for the rejection report: a CSV line, an
 * XML element's line, a JSON array position ("Property[12]").
 */
export type FeedRecord =
  /**
   * `owner`: the e-mail of the account the listing is to belong to, when the source says (a WordPress author).
   * `warnings`: optional values the reader could not read and left out (a `strict` import rejects the record).
   * `documents`: the URLs of the listing's PDF documents (a WordPress site's brochures), fetched into its
   * attachments like its pictures; undefined for a format that carries none (the listing keeps what it has).
   */
  | { kind: 'listing'; at: string; listing: FeedListing; owner?: string; warnings?: FieldWarning[]; documents?: string[] }
  | { kind: 'agent'; at: string; agent: FeedAgent }
  | { kind: 'agency'; at: string; agency: FeedAgency }
  /**
   * What a reader could not make into a record (a malformed row or element); `key` when the record's key could be
   * read, `field` when one field is to blame.
   */
  | { kind: 'unreadable'; at: string; key?: string; field?: string; reason: string };

/** A source file read record by record. Readers stop at a malformed document with `FeedSyntaxError`. */
export type FeedReader = (input: NodeJS.ReadableStream) => AsyncIterable<FeedRecord>;

/** What a writer gets: the directory first (agencies, then agents), then the listings, each streamed. */
export interface FeedContent {
  agencies: AsyncIterable<FeedAgency>;
  agents: AsyncIterable<FeedAgent>;
  listings: AsyncIterable<FeedListing>;
}

/** A writer streams the file's text; it holds at most one record at a time. */
export type FeedWriter = (content: FeedContent) => AsyncIterable<string>;

/** The document itself is not of the format (not XML, not JSON, a truncated file): nothing more can be read. */
export class FeedSyntaxError extends Error {
  constructor(
    readonly at: string,
    readonly reason: string,
  ) {
    super(`${at}: ${reason}`);
  }
}

/** The longest piece of a feed's own text (a name, a value) that a message quotes. */
const QUOTED_MAX = 100;
/** The longest message of a parser (csv-parse, saxes, stream-json) passed on: some quote the file's text. */
export const PARSER_MESSAGE_MAX = 300;

/**
 * A name or value from the file as a message quotes it: at most `max` characters, so that a hostile file's 200 MB
 * column name does not become a 200 MB error in the run's record, the log and every listing of runs.
 */
export function shortened(text: string, max = QUOTED_MAX): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
