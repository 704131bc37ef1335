import fc from 'fast-check';
import { integerBetween, pick, type Random } from '../../src/lib/random.js';
import { TAXONOMIES, type Taxonomy } from '../../src/db/schema/index.js';
import { DEFAULT_PASSWORD } from '../helpers/factories.js';
import type { JsonSchema } from './operations.js';
import type { IdKind, World } from './world.js';

/**
 * Values for one schema: valid-looking ones (in range, of the right type, naming records of the world where
 * the field names a record), and the hostile ones of each input class.
 */

export const chance = (random: Random, p: number): boolean => random() < p;

// Hostile values

const COMBINING = 'Z\u0351\u0352\u0357\u035b\u0363\u0364\u0365\u0366\u0367\u0368\u0369\u036a\u036b\u0300\u0301\u0302\u0303\u0304';

/** Text that breaks naive code: direction overrides, emoji, combining marks, NUL, controls, odd Unicode, injections. */
export const NASTY_TEXT: readonly string[] = [
  '',
  ' ',
  '   \t ',
  '\u202Egnp.exe\u202C',
  'abc\u202Edef',
  '\u200F\u200E\u2066\u2069',
  '😀🏠🇺🇸👨‍👩‍👧‍👦',
  '🏠'.repeat(60),
  'e\u0301\u0301\u0301\u0301',
  COMBINING.repeat(20),
  '\u0000',
  'a\u0000b',
  'villa\u0000',
  '\u0001\u0002\u0003\u001b[31mred\u001b[0m',
  '\r\nX-Injected: 1',
  'line\nbreak',
  '\t',
  '\u007f\u0085',
  '\u2028\u2029',
  '\uFEFFbom',
  '\u200B\u200C\u200D',
  '\uD800',
  'x\uDFFFy',
  '\uFFFF\uFFFE',
  '\uFFFD',
  '١٢٣',
  '１２３',
  '𝔘𝔫𝔦𝔠𝔬𝔡𝔢',
  'İıßﬃǅ',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  '<p>ok<a href="javascript:alert(1)">x</a></p>',
  "' OR 1=1 --",
  '"; DROP TABLE users; --',
  '%s%s%s%n',
  '${7*7}{{7*7}}',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  'null',
  'undefined',
  'NaN',
  'true',
  '-1',
  '1e309',
  '__proto__',
  'constructor',
  'hasOwnProperty',
  '\\',
  '\\u0000',
  '%00',
  '%',
  '*',
  '%_',
  'a'.repeat(201),
  'a '.repeat(2_600),
  'é'.repeat(10_001),
  'x'.repeat(100_000),
];

/** Numbers that overflow columns, lose precision, or are not whole. */
export const NASTY_NUMBERS: readonly number[] = [
  0, -0, -1, -2147483648, 2147483647, 2147483648, 4294967296, 9007199254740991, 9007199254740992, -9007199254740992, 1e21, 1e308, -1e308,
  5e-324, 0.1, 1.5, -0.5, 2.675, 0.001, 9999999999.999,
];

/** Number literals JSON can carry but JavaScript numbers cannot represent exactly (spliced into the raw text). */
export const NASTY_NUMBER_LITERALS: readonly string[] = [
  '1e400',
  '-1e400',
  '9007199254740993',
  '123456789012345678901234567890',
  '1.0',
  '1E2',
  '-0.0',
  '0.0000000000000000000001',
  '1e-400',
];

/** Query-string spellings of numbers (and of things that are not). */
export const NASTY_NUMBER_TEXT: readonly string[] = [
  'abc',
  '',
  ' ',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e400',
  '-1',
  '0',
  '-0',
  '0.5',
  '1.5',
  '.5',
  '5.',
  '00005',
  '+5',
  ' 5 ',
  '0x10',
  '0b11',
  '1_000',
  '1,5',
  '1e3',
  '1e-400',
  '２',
  '٣',
  '2147483648',
  '-2147483649',
  '4294967296',
  '9007199254740993',
  '99999999999999999999999',
  'true',
  'null',
  '[]',
  '{}',
  '1;2',
];

/** Path segments that are not a plain id, percent-encoded as they travel. */
export const ODD_SEGMENTS: readonly string[] = [
  '%00',
  '1%00',
  '%E2%80%AE',
  '1%E2%80%AE2',
  '..',
  '.',
  '%2e%2e',
  '..%2F..%2Fetc%2Fpasswd',
  '%2F',
  '1%2F2',
  '-1',
  '0',
  '-0',
  '00',
  '9007199254740992',
  '9007199254740993',
  '2147483647',
  '2147483648',
  '4294967296',
  '1e3',
  '1.5',
  '0x1F',
  '+1',
  '%201',
  '1%20',
  'abc',
  'null',
  'NaN',
  'Infinity',
  '%F0%9F%98%80',
  '%EF%BC%91',
  '%D9%A3',
  '%25',
  '%',
  '%ZZ',
  '%C0%AF',
  '%ED%A0%80',
  '%FF%FE',
  '%0A',
  '%0D%0A',
  '%7F',
  '~',
  "1'",
  '1%3B%20DROP%20TABLE%20users',
  '1'.repeat(101),
  '9'.repeat(5_000),
  'a'.repeat(10_000),
  '__proto__',
  'constructor',
];

/** Values of any type but `type`'s. */
export function wrongTypeValues(type: string | undefined): unknown[] {
  const all: Record<string, unknown[]> = {
    string: ['text', '', '12'],
    number: [12, 0, -3.5],
    integer: [7],
    boolean: [true, false],
    null: [null],
    array: [[], [1, 'a', null], [[[]]]],
    object: [{}, { a: 1 }, { '': null }],
  };
  const exclude = type === 'integer' ? ['integer', 'number'] : type === 'number' ? ['number', 'integer'] : [type ?? ''];
  return Object.entries(all)
    .filter(([name]) => !exclude.includes(name))
    .flatMap(([, values]) => values);
}

/** JSON text nested `depth` levels deep: objects, arrays, or both alternating (built as text: no recursion). */
export function deepJson(depth: number, shape: 'object' | 'array' | 'mixed'): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = 0; i < depth; i++) {
    const object = shape === 'object' || (shape === 'mixed' && i % 2 === 0);
    open.push(object ? '{"a":' : '[');
    close.push(object ? '}' : ']');
  }
  return `${open.join('')}1${close.reverse().join('')}`;
}

export const DEPTHS: readonly number[] = [1_000, 1_000, 10_000, 100_000];

// Valid-looking values

const WORDS = [
  'villa',
  'apartment',
  'garden',
  'sea view',
  'Miami',
  'Café du Parc',
  'loft',
  'pool',
  'downtown',
  'São Paulo',
  'منزل',
  'maison',
];
const TAXONOMY_OF_FIELD: Record<string, Taxonomy> = {
  type: 'property_type',
  type_ids: 'property_type',
  status: 'property_status',
  status_ids: 'property_status',
  label: 'property_label',
  label_ids: 'property_label',
  feature: 'property_feature',
  feature_ids: 'property_feature',
  country: 'property_country',
  country_id: 'property_country',
  state: 'property_state',
  states: 'property_state',
  state_id: 'property_state',
  city: 'property_city',
  location: 'property_city',
  city_id: 'property_city',
  area: 'property_area',
  areas: 'property_area',
  category: 'agent_category',
  category_ids: 'agent_category',
  city_ids: 'agent_city',
};

const ID_KIND_OF_FIELD: Record<string, IdKind> = {
  property_id: 'listing',
  ids: 'listing',
  listing_id: 'listing',
  agent_id: 'agent',
  agent_ids: 'agent',
  agency_id: 'agency',
  user_id: 'user',
  author_id: 'user',
  media_ids: 'media',
  featured_image_id: 'media',
  picture_id: 'media',
  logo_id: 'media',
  avatar_id: 'media',
  parent: 'term',
  last_event_id: 'notification',
  'last-event-id': 'notification',
  invoice_id: 'invoice',
};

/** The kind of record a path parameter names, from the path segment before it. */
export function pathIdKind(path: string, param: string): IdKind | undefined {
  if (param === 'agent_id') return 'agent';
  if (param === 'invoice_id') return 'invoice';
  const before = path.split(`/{${param}}`)[0]?.split('/').at(-1) ?? '';
  const kinds: Record<string, IdKind> = {
    properties: 'listing',
    'favorite-property': 'listing',
    'approve-property': 'listing',
    'disapprove-property': 'listing',
    'hold-property': 'listing',
    'live-property': 'listing',
    'mark-sold-property': 'listing',
    agents: 'agent',
    agencies: 'agency',
    'saved-searches': 'savedSearch',
    reviews: 'review',
    notifications: 'notification',
    deliveries: 'delivery',
    media: 'media',
    users: 'user',
    packages: 'package',
    invoices: 'invoice',
  };
  if (/\/terms\/\{taxonomy\}$/.test(path.split(`/{${param}}`)[0] ?? '')) return 'term';
  return kinds[before];
}

export interface ValueContext {
  random: Random;
  world: World;
  /** The field or parameter name (the last key of the path). */
  name: string;
  /** The id kind a path parameter names, when known. */
  idKind?: IdKind;
  depth?: number;
  /** A query parameter (lists are comma-separated text there), not a body field. */
  inQuery?: boolean;
}

/** An existing id of `kind` mostly; sometimes another small id. */
export function worldId(context: ValueContext, kind: IdKind): number {
  const ids = context.world.ids[kind];
  if (ids.length > 0 && chance(context.random, 0.85)) return pick(ids, context.random);
  return integerBetween(context.random, 1, 60);
}

function termOf(context: ValueContext, taxonomy: Taxonomy) {
  return pick(context.world.termsByTaxonomy[taxonomy], context.random);
}

function sampleMatching(pattern: string, context: ValueContext, maxLength: number | undefined): string | undefined {
  let regex: RegExp;
  try {
    regex = new RegExp(pattern, 'u');
  } catch {
    return undefined;
  }
  for (let attempt = 0; attempt < 5; attempt++) {
    const [value] = fc.sample(fc.stringMatching(regex), { seed: integerBetween(context.random, 0, 2 ** 31 - 1), numRuns: 1 });
    if (value !== undefined && (maxLength === undefined || value.length <= maxLength)) return value;
  }
  return undefined;
}

/** A plausible string for a field, by its name when the name says what it holds. */
function validString(schema: JsonSchema, context: ValueContext): string {
  const { random, world, name } = context;
  const max = schema.maxLength ?? 200;
  const min = schema.minLength ?? 0;
  const taxonomy = TAXONOMY_OF_FIELD[name];
  if (name === 'lang') return pick(['en', 'ar', 'es', 'fr', 'de', 'en-US', 'fr_CA'], random);
  if (name === 'currency') return pick(['USD', 'EUR', 'JPY', 'KWD', 'usd', 'XXX'], random);
  if (schema.format === 'email' || name === 'email') {
    return chance(random, 0.5) ? pick(world.emails, random) : `fuzz.${integerBetween(random, 1, 1e6)}@example.test`;
  }
  if (name === 'username') return chance(random, 0.6) ? pick(world.usernames, random) : `fuzz_${integerBetween(random, 1, 1e6)}`;
  if (name === 'password' || name === 'current_password') return chance(random, 0.4) ? DEFAULT_PASSWORD : 'wrong password 123';
  if (name === 'refresh_token') return pick(world.tokens.refresh, random);
  if (name === 'id_token') return pick(world.tokens.googleIdTokens, random);
  if (name === 'access_token') return pick(world.tokens.facebookAccessTokens, random);
  if (name === 'token' && context.inQuery) return pick(world.tokens.unsubscribe, random);
  if (name === 'token') return pick([...world.tokens.deviceTokens, `device-${integerBetween(random, 1, 1e6)}`], random);
  if (schema.format === 'date-time')
    return new Date(Date.UTC(2020 + integerBetween(random, 0, 8), integerBetween(random, 0, 11), 3)).toISOString();
  if (schema.format === 'date')
    return `202${integerBetween(random, 0, 9)}-0${integerBetween(random, 1, 9)}-1${integerBetween(random, 0, 9)}`;
  if (schema.format === 'uri' || /url|link|website/.test(name)) return `https://example.test/${pick(WORDS, random).replace(/\W/g, '')}`;
  if (taxonomy && !schema.pattern) {
    const term = termOf(context, taxonomy);
    return pick([term.slug, String(term.id), `${term.slug},${term.id}`, 'no-such-slug', context.inQuery ? term.slug : term.name], random);
  }
  if (name === 'include' || name === 'exclude') {
    const ids = Object.values(world.termsByTaxonomy).flatMap((terms) => terms.map((term) => term.id));
    return Array.from({ length: integerBetween(random, 1, 3) }, () => pick(ids, random)).join(',');
  }
  if (name === 'slug' && context.inQuery) return pick(Object.values(world.termsByTaxonomy).flat(), random).slug;
  if (name === 'ids') return Array.from({ length: integerBetween(random, 1, 4) }, () => worldId(context, 'listing')).join(',');
  if (name === 'polygon') return pick(['25 -81,26 -81,26 -80,25 -80', '25.7 -80.3,25.9 -80.3,25.8 -80.1', '10 10,10 20'], random);
  if (name === 'facets')
    return pick(['type,city', 'bedrooms,price', 'type,status,label,feature,country,state,city,area,bedrooms,bathrooms,price'], random);
  if (name === 'keyword' || name === 'search') return pick(WORDS, random);
  if (name === 'query_string')
    return pick(['keyword=villa', 'min_price=1000&max_price=500000&bedrooms=2', 'type=villa&sortby=a_price'], random);
  if (schema.pattern) {
    const sampled = sampleMatching(schema.pattern, context, max);
    if (sampled !== undefined && sampled.length >= min) return sampled;
  }
  let text = pick(WORDS, random);
  while (text.length < min) text += ` ${pick(WORDS, random)}`;
  return text.slice(0, max);
}

function validNumber(schema: JsonSchema, integer: boolean, context: ValueContext): number {
  const { random, name } = context;
  const kind = context.idKind ?? ID_KIND_OF_FIELD[name];
  const taxonomy = TAXONOMY_OF_FIELD[name];
  if (taxonomy) return termOf(context, taxonomy).id;
  if (kind) return worldId(context, kind);
  if (name === 'id') return worldId(context, pick(['package', 'listing'] as const, random));
  const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + (integer ? 1 : 0.001) : 0);
  const high = Math.min(schema.maximum ?? schema.exclusiveMaximum ?? 1e6, low + 1e6);
  if (/lat/.test(name)) return Math.round((25 + random()) * 1e4) / 1e4;
  if (/lng|lon/.test(name)) return Math.round((-81 + random()) * 1e4) / 1e4;
  if (/year/.test(name)) return integerBetween(random, 1950, 2024);
  // Mostly small, sometimes anywhere in the range (log-uniform, so that every magnitude shows up).
  const value = chance(random, 0.6) ? low + random() * Math.min(high - low, 10) : low + Math.expm1(random() * Math.log1p(high - low));
  const rounded = integer ? Math.floor(value) : Math.round(value * 100) / 100;
  return Math.min(Math.max(rounded, low), high);
}

/** A value the schema accepts, as a well-meaning client would send it. */
export function validValue(schema: JsonSchema, context: ValueContext): unknown {
  const { random } = context;
  const depth = context.depth ?? 0;
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return pick(schema.enum, random);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && branches.length > 0) {
    const nonNull = branches.filter((b) => b.type !== 'null');
    return validValue(chance(random, 0.9) && nonNull.length > 0 ? pick(nonNull, random) : pick(branches, random), context);
  }
  if (schema.allOf && schema.allOf.length > 0) return validValue(Object.assign({}, ...schema.allOf) as JsonSchema, context);
  const types = Array.isArray(schema.type) ? schema.type.filter((t) => t !== 'null') : schema.type ? [schema.type] : [];
  const type = types.length > 0 ? pick(types, random) : schema.properties ? 'object' : 'string';
  switch (type) {
    case 'string':
      return validString(schema, context);
    case 'integer':
      return validNumber(schema, true, context);
    case 'number':
      return validNumber(schema, false, context);
    case 'boolean':
      return chance(random, 0.5);
    case 'null':
      return null;
    case 'array': {
      const count = integerBetween(random, schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3));
      const items = Array.from({ length: count }, () => validValue(schema.items ?? {}, { ...context, depth: depth + 1 }));
      return schema.uniqueItems
        ? [...new Set(items.map((item) => JSON.stringify(item)))].map((item) => JSON.parse(item) as unknown)
        : items;
    }
    case 'object': {
      if (depth > 6) return {};
      const out: Record<string, unknown> = {};
      const properties = Object.entries(schema.properties ?? {});
      const required = new Set(schema.required ?? []);
      for (const [key, property] of properties) {
        if (required.has(key) || chance(random, 0.35))
          out[key] = validValue(property, { ...context, name: key, idKind: undefined, depth: depth + 1 });
      }
      const minimum = Math.max(schema.minProperties ?? 0, 0);
      while (Object.keys(out).length < minimum && properties.length > 0) {
        const [key, property] = pick(properties, random);
        out[key] = validValue(property, { ...context, name: key, idKind: undefined, depth: depth + 1 });
      }
      if (properties.length === 0 && schema.additionalProperties !== false && typeof schema.additionalProperties === 'object') {
        out[pick(WORDS, random).replace(/\W/g, '')] = pick(WORDS, random);
      }
      return out;
    }
    default:
      return pick(WORDS, random);
  }
}

/** The main JSON type a schema asks for (the first non-null branch). */
export function mainType(schema: JsonSchema | undefined): string | undefined {
  if (!schema) return undefined;
  if (schema.enum) return typeof schema.enum[0];
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) return mainType(branches.find((b) => b.type !== 'null') ?? branches[0]);
  if (Array.isArray(schema.type)) return schema.type.find((t) => t !== 'null');
  return schema.type ?? (schema.properties ? 'object' : undefined);
}

/** Every taxonomy, for hostile path parameters of `/terms/{taxonomy}`. */
export const TAXONOMY_NAMES: readonly string[] = TAXONOMIES;
