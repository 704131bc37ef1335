import { unserialize } from 'php-serialize';
import { type FreeTextUnit, type FreeTextValue, readFreeTextNumber, unitOf } from '../../../lib/free-text-number.js';
import type { FeedFloorPlan } from '../feed-records.js';
import type { WxrMeta } from './wxr-xml.js';

/**
 * Houzez's post meta as text, read into the values of a FeedListing: numbers as Houzez users type them, area
 * units, coordinates, and the PHP-serialized repeaters (additional features, floor plans).
 */

/** A field of one record could not be read; the record is reported as unreadable and reading goes on. */
export class FieldError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(reason);
  }
}

/** Where a problem with an optional value goes: a warning (the value is left out), or `refuse`, which throws it. */
export type Warn = (problem: FieldError) => void;

const refuse: Warn = (problem) => {
  throw problem;
};

/** What `read` gives, or `fallback` when it throws a FieldError, which goes to `warn`. */
export function optional<T, F>(warn: Warn, fallback: F, read: () => T): T | F {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof FieldError)) throw error;
    warn(error);
    return fallback;
  }
}

/** A post's meta by key; a key may repeat (`fave_property_images`, `fave_agents`). */
export class PostMeta {
  private readonly values = new Map<string, string[]>();

  constructor(entries: readonly WxrMeta[]) {
    for (const { key, value } of entries) {
      const list = this.values.get(key);
      if (list) list.push(value);
      else this.values.set(key, [value]);
    }
  }

  /** The key's first value, '' when absent: what WordPress's `get_post_meta($id, $key, true)` answers. */
  text(key: string): string {
    return this.values.get(key)?.[0] ?? '';
  }

  /** Every value of the key, in order. */
  all(key: string): string[] {
    return this.values.get(key) ?? [];
  }
}

const COORDINATE = /^-?(?:\d+(?:\.\d*)?|\.\d+)$/;

/** A coordinate ("36.5101"): a plain decimal, never grouped, since "36.510" is not 36510; null for empty text. */
function coordinateOf(text: string, field: string): number | null {
  const compact = text.trim();
  if (compact === '') return null;
  // Number() alone would take "0x1A", "1e3" and "Infinity".
  if (!COORDINATE.test(compact)) throw new FieldError(field, 'must be of type number');
  return Number(compact);
}

/** Free text read as a number (lib/free-text-number.ts), the reason in a FieldError when it is none. */
function freeTextOf(text: string, field: string, where: string): FreeTextValue | null {
  const read = readFreeTextNumber(text);
  if (read !== null && 'reason' in read) throw new FieldError(field, `${read.reason}${where}`);
  return read;
}

/**
 * A count or an amount as Houzez users type it ("250000", "€1,200.50", "1.200,50 €", "From 450.000", "1.5");
 * null for empty text. A unit of area beside it is refused: it is no area.
 */
export function amountOf(text: string, field: string, where = ''): FreeTextValue | null {
  const read = freeTextOf(text, field, where);
  if (read?.unit !== undefined) throw new FieldError(field, `must be of type number (an area where none belongs)${where}`);
  return read;
}

/** The number of `amountOf`. */
export function numberOf(text: string, field: string, where = ''): number | null {
  return amountOf(text, field, where)?.value ?? null;
}

/** An area as typed ("497 m²", "1,200 Sq Ft", "0.5 ac"): its number and the unit written with it, if any. */
export function areaNumberOf(text: string, field: string, where = ''): { value: number | null; unit?: FreeTextUnit } {
  const read = freeTextOf(text, field, where);
  if (read?.currency !== undefined) throw new FieldError(field, `must be of type number (a price where an area belongs)${where}`);
  if (read === null) return { value: null };
  return read.unit === undefined ? { value: read.value } : { value: read.value, unit: read.unit };
}

const SQUARE_FEET_PER_ACRE = 43_560;
const SQUARE_METRES_PER_HECTARE = 10_000;
const AREA_UNITS: Record<FreeTextUnit, { unit: 'sqft' | 'm2'; factor: number }> = {
  sqft: { unit: 'sqft', factor: 1 },
  m2: { unit: 'm2', factor: 1 },
  ac: { unit: 'sqft', factor: SQUARE_FEET_PER_ACRE },
  ha: { unit: 'm2', factor: SQUARE_METRES_PER_HECTARE },
};

/**
 * An area and its unit: the one written with the number ("497 m²"), else the one Houzez shows beside it ("Sq Ft",
 * "m²", "Acres"). The API knows square feet and square metres only: acres and hectares are converted (to 2
 * decimals); any other unit leaves `unit` out, so that the importer keeps its own (the API's default is sqft),
 * and the number is taken as written.
 */
export function areaOf(
  area: { value: number | null; unit?: FreeTextUnit | undefined },
  unitText: string,
): { value: number | null; unit?: 'sqft' | 'm2' } {
  const written = area.unit ?? unitOf(unitText);
  if (written === undefined) return { value: area.value };
  const unit = AREA_UNITS[written];
  return { value: area.value === null ? null : Math.round(area.value * unit.factor * 100) / 100, unit: unit.unit };
}

const NO_AREA: { value: number | null; unit?: FreeTextUnit } = { value: null };

/** How a plan's size unit is shown when the plan's own postfix is empty and its size says one ("497 m²"). */
const UNIT_LABELS: Record<FreeTextUnit, string> = { sqft: 'sq ft', m2: 'm²', ac: 'ac', ha: 'ha' };

/** Post ids as text ("12"), in order and each once; Houzez writes "" or "-1" for "none", which are dropped. */
export function postIdsOf(values: readonly string[]): string[] {
  return [...new Set(values.filter((value) => /^[1-9]\d*$/.test(value)))];
}

const EMBED_MAX = 10_000;
const IFRAME_SOURCE = /<iframe\b[^>]*?\ssrc\s*=\s*(?:"(https?:\/\/[^"\s]+)"|'(https?:\/\/[^'\s]+)')/i;

/**
 * Houzez keeps a URL or an embed code (a Matterport or Kuula `<iframe>`); the API takes an http(s) URL or "". From
 * an embed code the iframe's `src` is taken, its `&amp;` read as `&`; any other text gives "".
 */
export function virtualTourOf(text: string): string {
  const trimmed = text.trim();
  if (/^https?:\/\/\S+$/i.test(trimmed)) return trimmed;
  // An embed code is a few hundred characters; a longer text is no embed code to search.
  const source = trimmed.length <= EMBED_MAX ? IFRAME_SOURCE.exec(trimmed) : null;
  return source ? (source[1] ?? source[2]!).replace(/&amp;/gi, '&') : '';
}

/** The map pin: Houzez's geolocation pair, else "lat,lng,zoom" of `fave_property_location`. */
export function coordinatesOf(meta: PostMeta): { latitude: number | null; longitude: number | null } {
  let latitude = meta.text('houzez_geolocation_lat');
  let longitude = meta.text('houzez_geolocation_long');
  if (latitude === '' || longitude === '') [latitude = '', longitude = ''] = meta.text('fave_property_location').split(',');
  return { latitude: coordinateOf(latitude, 'latitude'), longitude: coordinateOf(longitude, 'longitude') };
}

// NOTE: a scope without a prototype, and strict: an `O:`/`C:` class name is looked up in the scope, and a plain
// `{}` would hand back Object for "constructor"; strict makes any class name the scope lacks an error, so no
// object of any class is ever made from a file.
const NO_CLASSES: Record<string, never> = Object.freeze(Object.create(null) as Record<string, never>);

function unserialized(text: string): unknown {
  try {
    return unserialize(text, NO_CLASSES, { strict: true, encoding: 'utf8' });
  } catch {
    return undefined;
  }
}

/**
 * The rows of a PHP-serialized array of arrays (a Houzez repeater). Lengths in PHP's format count UTF-8 bytes,
 * which `unserialize` counts too. XML turns the CR LF that browsers send in text areas into LF, so the lengths of
 * such texts fall short: when the text as read does not unserialize, it is tried again with its line ends as
 * CR LF.
 */
function serializedRows(text: string, field: string): Record<string, unknown>[] {
  if (text === '') return [];
  const value = unserialized(text) ?? (text.includes('\n') ? unserialized(text.replace(/\r?\n/g, '\r\n')) : undefined);
  if (value === null || typeof value !== 'object') throw new FieldError(field, 'is not a valid PHP-serialized array');
  // A PHP array whose keys are not 0…n-1 comes back as an object; its own values are the rows, in key order.
  return Object.values(value).map((row: unknown, n) => {
    if (row === null || typeof row !== 'object' || Array.isArray(row)) {
      throw new FieldError(field, `must be an array of rows (row ${n + 1} is not an array of fields)`);
    }
    return row as Record<string, unknown>;
  });
}

/** A row's field as text: own fields only, since a `__proto__` key in the data sets the row's prototype. */
function cell(row: Record<string, unknown>, key: string): string {
  const value = Object.hasOwn(row, key) ? row[key] : undefined;
  if (typeof value === 'string') return value.trim();
  if (typeof value === 'number' || typeof value === 'bigint') return String(value);
  if (typeof value === 'boolean') return value ? '1' : '';
  return '';
}

/** `additional_features`: rows of title and value; a row with neither is one Houzez saved empty. */
export function additionalFeaturesOf(text: string): { title: string; value: string }[] {
  return serializedRows(text, 'additional_features')
    .map((row) => ({ title: cell(row, 'fave_additional_feature_title'), value: cell(row, 'fave_additional_feature_value') }))
    .filter((feature) => feature.title !== '' || feature.value !== '');
}

/**
 * The energy fields of Houzez's "Energy Class" box, as additional features titled as the box shows them; the API
 * has no energy fields of its own. Empty ones are left out.
 */
const ENERGY_FIELDS: readonly (readonly [key: string, title: string])[] = [
  ['fave_energy_class', 'Energy class'],
  ['fave_energy_global_index', 'Global energy performance index'],
  ['fave_renewable_energy_global_index', 'Renewable energy performance index'],
  ['fave_energy_performance', 'Energy performance of the building'],
  ['fave_epc_current_rating', 'EPC current rating'],
  ['fave_epc_potential_rating', 'EPC potential rating'],
];

export function energyFeaturesOf(meta: PostMeta): { title: string; value: string }[] {
  return ENERGY_FIELDS.flatMap(([key, title]) => {
    const value = meta.text(key).trim();
    return value === '' ? [] : [{ title, value }];
  });
}

/**
 * `fave_multi_units`: the units of a development (a block of flats sold unit by unit), as floor plans: the API
 * has no units of its own, and a unit's figures are a plan's (title, bedrooms as rooms, bathrooms, price and
 * postfix, size and postfix); its type and availability date go in the description. A figure that is no number
 * goes to `warn` and is left empty (null); `refuse` makes it throw.
 */
export function multiUnitsOf(text: string, warn = refuse): FeedFloorPlan[] {
  return serializedRows(text, 'fave_multi_units').map((row, n) => {
    const where = (key: string) => ` (in unit ${n + 1}, ${key})`;
    const number = (key: string) => optional(warn, null, () => numberOf(cell(row, key), 'fave_multi_units', where(key)));
    const size = optional(warn, NO_AREA, () => areaNumberOf(cell(row, 'fave_mu_size'), 'fave_multi_units', where('fave_mu_size')));
    const sizePostfix = cell(row, 'fave_mu_size_postfix');
    const type = cell(row, 'fave_mu_type');
    const available = cell(row, 'fave_mu_availability_date');
    return {
      title: cell(row, 'fave_mu_title'),
      rooms: number('fave_mu_beds'),
      bathrooms: number('fave_mu_baths'),
      price: number('fave_mu_price'),
      price_postfix: cell(row, 'fave_mu_price_postfix'),
      size: size.value,
      size_postfix: sizePostfix === '' && size.unit !== undefined ? UNIT_LABELS[size.unit] : sizePostfix,
      image_url: '',
      description: [type, available === '' ? '' : `Available from ${available}`].filter((part) => part !== '').join(' · '),
    };
  });
}

/**
 * `floor_plans`: Houzez's plan rows, numbers read as the listing's are ("" → null): a size may carry its unit
 * ("497 m²", "1,200 Sq Ft"), which becomes the plan's size postfix when the row has none. A figure that is no
 * number goes to `warn` and is left empty (null); `refuse` makes it throw.
 */
export function floorPlansOf(text: string, warn = refuse): FeedFloorPlan[] {
  return serializedRows(text, 'floor_plans').map((row, n) => {
    const where = (key: string) => ` (in plan ${n + 1}, ${key})`;
    const number = (key: string) => optional(warn, null, () => numberOf(cell(row, key), 'floor_plans', where(key)));
    const size = optional(warn, NO_AREA, () => areaNumberOf(cell(row, 'fave_plan_size'), 'floor_plans', where('fave_plan_size')));
    const sizePostfix = cell(row, 'fave_plan_size_postfix');
    return {
      title: cell(row, 'fave_plan_title'),
      rooms: number('fave_plan_rooms'),
      bathrooms: number('fave_plan_bathrooms'),
      price: number('fave_plan_price'),
      price_postfix: cell(row, 'fave_plan_price_postfix'),
      size: size.value,
      size_postfix: sizePostfix === '' && size.unit !== undefined ? UNIT_LABELS[size.unit] : sizePostfix,
      image_url: cell(row, 'fave_plan_image'),
      description: cell(row, 'fave_plan_description'),
    };
  });
}
