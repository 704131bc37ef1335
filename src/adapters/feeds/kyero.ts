import { type FeedListing, type FeedReader, type FeedRecord, type FeedWriter, shortened } from './feed-records.js';
import { FeedWarnings, feedNumberOf } from './feed-numbers.js';
import { FeedXmlDocument } from './xml-parser.js';

/**
 * Listings as a Kyero v3 XML feed (docs/data-exchange.md, "Kyero"): `<root>`, a `<kyero>` header, then one
 * `<property>` per listing. Kyero carries only what is on the market, so the import marks every listing
 * `publish` and the export writes only published listings; it has no agents or agencies.
 *
 * | Kyero v3 element                     | FeedListing field        | Notes                                                                                   |
 * | ------------------------------------ | ------------------------ | --------------------------------------------------------------------------------------- |
 * | `id`                                 | `key`                    | required                                                                                |
 * | `date`                               | `updated_at`             | "YYYY-MM-DD HH:MM:SS" in UTC ↔ ISO 8601                                                 |
 * | `ref`                                | `reference`              |                                                                                         |
 * | `price`                              | `price`                  | at least 0; written rounded to an integer                                               |
 * | `currency`                           | `currency`               | left out when absent (no default)                                                       |
 * | `price_freq`                         | `statuses`, `price_postfix` | sale → ["For Sale"]; month/week → ["For Rent"] and "/month" or "/week". Written: month (week when the postfix says week) if a status matches /\brent\|\blet\b/i, else sale |
 * | `new_build` (0/1)                    | feature "New Build"      | case-insensitive name match on export                                                   |
 * | `type`                               | `types[0]`               |                                                                                         |
 * | `town` / `province` / `country`      | `city` / `state` / `country` |                                                                                     |
 * | `location_detail`                    | `area`                   |                                                                                         |
 * | `location/latitude`, `/longitude`    | `latitude`, `longitude`  | decimals                                                                                |
 * | `beds` / `baths`                     | `bedrooms` / `bathrooms` | integers                                                                                |
 * | `pool` (0/1)                         | feature "Pool"           | case-insensitive name match on export                                                   |
 * | `surface_area/built`, `/plot`        | `size`, `land_size`      | m² (unit set to m2 on import); sqft converted (× 0.09290304) and rounded on export      |
 * | `url/en`                             | —                        | ignored on import; written from `kyeroWriter({ listingUrl })`                           |
 * | `desc/<lang>`                        | `description`            | `en` preferred, else the first language; written as `desc/en`                           |
 * | `features/feature`                   | `features`               | plus "Pool"/"New Build" from their flags; those two are not repeated here on export     |
 * | `images/image[@id]/url`              | `images`                 | in order of `id`                                                                        |
 * | —                                    | `title`                  | import: "{type} in {town}", else type, town or "Property {ref or id}"; not written      |
 * | —                                    | `status`                 | import: publish; export: only `publish` listings                                        |
 *
 * Text is trimmed; an empty element is one the property does not carry. Unknown elements are ignored. An optional
 * element that cannot be read (a price "abc", beds "two", a `price_freq` or flag of another value, a bad date) is
 * left out and named in the record's `warnings`; only `id` is required of the reader (docs/data-exchange.md,
 * "Warnings"). Numbers are read by feed-numbers.ts ("450,000" too; a unit or currency in the text not). The
 * reader refuses what every XML feed here refuses (xml-parser.ts): a DOCTYPE, bytes that are not UTF-8, elements
 * nested more than 64 deep, a text longer than KYERO_MAX_PIECE.
 */

const SQUARE_METRES_PER_SQUARE_FOOT = 0.09290304;
const POOL = 'Pool';
const NEW_BUILD = 'New Build';
const RENTAL_STATUS = /\brent|\blet\b/i;

/** One `<property>` as read: leaf texts by path below it ("price", "location/latitude"), lists apart. */
interface RawProperty {
  at: string;
  values: Map<string, string>;
  descriptions: Map<string, string>;
  features: string[] | undefined;
  images: { id: number; url: string }[] | undefined;
}

class FieldError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * The longest piece of a Kyero feed's text, in characters (FeedXmlSettings.maxPiece): a listing's description may
 * be 20,000 characters, its other values a few hundred.
 */
export const KYERO_MAX_PIECE = 1024 * 1024;

export const readKyeroFeed: FeedReader = async function* (input) {
  // Records finished by the chunk just written; handed out before the next chunk is read.
  const ready: FeedRecord[] = [];
  // The names of the open elements, from the root down: pushed and popped, never copied.
  const path: string[] = [];
  // The text of each element open inside the current property (the property's own first).
  const texts: string[] = [];
  let property: RawProperty | undefined;
  let image: { id: number; url: string } | undefined;

  // Plain (no xmlns): Kyero has no namespaces.
  const document: FeedXmlDocument = new FeedXmlDocument(
    { documentName: 'a Kyero feed', maxPiece: KYERO_MAX_PIECE },
    {
      open(tag, depth, line) {
        if (depth === 1 && tag.name !== 'root') document.failAt(`the root element is <${shortened(tag.name)}>; a Kyero feed's is <root>`);
        path.push(tag.name);
        if (property) {
          texts.push('');
          if (depth === 4 && path[2] === 'images' && tag.name === 'image') {
            const id = Number.parseInt(tag.attributes.id ?? '', 10);
            image = { id: Number.isNaN(id) ? Infinity : id, url: '' };
          }
        } else if (depth === 2 && tag.name === 'property') {
          property = { at: `line ${line}`, values: new Map(), descriptions: new Map(), features: undefined, images: undefined };
          texts.push('');
        }
      },
      close(depth) {
        if (property) {
          const text = texts.pop()!.trim();
          if (depth === 2) {
            ready.push(recordOf(property));
            property = undefined;
          } else {
            collect(property, depth, text);
          }
        }
        path.pop();
      },
      text(piece) {
        if (texts.length > 0) texts[texts.length - 1] += piece;
      },
    },
  );

  /** An element inside the property closes at `depth` (the property's children are at 3) with its text. */
  function collect(raw: RawProperty, depth: number, text: string): void {
    const [first, second, third] = [path[2], path[3], path[4]];
    if (first === 'images') {
      if (depth === 3) raw.images ??= [];
      else if (depth === 5 && second === 'image' && third === 'url' && image) image.url = text;
      else if (depth === 4 && second === 'image' && image) {
        if (image.url !== '') (raw.images ??= []).push(image);
        image = undefined;
      }
    } else if (first === 'features') {
      raw.features ??= [];
      if (depth === 4 && second === 'feature' && text !== '') raw.features.push(text);
    } else if (first === 'desc' && depth === 4 && second !== undefined) {
      if (text !== '' && !raw.descriptions.has(second)) raw.descriptions.set(second, text);
    } else if (depth === 3) {
      raw.values.set(first!, text);
    } else if (depth === 4) {
      raw.values.set(`${first}/${second}`, text);
    }
  }

  yield* document.records(input, ready);
};

function recordOf(raw: RawProperty): FeedRecord {
  try {
    const warnings = new FeedWarnings();
    const listing = listingOf(raw, warnings);
    return { kind: 'listing', at: raw.at, listing, ...warnings.record };
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return { kind: 'unreadable', at: raw.at, field: error.field, reason: error.message };
  }
}

/** The property's listing; an optional value that cannot be read is left out and goes to `warnings`. */
function listingOf(raw: RawProperty, warnings: FeedWarnings): FeedListing {
  const text = (name: string): string | undefined => {
    const value = raw.values.get(name);
    return value === '' ? undefined : value;
  };
  const key = text('id');
  if (key === undefined) throw new FieldError('key', 'is required');
  const listing: FeedListing = { key, status: 'publish' };
  /** What `read` gives; false when it throws a FieldError, which becomes a warning. */
  const may = (read: () => boolean): boolean => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof FieldError)) throw error;
      warnings.add(error.field, error.message);
      return false;
    }
  };
  const setNumber = (field: NumberField, value: string | undefined, rule: NumberRule) => may(() => numberInto(listing, field, value, rule));
  const date = text('date');
  if (date !== undefined) may(() => Boolean((listing.updated_at = isoDateOf(date))));
  const reference = text('ref');
  if (reference !== undefined) listing.reference = reference;
  setNumber('price', text('price'), { min: 0 });
  const currency = text('currency');
  if (currency !== undefined) listing.currency = currency;

  const frequency = text('price_freq');
  if (frequency === 'sale') listing.statuses = ['For Sale'];
  else if (frequency === 'month' || frequency === 'week') {
    listing.statuses = ['For Rent'];
    listing.price_postfix = `/${frequency}`;
  } else if (frequency !== undefined) warnings.add('statuses', 'must be one of: sale, month, week');

  const type = text('type');
  if (type !== undefined) listing.types = [type];
  const town = text('town');
  for (const [element, field] of [
    ['town', 'city'],
    ['province', 'state'],
    ['country', 'country'],
    ['location_detail', 'area'],
  ] as const) {
    const value = text(element);
    if (value !== undefined) listing[field] = value;
  }
  listing.title = type !== undefined && town !== undefined ? `${type} in ${town}` : (type ?? town ?? `Property ${reference ?? key}`);

  setNumber('latitude', text('location/latitude'), { min: -90, max: 90 });
  setNumber('longitude', text('location/longitude'), { min: -180, max: 180 });
  setNumber('bedrooms', text('beds'), { min: 0, integer: true });
  setNumber('bathrooms', text('baths'), { min: 0, integer: true });
  if (setNumber('size', text('surface_area/built'), { min: 0 })) listing.size_unit = 'm2';
  if (setNumber('land_size', text('surface_area/plot'), { min: 0 })) listing.land_size_unit = 'm2';

  let features = raw.features;
  for (const [element, name] of [
    ['pool', POOL],
    ['new_build', NEW_BUILD],
  ] as const) {
    const flag = text(element);
    if (flag === undefined) continue;
    if (flag !== '0' && flag !== '1') {
      warnings.add('features', `must be one of: 0, 1 (in <${element}>)`);
      continue;
    }
    features ??= [];
    if (flag === '1' && !hasName(features, name)) features.push(name);
  }
  if (features) listing.features = features;

  const description = raw.descriptions.get('en') ?? raw.descriptions.values().next().value;
  if (description !== undefined) listing.description = description;
  if (raw.images) listing.images = raw.images.sort((a, b) => a.id - b.id).map((picture) => picture.url);
  return listing;
}

type NumberField = 'price' | 'latitude' | 'longitude' | 'bedrooms' | 'bathrooms' | 'size' | 'land_size';
type NumberRule = { min: number; max?: number; integer?: boolean };

/** Sets the field from the element's text; false when the property does not carry it. */
function numberInto(listing: FeedListing, field: NumberField, text: string | undefined, rule: NumberRule): boolean {
  if (text === undefined) return false;
  const read = feedNumberOf(text, { integer: rule.integer, coordinate: field === 'latitude' || field === 'longitude' });
  if ('reason' in read) throw new FieldError(field, read.reason);
  const value = read.value;
  if (value === null) return false;
  if (value < rule.min) throw new FieldError(field, `must be at least ${rule.min}`);
  if (rule.max !== undefined && value > rule.max) throw new FieldError(field, `must be at most ${rule.max}`);
  listing[field] = value;
  return true;
}

/** Kyero's "YYYY-MM-DD HH:MM:SS" (UTC) as ISO 8601. */
function isoDateOf(text: string): string {
  const parts = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})$/.exec(text);
  const date = parts ? new Date(`${parts[1]}-${parts[2]}-${parts[3]}T${parts[4]}:${parts[5]}:${parts[6]}Z`) : undefined;
  // Date would roll "02-30" over to March; a date that does not come back as written is not one.
  if (!date || Number.isNaN(date.getTime()) || kyeroDateOf(date.toISOString()) !== text.replace('T', ' ')) {
    throw new FieldError('updated_at', 'must be a valid date-time (YYYY-MM-DD HH:MM:SS)');
  }
  return date.toISOString();
}

function kyeroDateOf(iso: string): string | undefined {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString().slice(0, 19).replace('T', ' ');
}

function hasName(names: readonly string[], name: string): boolean {
  return names.some((item) => sameName(item, name));
}

function sameName(a: string, b: string): boolean {
  return a.trim().toLowerCase() === b.toLowerCase();
}

export interface KyeroWriterOptions {
  /** The listing's public page, written as `<url><en>`; none when it returns undefined. */
  listingUrl?: (listing: FeedListing) => string | undefined;
}

/** The feed's head, one `<property>` piece per published listing, then the closing tag. */
export function kyeroWriter(options: KyeroWriterOptions): FeedWriter {
  return async function* ({ listings }) {
    yield '<?xml version="1.0" encoding="UTF-8"?>\n<root>\n  <kyero><feed_version>3</feed_version></kyero>\n';
    for await (const listing of listings) {
      if (listing.status === 'publish') yield propertyXml(listing, options.listingUrl?.(listing));
    }
    yield '</root>\n';
  };
}

export const writeKyeroFeed: FeedWriter = kyeroWriter({});

function propertyXml(listing: FeedListing, url: string | undefined): string {
  const features = listing.features ?? [];
  const rental = listing.statuses?.some((status) => RENTAL_STATUS.test(status)) ?? false;
  const frequency = !rental ? 'sale' : /week/i.test(listing.price_postfix ?? '') ? 'week' : 'month';
  const lines = [
    element('id', listing.key),
    element('date', listing.updated_at && kyeroDateOf(listing.updated_at)),
    element('ref', listing.reference),
    element('price', listing.price != null ? Math.round(listing.price) : undefined),
    element('currency', listing.currency),
    element('price_freq', frequency),
    element('new_build', hasName(features, NEW_BUILD) ? 1 : 0),
    element('type', listing.types?.[0]),
    element('town', listing.city),
    element('province', listing.state),
    element('country', listing.country),
    element('location_detail', listing.area),
    wrap('location', element('latitude', listing.latitude) + element('longitude', listing.longitude)),
    element('beds', listing.bedrooms),
    element('baths', listing.bathrooms),
    element('pool', hasName(features, POOL) ? 1 : 0),
    wrap(
      'surface_area',
      element('built', squareMetres(listing.size, listing.size_unit)) +
        element('plot', squareMetres(listing.land_size, listing.land_size_unit)),
    ),
    wrap('url', element('en', url)),
    wrap('desc', element('en', listing.description)),
    wrap(
      'features',
      features
        .filter((name) => !sameName(name, POOL) && !sameName(name, NEW_BUILD))
        .map((name) => element('feature', name))
        .join(''),
    ),
    wrap('images', (listing.images ?? []).map((image, n) => `<image id="${n + 1}">${element('url', image)}</image>`).join('')),
  ];
  return `  <property>\n${lines
    .filter((line) => line !== '')
    .map((line) => `    ${line}\n`)
    .join('')}  </property>\n`;
}

function squareMetres(value: number | null | undefined, unit: 'sqft' | 'm2' | undefined): number | undefined {
  if (value == null) return undefined;
  return Math.round(unit === 'sqft' ? value * SQUARE_METRES_PER_SQUARE_FOOT : value);
}

function element(name: string, value: string | number | null | undefined): string {
  if (value == null) return '';
  const text = escapeText(String(value));
  return text.trim() === '' ? '' : `<${name}>${text}</${name}>`;
}

function wrap(name: string, content: string): string {
  return content === '' ? '' : `<${name}>${content}</${name}>`;
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;', '\r': '&#13;' };

/**
 * Text as XML character data. A carriage return is written as a reference, since a parser turns a bare one
 * into a line feed; characters XML 1.0 cannot carry at all (most control characters, lone surrogates,
 * U+FFFE, U+FFFF) are dropped, as no reader would accept the document with them.
 */
function escapeText(text: string): string {
  return text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '').replace(/[&<>"'\r]/g, (c) => XML_ESCAPES[c]!);
}
