import type { FeedAgency, FeedAgent, FeedListing, FeedListingState, FeedRecord } from './feed-records.js';
import { FeedWarnings, feedNumberOf } from './feed-numbers.js';

/**
 * One RESO record (Property, Member, Office) ↔ one FeedListing, FeedAgent or FeedAgency. The mapping table
 * and the document around the records are in reso.ts.
 *
 * A Property's optional field that cannot be read (a ListPrice "call us", a BedroomsTotal 2.5, an unknown
 * LivingAreaUnits, one bad Media item, one bad figure of a floor plan) is left out, at the narrowest place, and
 * named in the record's `warnings`; ListingKey, StandardStatus and X_Realty_Title are required (the record is
 * unreadable without them). A number may come as a JSON number or, as OData servers write decimals with
 * `IEEE754Compatible=true`, as a string, read by feed-numbers.ts.
 */

/** A JSON object as assembled from the feed, or as written to it. */
type Json = Record<string, unknown>;

export type ResoResource = 'Office' | 'Member' | 'Property';

/** A field the record cannot be read with; the record is reported, the feed goes on. */
class FieldError extends Error {
  constructor(
    readonly field: string | undefined,
    reason: string,
  ) {
    super(reason);
  }
}

/**
 * `text` is a string that JSON null clears to "" (FeedListing has no null there); `place` keeps null;
 * `list` is an array of strings that null clears to []; `flag` a boolean that null clears to false.
 */
type Kind = 'text' | 'place' | 'number' | 'integer' | 'flag' | 'list' | 'date-time';

/** The Property fields that map one to one, in the order the writer writes them. */
const PROPERTY_FIELDS = [
  ['ListingId', 'reference', 'text'],
  ['ListPrice', 'price', 'number'],
  ['PublicRemarks', 'description', 'text'],
  ['BedroomsTotal', 'bedrooms', 'integer'],
  ['BathroomsTotalInteger', 'bathrooms', 'integer'],
  ['RoomsTotal', 'rooms', 'integer'],
  ['GarageSpaces', 'garage', 'integer'],
  ['LivingArea', 'size', 'number'],
  ['LotSizeArea', 'land_size', 'number'],
  ['YearBuilt', 'year_built', 'integer'],
  ['Latitude', 'latitude', 'number'],
  ['Longitude', 'longitude', 'number'],
  ['UnparsedAddress', 'address', 'text'],
  ['PostalCode', 'zipcode', 'text'],
  ['Country', 'country', 'place'],
  ['StateOrProvince', 'state', 'place'],
  ['City', 'city', 'place'],
  ['SubdivisionName', 'area', 'place'],
  ['ListOfficeKey', 'agency', 'place'],
  ['VirtualTourURLUnbranded', 'virtual_tour', 'text'],
  ['OriginalEntryTimestamp', 'created_at', 'date-time'],
  ['ModificationTimestamp', 'updated_at', 'date-time'],
  ['X_Realty_Title', 'title', 'text'],
  ['X_Realty_Currency', 'currency', 'text'],
  ['X_Realty_SecondPrice', 'second_price', 'number'],
  ['X_Realty_PricePrefix', 'price_prefix', 'text'],
  ['X_Realty_PricePostfix', 'price_postfix', 'text'],
  ['X_Realty_GarageSize', 'garage_size', 'text'],
  ['X_Realty_Featured', 'featured', 'flag'],
  ['X_Realty_VideoURL', 'video_url', 'text'],
  ['X_Realty_Statuses', 'statuses', 'list'],
  ['X_Realty_Labels', 'labels', 'list'],
  ['X_Realty_Features', 'features', 'list'],
  // The listing's address on the site the feed comes from: kept as a redirect, never exported (feed-records.ts).
  ['X_Realty_URL', 'url', 'text'],
] as const satisfies readonly (readonly [string, keyof FeedListing, Kind])[];

const MEMBER_FIELDS = [
  ['MemberFullName', 'name', 'text'],
  ['MemberEmail', 'email', 'text'],
  ['MemberDirectPhone', 'phone', 'text'],
  ['MemberMobilePhone', 'mobile', 'text'],
  ['JobTitle', 'position', 'text'],
  ['OfficeKey', 'agency', 'place'],
  ['X_Realty_URL', 'url', 'text'],
] as const satisfies readonly (readonly [string, keyof FeedAgent, Kind])[];

const OFFICE_FIELDS = [
  ['OfficeName', 'name', 'text'],
  ['OfficeEmail', 'email', 'text'],
  ['OfficePhone', 'phone', 'text'],
  ['X_Realty_Website', 'website', 'text'],
  ['OfficeAddress1', 'address', 'text'],
  ['X_Realty_URL', 'url', 'text'],
] as const satisfies readonly (readonly [string, keyof FeedAgency, Kind])[];

const STATUS_WRITTEN: Partial<Record<FeedListingState, string>> = {
  publish: 'Active',
  on_hold: 'Hold',
  sold: 'Closed',
  expired: 'Expired',
};

/** StandardStatus as read: the four the writer writes, then the other RESO states closest to ours. */
const STATUS_READ: readonly (readonly [string, FeedListingState])[] = [
  ['Active', 'publish'],
  ['Hold', 'on_hold'],
  ['Closed', 'sold'],
  ['Expired', 'expired'],
  ['Pending', 'on_hold'],
  ['Active Under Contract', 'on_hold'],
  ['Withdrawn', 'expired'],
  ['Canceled', 'expired'],
  ['Coming Soon', 'draft'],
];

const UNIT_WRITTEN = { sqft: 'Square Feet', m2: 'Square Meters' } as const;

/** Area units as read, with the factor to the unit kept: lots are often given in acres or hectares. */
const UNIT_READ: readonly (readonly [string, { unit: 'sqft' | 'm2'; factor: number }])[] = [
  ['Square Feet', { unit: 'sqft', factor: 1 }],
  ['Square Meters', { unit: 'm2', factor: 1 }],
  ['Acres', { unit: 'sqft', factor: 43_560 }],
  ['Hectares', { unit: 'm2', factor: 10_000 }],
];

const AGENT_DISPLAYS = ['agent_info', 'agency_info', 'author_info', 'none'] as const;

const FLOOR_PLAN_FIELDS = {
  title: 'text',
  rooms: 'number',
  bathrooms: 'number',
  price: 'number',
  price_postfix: 'text',
  size: 'number',
  size_postfix: 'text',
  description: 'text',
  image_url: 'text',
} as const;

/** What one array item of the document reads as. */
export function recordOf(resource: ResoResource, at: string, item: unknown): FeedRecord {
  try {
    if (!isObject(item)) throw new FieldError(undefined, 'must be of type object');
    switch (resource) {
      case 'Property': {
        const warnings = new FeedWarnings();
        const listing = listingOf(item, warnings);
        return { kind: 'listing', at, listing, ...warnings.record };
      }
      case 'Member':
        return { kind: 'agent', at, agent: agentOf(item) };
      case 'Office':
        return { kind: 'agency', at, agency: agencyOf(item) };
    }
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    return error.field === undefined
      ? { kind: 'unreadable', at, reason: error.message }
      : { kind: 'unreadable', at, field: error.field, reason: error.message };
  }
}

/** Fields of a Property a problem with which makes the record unreadable: any other is left out with a warning. */
const REQUIRED_PROPERTY_FIELDS: ReadonlySet<string> = new Set(['key', 'status', 'title']);

function listingOf(item: Json, warnings: FeedWarnings): FeedListing {
  const listing: Json = { key: requiredKey(item, 'ListingKey') };
  const status = enumOf(item, 'StandardStatus', 'status', STATUS_READ);
  if (status !== undefined) listing.status = status;
  /** What `read` gives; undefined when it throws a FieldError of an optional field, which becomes a warning. */
  const may = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof FieldError) || error.field === undefined || REQUIRED_PROPERTY_FIELDS.has(error.field)) throw error;
      warnings.add(error.field, error.message);
      return undefined;
    }
  };
  readFields(item, PROPERTY_FIELDS, listing, may);
  may(() => readUnit(item, 'LivingAreaUnits', 'size', listing));
  may(() => readUnit(item, 'LotSizeUnits', 'land_size', listing));
  const displays = AGENT_DISPLAYS.map((display) => [display, display] as const);
  const agentDisplay = may(() => enumOf(item, 'X_Realty_AgentDisplay', 'agent_display', displays));
  if (agentDisplay !== undefined) listing.agent_display = agentDisplay;
  const types = may(() => pairOf(item, 'PropertyType', 'PropertySubType', 'X_Realty_Types', 'types'));
  if (types !== undefined) listing.types = types;
  const agents = may(() => pairOf(item, 'ListAgentKey', 'CoListAgentKey', 'X_Realty_Agents', 'agents'));
  if (agents !== undefined) listing.agents = agents;
  const images = may(() => imagesOf(item, may));
  if (images !== undefined) listing.images = images;
  const additional = may(() =>
    objectsOf(item, 'X_Realty_AdditionalFeatures', 'additional_features', { title: 'text', value: 'text' }, ['title', 'value'], may),
  );
  if (additional !== undefined) listing.additional_features = additional;
  const plans = may(() => objectsOf(item, 'X_Realty_FloorPlans', 'floor_plans', FLOOR_PLAN_FIELDS, ['title'], may));
  if (plans !== undefined) listing.floor_plans = plans;
  return listing as unknown as FeedListing;
}

/** Reads a part of a record: `strict` throws what it cannot read; a Property's reader makes it a warning. */
type Reading = <T>(read: () => T) => T | undefined;
const strict: Reading = (read) => read();

function agentOf(item: Json): FeedAgent {
  const agent: Json = { key: requiredKey(item, 'MemberKey') };
  readFields(item, MEMBER_FIELDS, agent);
  if (typeof agent.name !== 'string' || agent.name.trim() === '') {
    const parts = [textOf(item, 'MemberFirstName', 'name'), textOf(item, 'MemberLastName', 'name')];
    agent.name = parts.filter((part) => part != null && part.trim() !== '').join(' ');
  }
  if (agent.name === '') throw new FieldError('name', 'is required');
  return agent as unknown as FeedAgent;
}

function agencyOf(item: Json): FeedAgency {
  const agency: Json = { key: requiredKey(item, 'OfficeKey') };
  readFields(item, OFFICE_FIELDS, agency);
  // RESO keeps web addresses in its SocialMedia resource; a feed that inlines that field is read too.
  if (agency.website === undefined) {
    const website = textOf(item, 'SocialMediaWebsiteUrlOrId', 'website');
    if (website !== undefined) agency.website = website ?? '';
  }
  if (typeof agency.name !== 'string' || agency.name.trim() === '') throw new FieldError('name', 'is required');
  return agency as unknown as FeedAgency;
}

/** The Property written for a listing; undefined for one in a state RESO feeds do not show. */
export function propertyOf(listing: FeedListing): Json | undefined {
  if (listing.status !== undefined && STATUS_WRITTEN[listing.status] === undefined) return undefined;
  const property: Json = { ListingKey: listing.key };
  if (listing.status !== undefined) property.StandardStatus = STATUS_WRITTEN[listing.status];
  writeFields(listing, PROPERTY_FIELDS, property);
  if (listing.size_unit !== undefined) property.LivingAreaUnits = UNIT_WRITTEN[listing.size_unit];
  if (listing.land_size_unit !== undefined) property.LotSizeUnits = UNIT_WRITTEN[listing.land_size_unit];
  if (listing.agent_display !== undefined) property.X_Realty_AgentDisplay = listing.agent_display;
  // The first two go in RESO's own fields, which every consumer reads; the whole list only when they cannot hold it.
  if (listing.types !== undefined) {
    property.PropertyType = listing.types[0] ?? null;
    property.PropertySubType = listing.types[1] ?? null;
    if (listing.types.length > 2) property.X_Realty_Types = listing.types;
  }
  if (listing.agents !== undefined) {
    property.ListAgentKey = listing.agents[0] ?? null;
    property.CoListAgentKey = listing.agents[1] ?? null;
    if (listing.agents.length > 2) property.X_Realty_Agents = listing.agents;
  }
  if (listing.additional_features !== undefined) property.X_Realty_AdditionalFeatures = listing.additional_features;
  if (listing.floor_plans !== undefined) property.X_Realty_FloorPlans = listing.floor_plans;
  if (listing.images !== undefined) {
    property.Media = listing.images.map((url, n) => ({
      MediaKey: `${listing.key}-${n + 1}`,
      MediaURL: url,
      Order: n + 1,
      MediaCategory: 'Photo',
    }));
  }
  return property;
}

export function memberOf(agent: FeedAgent): Json {
  const member: Json = { MemberKey: agent.key };
  writeFields(agent, MEMBER_FIELDS, member);
  return member;
}

export function officeOf(agency: FeedAgency): Json {
  const office: Json = { OfficeKey: agency.key };
  writeFields(agency, OFFICE_FIELDS, office);
  return office;
}

function readFields(item: Json, fields: readonly (readonly [string, string, Kind])[], target: Json, reading = strict): void {
  for (const [name, field, kind] of fields) {
    const value = reading(() => valueOf(item, name, field, kind));
    if (value !== undefined) target[field] = value;
  }
}

function writeFields<T extends object>(source: T, fields: readonly (readonly [string, keyof T, Kind])[], target: Json): void {
  for (const [name, field] of fields) {
    const value = source[field];
    if (value !== undefined) target[name] = value;
  }
}

/** The value a field of the given kind takes from the record; undefined when the record does not carry it. */
function valueOf(item: Json, name: string, field: string, kind: Kind): unknown {
  const value = own(item, name);
  if (value === undefined) return undefined;
  switch (kind) {
    case 'text':
      return textOf(item, name, field) ?? '';
    case 'place':
      return textOf(item, name, field);
    case 'number':
    case 'integer':
      return numberOf(item, name, field, kind === 'integer');
    case 'flag':
      if (value !== null && typeof value !== 'boolean') throw new FieldError(field, 'must be of type boolean');
      return value ?? false;
    case 'list':
      return stringsOf(item, name, field) ?? [];
    case 'date-time': {
      const text = textOf(item, name, field);
      if (text == null) return undefined;
      if (!DATE_TIME.test(text) || Number.isNaN(Date.parse(text))) throw new FieldError(field, 'must be a valid date-time');
      return text;
    }
  }
}

/** RFC 3339, as RESO's DateTimeOffset is written. */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/i;

function requiredKey(item: Json, name: string): string {
  const key = textOf(item, name, 'key');
  if (key == null || key.trim() === '') throw new FieldError('key', 'is required');
  return key;
}

function textOf(item: Json, name: string, field: string): string | null | undefined {
  const value = own(item, name);
  if (value === undefined || value === null || typeof value === 'string') return value;
  throw new FieldError(field, 'must be of type string');
}

function numberOf(item: Json, name: string, field: string, integer: boolean): number | null | undefined {
  const value = own(item, name);
  if (value === undefined || value === null) return value;
  if (typeof value === 'string') {
    const read = feedNumberOf(value, { integer, coordinate: field === 'latitude' || field === 'longitude' });
    if ('reason' in read) throw new FieldError(field, read.reason);
    return read.value;
  }
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new FieldError(field, 'must be of type number');
  if (integer && !Number.isInteger(value)) throw new FieldError(field, 'must be of type integer');
  return value;
}

function stringsOf(item: Json, name: string, field: string): string[] | null | undefined {
  const value = own(item, name);
  if (value === undefined || value === null) return value;
  if (!Array.isArray(value)) throw new FieldError(field, 'must be of type array');
  value.forEach((entry, n) => {
    if (typeof entry !== 'string') throw new FieldError(`${field}[${n}]`, 'must be of type string');
  });
  return value as string[];
}

/**
 * A RESO lookup value: compared without case, spaces or underscores, since servers that publish lookups as
 * OData enumerations write "ActiveUnderContract" where string lookups write "Active Under Contract".
 * JSON null is a value the feed does not give: the import keeps what it has.
 */
function enumOf<T>(item: Json, name: string, field: string, values: readonly (readonly [string, T])[]): T | undefined {
  const text = textOf(item, name, field);
  if (text == null) return undefined;
  const wanted = lookupKey(text);
  const found = values.find(([value]) => lookupKey(value) === wanted);
  if (!found) throw new FieldError(field, `must be one of: ${values.map(([value]) => value).join(', ')}`);
  return found[1];
}

function lookupKey(text: string): string {
  return text.replace(/[\s_]/g, '').toLowerCase();
}

function readUnit(item: Json, name: string, field: 'size' | 'land_size', listing: Json): void {
  const found = enumOf(item, name, `${field}_unit`, UNIT_READ);
  if (found === undefined) return;
  listing[`${field}_unit`] = found.unit;
  const size = listing[field];
  if (typeof size === 'number' && found.factor !== 1) listing[field] = Math.round(size * found.factor * 100) / 100;
}

/** The first two items in RESO's own fields; the full list, when there is one, wins. */
function pairOf(item: Json, first: string, second: string, full: string, field: string): string[] | undefined {
  const list = stringsOf(item, full, field);
  if (list != null) return list;
  const pair = [textOf(item, first, `${field}[0]`), textOf(item, second, `${field}[1]`)];
  if (pair[0] === undefined && pair[1] === undefined) return undefined;
  return pair.filter((value): value is string => value != null && value.trim() !== '');
}

/**
 * The pictures among the expanded Media, in their Order (those without one last, as listed). An item that cannot
 * be read is left out when `reading` takes the problem (a Property's reader), else the whole field is refused.
 */
function imagesOf(item: Json, reading = strict): string[] | undefined {
  const media = own(item, 'Media');
  if (media === undefined) return undefined;
  if (media === null) return [];
  if (!Array.isArray(media)) throw new FieldError('images', 'must be of type array (Media)');
  const pictures: { url: string; order: number; n: number }[] = [];
  media.forEach((entry, n) =>
    reading(() => {
      const where = `Media[${n}]`;
      if (!isObject(entry)) throw new FieldError('images', `must be of type object (${where})`);
      const category = textOf(entry, 'MediaCategory', 'images');
      if (category != null && lookupKey(category) !== 'photo') return;
      const url = own(entry, 'MediaURL');
      if (url === undefined || url === null || url === '') throw new FieldError('images', `is required (${where}.MediaURL)`);
      if (typeof url !== 'string') throw new FieldError('images', `must be of type string (${where}.MediaURL)`);
      const order = own(entry, 'Order');
      if (order != null && (typeof order !== 'number' || !Number.isFinite(order))) {
        throw new FieldError('images', `must be of type number (${where}.Order)`);
      }
      pictures.push({ url, order: order ?? Infinity, n });
    }),
  );
  // Infinity − Infinity is NaN, which falls through to the listed order.
  return pictures.sort((a, b) => a.order - b.order || a.n - b.n).map((picture) => picture.url);
}

/**
 * An array of objects (floor plans, additional features) with the fields given; others are dropped. With a
 * Property's `reading`, a part that cannot be read is left out of its item (a required one: the item), with a
 * warning each.
 */
function objectsOf(
  item: Json,
  name: string,
  field: string,
  fields: Readonly<Record<string, 'text' | 'number'>>,
  required: readonly string[],
  reading = strict,
): Json[] | undefined {
  const value = own(item, name);
  if (value === undefined) return undefined;
  if (value === null) return [];
  if (!Array.isArray(value)) throw new FieldError(field, 'must be of type array');
  return value.flatMap((entry, n) => {
    const read = reading(() => {
      if (!isObject(entry)) throw new FieldError(`${field}[${n}]`, 'must be of type object');
      const parts: Json = {};
      for (const [part, kind] of Object.entries(fields)) {
        const where = `${field}[${n}].${part}`;
        const partValue = required.includes(part) ? valueOf(entry, part, where, kind) : reading(() => valueOf(entry, part, where, kind));
        if (partValue !== undefined) parts[part] = partValue;
      }
      for (const part of required) {
        if (own(entry, part) == null) throw new FieldError(`${field}[${n}].${part}`, 'is required');
      }
      return parts;
    });
    return read === undefined ? [] : [read];
  });
}

function own(item: Json, name: string): unknown {
  return Object.hasOwn(item, name) ? item[name] : undefined;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
