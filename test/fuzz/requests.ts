import type { Taxonomy } from '../../src/db/schema/index.js';
import { integerBetween, pick, type Random, shuffle } from '../../src/lib/random.js';
import { signWebhook } from '../helpers/fake-stripe.js';
import { fixBody, fixQuery } from './fixups.js';
import type { JsonSchema, Operation, Parameter } from './operations.js';
import {
  chance,
  DEPTHS,
  deepJson,
  mainType,
  NASTY_NUMBER_LITERALS,
  NASTY_NUMBER_TEXT,
  NASTY_NUMBERS,
  NASTY_TEXT,
  ODD_SEGMENTS,
  pathIdKind,
  TAXONOMY_NAMES,
  validValue,
  worldId,
  wrongTypeValues,
} from './values.js';
import type { World } from './world.js';

/** Files for multipart requests, made once per database (api-fuzz.test.ts). */
export interface Assets {
  png: Buffer;
  jpeg: Buffer;
  webp: Buffer;
}

/** A request as sent, less the caller's Authorization header; `classes` names how it was made. */
export interface FuzzRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string | Buffer;
  classes: string[];
}

/** A JSON value whose text may hold raw pieces JSON.stringify cannot make (deep nesting, huge literals). */
class JsonText {
  private readonly splices = new Map<string, string>();
  constructor(public value: unknown) {}

  raw(text: string): string {
    const marker = `__fuzz_raw_${this.splices.size}__`;
    this.splices.set(marker, text);
    return marker;
  }

  toString(): string {
    let text = JSON.stringify(this.value) ?? 'null';
    for (const [marker, raw] of this.splices) text = text.replace(`"${marker}"`, () => raw);
    return text;
  }
}

type Body =
  | { kind: 'json'; json: JsonText }
  | { kind: 'raw'; payload: string | Buffer; contentType: string | undefined }
  | { kind: 'multipart'; parts: Part[]; boundary: string; tail: string }
  | { kind: 'form'; text: string };

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: string | Buffer | JsonText;
  extraHeaders?: string;
}

interface Draft {
  op: Operation;
  random: Random;
  world: World;
  assets: Assets;
  prefix: string;
  pathParams: Record<string, string>;
  query: [string, string][];
  rawQuery: string[];
  headers: Record<string, string>;
  body: Body | undefined;
  /** Sign the final body for the Stripe webhook. */
  stripeSignature: 'valid' | 'none' | 'keep';
  classes: string[];
}

// Encoding

/** Percent-encodes UTF-8 bytes (lone surrogates become U+FFFD, as a client's encoder would send them). */
function encode(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** Header values as they arrive from the wire: bytes read as Latin-1, without the characters HTTP parsers refuse. */
function headerText(text: string): string {
  const refused = /[\u0000-\u0008\u000a-\u001f\u007f]/g; // eslint-disable-line no-control-regex
  return Buffer.from(text, 'utf8').toString('latin1').replace(refused, '');
}

function finalize(draft: Draft): FuzzRequest {
  const path = draft.op.path.replace(/\{([^}]+)\}/g, (_, name: string) => draft.pathParams[name] ?? '1');
  const query = [...draft.query.map(([k, v]) => `${encode(k)}=${encode(v)}`), ...draft.rawQuery].join('&');
  const url = `${draft.prefix}${path}${query ? `?${query}` : ''}`;
  const headers = { ...draft.headers };
  let payload: string | Buffer | undefined;
  const body = draft.body;
  if (body?.kind === 'json') {
    payload = body.json.toString();
    headers['content-type'] ??= 'application/json';
  } else if (body?.kind === 'raw') {
    payload = body.payload;
    if (body.contentType !== undefined) headers['content-type'] = body.contentType;
  } else if (body?.kind === 'form') {
    payload = body.text;
    headers['content-type'] ??= 'application/x-www-form-urlencoded';
  } else if (body?.kind === 'multipart') {
    const chunks: Buffer[] = [];
    for (const part of body.parts) {
      const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
      const head = `--${body.boundary}\r\nContent-Disposition: ${disposition}\r\n${part.contentType ? `Content-Type: ${part.contentType}\r\n` : ''}${part.extraHeaders ?? ''}\r\n`;
      chunks.push(Buffer.from(head, 'utf8'));
      chunks.push(Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data.toString(), 'utf8'));
      chunks.push(Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from(body.tail.replace('{boundary}', body.boundary)));
    payload = Buffer.concat(chunks);
    headers['content-type'] ??= `multipart/form-data; boundary=${body.boundary}`;
  }
  if (draft.op.path.endsWith('/webhooks/stripe') && draft.stripeSignature === 'valid') {
    headers['stripe-signature'] = signWebhook(payload === undefined ? '' : payload.toString());
  }
  return { method: draft.op.method, url, headers, ...(payload === undefined ? {} : { payload }), classes: draft.classes };
}

// The valid-looking request

const JSON_TYPE = 'application/json';
const MULTIPART = 'multipart/form-data';

function validDraft(op: Operation, world: World, assets: Assets, random: Random, propertiesBody: JsonSchema | undefined): Draft {
  const draft: Draft = {
    op,
    random,
    world,
    assets,
    prefix: '',
    pathParams: {},
    query: [],
    rawQuery: [],
    headers: {},
    body: undefined,
    stripeSignature: 'valid',
    classes: [],
  };
  const pathValues: Record<string, string> = {};
  const queryCount = op.parameters.filter((p) => p.in === 'query' && p.name !== 'lang').length;
  for (const parameter of op.parameters) {
    const context = { random, world, name: parameter.name };
    if (parameter.in === 'path') {
      const kind = pathIdKind(op.path, parameter.name);
      let value = parameter.schema.enum
        ? pick(parameter.schema.enum, random)
        : validValue(parameter.schema, { ...context, ...(kind ? { idKind: kind } : {}) });
      // A term of the taxonomy in the same path.
      const taxonomy = pathValues.taxonomy as Taxonomy | undefined;
      if (kind === 'term' && taxonomy && world.termsByTaxonomy[taxonomy] && chance(random, 0.85))
        value = pick(world.termsByTaxonomy[taxonomy], random).id;
      pathValues[parameter.name] = String(value);
      draft.pathParams[parameter.name] = encode(String(value));
    } else if (parameter.in === 'query') {
      // A few parameters at a time (a search takes sixty): each one more is one more way to be refused.
      if (parameter.name === 'lang' ? chance(random, 0.1) : parameter.required || chance(random, Math.min(0.3, 2.5 / queryCount))) {
        draft.query.push([parameter.name, queryText(validValue(parameter.schema, { ...context, inQuery: true }))]);
      }
    } else if (parameter.name !== 'stripe-signature' && chance(random, 0.5)) {
      draft.headers[parameter.name] = headerText(String(validValue(parameter.schema, context)));
    }
  }
  draft.query = fixQuery(draft.query, new Set(op.parameters.filter((p) => p.in === 'query').map((p) => p.name)), random);
  const json = op.bodies[JSON_TYPE];
  const multipart = op.bodies[MULTIPART];
  const fix = (value: unknown, schema: JsonSchema) => fixBody(value, schema, { random, world, method: op.method, pathParams: pathValues });
  if (op.path.endsWith('/webhooks/stripe')) {
    draft.body = { kind: 'json', json: new JsonText(stripeEvent(world, random)) };
  } else if (json) {
    if (op.bodyRequired || chance(random, 0.7))
      draft.body = { kind: 'json', json: new JsonText(fix(validValue(json, { random, world, name: '' }), json)) };
  } else if (multipart) {
    draft.body = {
      kind: 'multipart',
      parts: validParts(multipart, draft, propertiesBody),
      boundary: boundary(random),
      tail: '--{boundary}--\r\n',
    };
  } else if (op.bodies['application/x-www-form-urlencoded']) {
    draft.body = { kind: 'form', text: 'List-Unsubscribe=One-Click' };
  }
  return draft;
}

function queryText(value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => queryText(item)).join(',');
  if (typeof value === 'object' && value !== null) return JSON.stringify(value);
  return String(value);
}

function boundary(random: Random): string {
  return `----fuzz${integerBetween(random, 1e9, 9e9)}`;
}

/** The parts of a multipart body the schema names: files for binary fields, text for the others. */
function validParts(schema: JsonSchema, draft: Draft, propertiesBody: JsonSchema | undefined): Part[] {
  const { random, world } = draft;
  const parts: Part[] = [];
  const required = new Set(schema.required ?? []);
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    if (!required.has(name) && !chance(random, property.format === 'binary' || property.items?.format === 'binary' ? 0.9 : 0.3)) continue;
    if (property.format === 'binary') parts.push(imagePart(name, draft));
    else if (property.items?.format === 'binary') {
      for (let i = integerBetween(random, 1, 2); i > 0; i--) parts.push(imagePart(name, draft));
    } else if (name === 'data' && propertiesBody) {
      const data = fixBody(validValue(propertiesBody, { random, world, name: '' }), propertiesBody, {
        random,
        world,
        method: 'POST',
        pathParams: {},
      });
      parts.push({ name, data: new JsonText(data), ...(chance(random, 0.5) ? { contentType: JSON_TYPE } : {}) });
    } else parts.push({ name, data: String(validValue(property, { random, world, name })) });
  }
  return parts;
}

function imagePart(name: string, draft: Draft): Part {
  const format = pick(['png', 'jpeg', 'webp'] as const, draft.random);
  return { name, filename: `photo.${format}`, contentType: `image/${format}`, data: draft.assets[format] };
}

/** A Stripe event as Stripe would send it (trusted once signed: the hostile ones travel unsigned). */
function stripeEvent(world: World, random: Random): Record<string, unknown> {
  const invoiceId = pick([...world.ids.invoice, 999_999], random);
  const type = pick(
    [
      'checkout.session.completed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.expired',
      'invoice.paid',
      'customer.subscription.deleted',
      'payment_intent.created',
    ],
    random,
  );
  const object: Record<string, unknown> = type.startsWith('checkout.session')
    ? {
        id: `cs_test_${integerBetween(random, 1, 1e9)}`,
        object: 'checkout.session',
        payment_status: pick(['paid', 'unpaid'], random),
        client_reference_id: String(invoiceId),
        metadata: { invoice_id: String(invoiceId) },
        subscription: null,
        invoice: null,
      }
    : type === 'invoice.paid'
      ? {
          id: `in_${integerBetween(random, 1, 1e9)}`,
          object: 'invoice',
          billing_reason: pick(['subscription_create', 'subscription_cycle', 'manual'], random),
          amount_paid: 4950,
          currency: 'usd',
          status_transitions: { paid_at: Math.floor(Date.now() / 1000) },
          parent: {
            subscription_details: { subscription: `sub_${integerBetween(random, 1, 1e6)}`, metadata: { invoice_id: String(invoiceId) } },
          },
          subscription: `sub_${integerBetween(random, 1, 1e6)}`,
        }
      : { id: `sub_${integerBetween(random, 1, 1e6)}`, object: 'subscription', metadata: {} };
  return {
    id: `evt_${integerBetween(random, 1, 1e12)}`,
    object: 'event',
    type,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    api_version: '2025-01-27.acacia',
    data: { object },
  };
}

// Hostile classes

interface HostileClass {
  name: string;
  applies(op: Operation): boolean;
  /** Mutates the draft; returns a short description of what it did, for reports. */
  apply(draft: Draft): string;
}

const hasJsonBody = (op: Operation) => JSON_TYPE in op.bodies;
const hasMultipart = (op: Operation) => MULTIPART in op.bodies;
const hasPathParams = (op: Operation) => op.parameters.some((p) => p.in === 'path');
const queryParams = (op: Operation) => op.parameters.filter((p) => p.in === 'query');

/** The JSON text the class mutates: the JSON body, or the JSON `data` part of a multipart body. */
function jsonTarget(draft: Draft, schemaOf: (op: Operation) => JsonSchema | undefined): { json: JsonText; schema: JsonSchema } | undefined {
  const body = draft.body;
  if (body?.kind === 'json') return { json: body.json, schema: draft.op.bodies[JSON_TYPE] ?? {} };
  if (body?.kind === 'multipart') {
    const part = body.parts.find((p) => p.data instanceof JsonText);
    if (part && part.data instanceof JsonText) return { json: part.data, schema: schemaOf(draft.op) ?? {} };
  }
  if (hasJsonBody(draft.op)) {
    const json = new JsonText({});
    draft.body = { kind: 'json', json };
    return { json, schema: draft.op.bodies[JSON_TYPE] ?? {} };
  }
  return undefined;
}

/** A place in the JSON value to put something: an existing field, a field the schema knows, or the root. */
function pickSlot(json: JsonText, schema: JsonSchema, random: Random): { path: string[]; schema: JsonSchema | undefined } {
  const slots: { path: string[]; schema: JsonSchema | undefined }[] = [{ path: [], schema }];
  const walk = (value: unknown, s: JsonSchema | undefined, path: string[]) => {
    if (path.length > 4 || typeof value !== 'object' || value === null) return;
    for (const [key, item] of Object.entries(value)) {
      const itemSchema = Array.isArray(value) ? s?.items : s?.properties?.[key];
      slots.push({ path: [...path, key], schema: itemSchema });
      walk(item, itemSchema, [...path, key]);
    }
  };
  walk(json.value, schema, []);
  for (const [key, property] of Object.entries(schema.properties ?? {})) slots.push({ path: [key], schema: property });
  const chosen = pick(slots, random);
  // The root only now and then: a field deep inside reaches further into the code.
  return chosen.path.length === 0 && slots.length > 1 && chance(random, 0.7) ? pick(slots.slice(1), random) : chosen;
}

function setAt(json: JsonText, path: string[], value: unknown): void {
  if (path.length === 0) {
    json.value = value;
    return;
  }
  if (typeof json.value !== 'object' || json.value === null) json.value = {};
  let node = json.value as Record<string, unknown>;
  for (const key of path.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

function setQuery(draft: Draft, name: string, value: string): void {
  draft.query = draft.query.filter(([key]) => key !== name);
  draft.query.push([name, value]);
}

function pickQueryParam(draft: Draft): Parameter | { name: string; schema: JsonSchema } {
  const params = queryParams(draft.op);
  return params.length > 0 ? pick(params, draft.random) : { name: 'lang', schema: { type: 'string' } };
}

function nastyText(random: Random): string {
  return chance(random, 0.15) ? `${pick(NASTY_TEXT, random)}${pick(NASTY_TEXT, random)}` : pick(NASTY_TEXT, random);
}

const CLASSES: HostileClass[] = [
  {
    // Inputs that made this API fail before, first in every operation's order, so that even the sample of
    // `npm test` tries one on every operation: a NUL or an undecodable path segment, NUL text (PostgreSQL's
    // text cannot hold it), JSON nested deeper than a recursion can follow.
    name: 'known-findings',
    applies: () => true,
    apply(draft) {
      const { random } = draft;
      const pathParams = draft.op.parameters.filter((p) => p.in === 'path');
      if (pathParams.length > 0 && chance(random, 0.5)) {
        const param = pick(pathParams, random);
        const segment = pick(['%00', '1%00', '%C0%AF', '%E2%80', '1'.repeat(101)], random);
        draft.pathParams[param.name] = segment;
        return `${param.name}=${segment.slice(0, 20)}`;
      }
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (target && chance(random, 0.7)) {
        const slot = pickSlot(target.json, target.schema, random);
        if (chance(random, 0.3)) {
          setAt(target.json, slot.path, target.json.raw(deepJson(20_000, 'mixed')));
          return `${slot.path.join('.') || '(root)'} nested 20000`;
        }
        setAt(target.json, slot.path, mainType(slot.schema) === 'array' ? ['a\u0000b'] : 'a\u0000b');
        return `${slot.path.join('.') || '(root)'}="a\\u0000b"`;
      }
      const params = queryParams(draft.op);
      const param = params.length > 0 ? pick(params, random) : { name: 'lang' };
      setQuery(draft, param.name, 'a\u0000b');
      return `${param.name}=a%00b`;
    },
  },
  {
    name: 'path-odd',
    applies: hasPathParams,
    apply(draft) {
      const param = pick(
        draft.op.parameters.filter((p) => p.in === 'path'),
        draft.random,
      );
      const odd =
        param.schema.enum && chance(draft.random, 0.3)
          ? pick(['property_typo', 'PROPERTY_TYPE', ...TAXONOMY_NAMES], draft.random)
          : pick(ODD_SEGMENTS, draft.random);
      draft.pathParams[param.name] = odd;
      return `${param.name}=${odd.slice(0, 40)}`;
    },
  },
  {
    name: 'query-wrong-type',
    applies: () => true,
    apply(draft) {
      const param = pickQueryParam(draft);
      const type = mainType(param.schema);
      const value =
        type === 'string'
          ? pick(['1', '0', 'true', '[]', '{}', '1,2,3', ',,,', ' , '], draft.random)
          : pick(['abc', 'true', 'false', '[]', '{}', '1,2', 'null', 'yes', 'on', '[object Object]', ''], draft.random);
      setQuery(draft, param.name, value);
      return `${param.name}=${value}`;
    },
  },
  {
    name: 'query-number',
    applies: () => true,
    apply(draft) {
      const params = queryParams(draft.op).filter((p) => ['integer', 'number', 'boolean'].includes(mainType(p.schema) ?? ''));
      const param = params.length > 0 ? pick(params, draft.random) : pickQueryParam(draft);
      const value = pick(NASTY_NUMBER_TEXT, draft.random);
      setQuery(draft, param.name, value);
      return `${param.name}=${value}`;
    },
  },
  {
    name: 'query-text',
    applies: () => true,
    apply(draft) {
      const params = queryParams(draft.op).filter((p) => mainType(p.schema) === 'string');
      const param = params.length > 0 ? pick(params, draft.random) : pickQueryParam(draft);
      const value = nastyText(draft.random);
      setQuery(draft, param.name, value);
      return `${param.name}=${JSON.stringify(value.slice(0, 40))}(${value.length})`;
    },
  },
  {
    name: 'query-shape',
    applies: () => true,
    apply(draft) {
      const { random } = draft;
      const param = pickQueryParam(draft).name;
      const variant = integerBetween(random, 0, 9);
      switch (variant) {
        case 0:
          for (let i = 0; i < 1_000; i++) draft.query.push([param, String(i)]);
          return `${param} repeated 1000×`;
        case 1:
          draft.rawQuery.push(Array.from({ length: 10_000 }, (_, i) => `${encode(param)}[]=${i}`).join('&'));
          return `${param}[] × 10000`;
        case 2:
          draft.rawQuery.push(`${encode(param)}${'[a]'.repeat(500)}=1`);
          return `${param}[a][a]… 500 deep`;
        case 3:
          draft.query.push([
            pick(['__proto__', 'constructor', 'prototype', '__proto__[x]', 'constructor[prototype][x]', 'hasOwnProperty'], random),
            '1',
          ]);
          return 'prototype keys';
        case 4:
          draft.query.push([`unknown_${integerBetween(random, 1, 99)}`, 'x']);
          return 'unknown parameter';
        case 5:
          draft.rawQuery.push(
            pick(
              [
                '&&&',
                '=',
                '=x',
                '&=&',
                '%',
                '%ZZ=1',
                `${encode(param)}=%E0%A4%A`,
                `${encode(param)}=%ED%A0%80`,
                `${encode(param)}=%FF%FE`,
                '%00=1',
                `${encode(param)}`,
              ],
              random,
            ),
          );
          return 'malformed query';
        case 6:
          draft.query.push(['k'.repeat(20_000), 'v']);
          return 'very long key';
        case 7:
          setQuery(draft, param, Array.from({ length: 5_000 }, (_, i) => String(i)).join(','));
          return `${param}=0,1,…,4999`;
        case 8:
          draft.query.push([param, '']);
          draft.query.push([param, 'x']);
          return `${param} twice`;
        default:
          setQuery(draft, 'lang', pick(['zz', 'ar', 'AR', 'en-', 'xx-YYYYY', '', '😀'], random));
          return 'lang';
      }
    },
  },
  {
    name: 'body-wrong-type',
    applies: (op) => hasJsonBody(op) || hasMultipart(op),
    apply(draft) {
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (!target) return 'no JSON';
      const slot = pickSlot(target.json, target.schema, draft.random);
      const value = pick(wrongTypeValues(mainType(slot.schema)), draft.random);
      setAt(target.json, slot.path, value);
      return `${slot.path.join('.') || '(root)'}=${JSON.stringify(value)}`;
    },
  },
  {
    name: 'body-number',
    applies: (op) => hasJsonBody(op) || hasMultipart(op),
    apply(draft) {
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (!target) return 'no JSON';
      const slot = pickSlot(target.json, target.schema, draft.random);
      if (chance(draft.random, 0.35)) {
        const literal = pick(NASTY_NUMBER_LITERALS, draft.random);
        setAt(target.json, slot.path, target.json.raw(literal));
        return `${slot.path.join('.')}=${literal}`;
      }
      const value = pick(NASTY_NUMBERS, draft.random);
      setAt(target.json, slot.path, slot.schema && mainType(slot.schema) === 'array' ? [value] : value);
      return `${slot.path.join('.')}=${value}`;
    },
  },
  {
    name: 'body-text',
    applies: (op) => hasJsonBody(op) || hasMultipart(op),
    apply(draft) {
      const body = draft.body;
      if (body?.kind === 'multipart' && chance(draft.random, 0.5)) {
        const value = nastyText(draft.random);
        const part = body.parts.find((p) => p.filename === undefined && !(p.data instanceof JsonText));
        if (part) part.data = value;
        else body.parts.push({ name: pick(['title', 'caption', 'alt', 'description'], draft.random), data: value });
        return `text part=${JSON.stringify(value.slice(0, 40))}`;
      }
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (!target) return 'no JSON';
      const slot = pickSlot(target.json, target.schema, draft.random);
      const value = nastyText(draft.random);
      setAt(target.json, slot.path, mainType(slot.schema) === 'array' ? [value] : value);
      return `${slot.path.join('.')}=${JSON.stringify(value.slice(0, 40))}(${value.length})`;
    },
  },
  {
    name: 'boundary',
    applies: () => true,
    apply(draft) {
      const { random } = draft;
      const target = chance(random, 0.5) ? jsonTarget(draft, (op) => op.bodies[JSON_TYPE]) : undefined;
      if (target) {
        const slot = pickSlot(target.json, target.schema, random);
        const value = boundaryValue(slot.schema ?? {}, slot.path.at(-1) ?? '', draft);
        setAt(target.json, slot.path, value);
        return `${slot.path.join('.') || '(root)'} at its limit (${describeValue(value)})`;
      }
      const param = pickQueryParam(draft);
      const value = boundaryValue(param.schema, param.name, draft);
      setQuery(draft, param.name, queryText(value));
      return `${param.name} at its limit (${describeValue(value)})`;
    },
  },
  {
    name: 'format-edge',
    applies: (op) => JSON.stringify(op.parameters).includes('"format"') || JSON.stringify(op.bodies).includes('"format":"'),
    apply(draft) {
      const { random } = draft;
      const params = draft.op.parameters.filter((p) => p.in === 'query' && formatOf(p.schema));
      if (params.length > 0 && (!hasJsonBody(draft.op) || chance(random, 0.5))) {
        const param = pick(params, random);
        const value = pick(FORMAT_EDGES[formatOf(param.schema)!] ?? [''], random);
        setQuery(draft, param.name, value);
        return `${param.name}=${value.slice(0, 60)}`;
      }
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (!target) return 'no JSON';
      const slots = Object.entries(target.schema.properties ?? {}).filter(
        ([, property]) => formatOf(property) && FORMAT_EDGES[formatOf(property)!],
      );
      if (slots.length === 0) return 'no formatted field';
      const [name, property] = pick(slots, random);
      const value = pick(FORMAT_EDGES[formatOf(property)!]!, random);
      setAt(target.json, [name], value);
      return `${name}=${value.slice(0, 60)}`;
    },
  },
  {
    name: 'body-deep',
    applies: () => true,
    apply(draft) {
      const depth = pick(DEPTHS, draft.random);
      const shape = pick(['object', 'array', 'mixed'] as const, draft.random);
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (!target) {
        draft.body = { kind: 'raw', payload: deepJson(depth, shape), contentType: JSON_TYPE };
        return `body nested ${depth} (${shape}) on a route without one`;
      }
      const slot = pickSlot(target.json, target.schema, draft.random);
      setAt(target.json, slot.path, target.json.raw(deepJson(depth, shape)));
      return `${slot.path.join('.') || '(root)'} nested ${depth} (${shape})`;
    },
  },
  {
    name: 'body-large-array',
    applies: (op) => hasJsonBody(op) || hasMultipart(op),
    apply(draft) {
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (!target) return 'no JSON';
      const slot = pickSlot(target.json, target.schema, draft.random);
      const size = pick([51, 1_000, 10_000, 100_000], draft.random);
      const item = pick<unknown>(
        [1, 'x', null, {}, worldId({ random: draft.random, world: draft.world, name: '' }, 'listing')],
        draft.random,
      );
      setAt(target.json, slot.path, target.json.raw(`[${Array.from({ length: size }, () => JSON.stringify(item)).join(',')}]`));
      return `${slot.path.join('.') || '(root)'}=[${JSON.stringify(item)} × ${size}]`;
    },
  },
  {
    name: 'body-unknown-fields',
    applies: (op) => hasJsonBody(op) || hasMultipart(op),
    apply(draft) {
      const body = draft.body;
      if (body?.kind === 'multipart' && chance(draft.random, 0.5)) {
        body.parts.push({ name: pick(['unknown', '__proto__', 'file[]', '', 'data', 'a'.repeat(1000)], draft.random), data: 'x' });
        return 'unknown part';
      }
      const target = jsonTarget(draft, (op) => op.bodies[JSON_TYPE]);
      if (!target) return 'no JSON';
      const { random } = draft;
      const variant = integerBetween(random, 0, 5);
      const root = typeof target.json.value === 'object' && target.json.value !== null ? target.json.value : {};
      if (variant === 0) {
        target.json.value = { ...root, [`unknown_${integerBetween(random, 1, 99)}`]: 1 };
        return 'unknown field';
      }
      if (variant === 1) {
        const text = target.json.toString();
        target.json.value = target.json.raw(`{"__proto__":{"polluted":true},${text.slice(1)}`);
        return '__proto__ key';
      }
      if (variant === 2) {
        target.json.value = { ...root, constructor: { prototype: { polluted: true } } };
        return 'constructor.prototype';
      }
      if (variant === 3) {
        const text = target.json.toString();
        const first = Object.keys(root)[0] ?? 'a';
        target.json.value = target.json.raw(text.length > 2 ? `{"${first}":null,${text.slice(1)}` : `{"${first}":1,"${first}":2}`);
        return 'duplicate key';
      }
      if (variant === 4) {
        target.json.value = { ...root, 'a\u0000b': 1, '': 2, ['\u202E']: 3 };
        return 'odd keys';
      }
      target.json.value = { ...root, ...Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i])) };
      return '5000 unknown fields';
    },
  },
  {
    name: 'body-raw',
    applies: () => true,
    apply(draft) {
      const payload = pick<string | Buffer>(
        [
          '',
          '{',
          '}',
          'null',
          '[]',
          '"text"',
          '123',
          'true',
          '{"a":}',
          '{"a":1}garbage',
          "{'a':1}",
          '{"a":NaN}',
          '{"a":Infinity}',
          '\uFEFF{}',
          '{"a":"\\ud800"}',
          '{"a":"\\u0000"}',
          Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
          Buffer.from('{"title":"x"}', 'utf16le'),
          `{"title":"${'a'.repeat(1_100_000)}"}`,
          ' '.repeat(2_000),
        ],
        draft.random,
      );
      draft.body = { kind: 'raw', payload, contentType: JSON_TYPE };
      return `raw ${JSON.stringify(payload.toString().slice(0, 30))}(${payload.length})`;
    },
  },
  {
    name: 'content-type',
    applies: () => true,
    apply(draft) {
      const type = pick(
        [
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
          'multipart/form-data; boundary=',
          'application/json; charset=latin1',
          'application/json; charset=utf-16',
          'application/json;;;',
          'application/vnd.api+json',
          'application/JSON',
          '*/*',
          'application/json, text/plain',
          'image/png',
          'ab\u00e9c',
          'x'.repeat(2000),
        ],
        draft.random,
      );
      const current = draft.body;
      const payload =
        current?.kind === 'json'
          ? current.json.toString()
          : current?.kind === 'raw'
            ? current.payload
            : pick(['{}', 'a=1', 'x'], draft.random);
      draft.body = { kind: 'raw', payload, contentType: headerText(type) };
      return `content-type ${type.slice(0, 40)}`;
    },
  },
  {
    name: 'headers',
    applies: () => true,
    apply(draft) {
      const { random } = draft;
      const name = pick(
        [
          'x-request-id',
          'accept-language',
          'if-none-match',
          'last-event-id',
          'accept',
          'stripe-signature',
          'content-length',
          'x-forwarded-for',
          'origin',
          'accept-encoding',
        ],
        random,
      );
      const values: Record<string, string[]> = {
        'x-request-id': ['', 'a'.repeat(65), 'a'.repeat(10_000), 'id with spaces', '😀', '../../x', 'ok-id_1.2'],
        'accept-language': ['', '*', 'zz', 'ar;q=x,fr;q=0.1', 'en-US,en;q=0.9,'.repeat(500), ';;;', 'q=1'],
        'if-none-match': ['*', 'W/"x"', '"', 'W/', 'x'.repeat(10_000), '"a", "b", W/"c"'],
        'last-event-id': ['-1', 'abc', '1e3', '99999999999999999999', '', ' 5'],
        accept: ['text/html', '*/*;q=0', 'application/xml', ''],
        'stripe-signature': [
          '',
          't=1,v1=abc',
          't=abc',
          'v1=' + 'a'.repeat(64),
          `t=${Math.floor(Date.now() / 1000) - 10_000},v1=00`,
          'x'.repeat(10_000),
        ],
        'content-length': ['0', '1', '999999999', '-1', 'abc'],
        'x-forwarded-for': ['1.2.3.4', 'not an address', '::1, 10.0.0.1'],
        origin: ['https://evil.test', 'null', ''],
        'accept-encoding': ['gzip', 'br', 'deflate', 'gzip;q=0, identity;q=0', 'x-unknown'],
      };
      const value = pick(values[name]!, random);
      draft.headers[name] = headerText(value);
      if (name === 'stripe-signature') draft.stripeSignature = 'keep';
      return `${name}: ${value.slice(0, 40)}`;
    },
  },
  {
    name: 'language',
    // The prefix is the API's (docs/api.md 0.5): under any other path (`/en/health`) the website answers, with its page.
    applies: (op) => op.path.startsWith('/realty-api/'),
    apply(draft) {
      draft.prefix = pick(['/ar', '/fr', '/es', '/zz', '/en'], draft.random);
      if (chance(draft.random, 0.5)) setQuery(draft, 'lang', pick(['ar', 'es', 'de', 'zz'], draft.random));
      return `prefix ${draft.prefix}`;
    },
  },
  {
    name: 'auth-garbage',
    applies: () => true,
    apply(draft) {
      const value = pick(
        [
          'Bearer ',
          'Bearer x',
          'Bearer a.b.c',
          'Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.',
          `Bearer ${'a'.repeat(10_000)}`,
          'Basic YWRtaW46YWRtaW4=',
          'bearer',
          'Bearer\ttoken',
          'Token abc',
        ],
        draft.random,
      );
      draft.headers.authorization = value;
      return `authorization (anonymous only): ${value.slice(0, 30)}`;
    },
  },
  {
    name: 'multipart-file',
    applies: hasMultipart,
    apply(draft) {
      const { random, assets } = draft;
      const body =
        draft.body?.kind === 'multipart'
          ? draft.body
          : { kind: 'multipart' as const, parts: [], boundary: boundary(random), tail: '--{boundary}--\r\n' };
      draft.body = body;
      const fileName =
        Object.entries(draft.op.bodies[MULTIPART]?.properties ?? {}).find(
          ([, p]) => p.format === 'binary' || p.items?.format === 'binary',
        )?.[0] ?? 'file';
      const contents: [string, Buffer][] = [
        ['empty', Buffer.alloc(0)],
        ['truncated png', assets.png.subarray(0, 40)],
        ['png header only', assets.png.subarray(0, 8)],
        ['svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(1)</script></svg>')],
        ['html', Buffer.from('<!doctype html><script>alert(1)</script>')],
        ['gif', Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')],
        ['pdf', Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')],
        ['pdf with js', Buffer.from('%PDF-1.4\n1 0 obj<</S/JavaScript/JS(app.alert(1))>>endobj\n%%EOF')],
        ['random bytes', Buffer.from(Array.from({ length: 512 }, () => integerBetween(random, 0, 255)))],
        ['png + html polyglot', Buffer.concat([assets.png, Buffer.from('<html><script>alert(1)</script>')])],
        ['huge png dimensions', hugePngHeader(assets.png)],
        ['over the size limit', Buffer.concat([assets.jpeg, Buffer.alloc(1_100_000)])],
        ['zip', Buffer.from('504b0304140000000800', 'hex')],
        ['jpeg', assets.jpeg],
      ];
      const [label, data] = pick(contents, random);
      const filename = pick(
        ['a.png', '../../etc/passwd', 'a\u0000.png', '\u202Egnp.exe', 'x'.repeat(5_000), '', 'ｆｉｌｅ.jpg', 'a"b.png', 'con.png'],
        random,
      );
      const type = pick(['image/png', 'image/jpeg', 'application/octet-stream', 'text/html', 'image/svg+xml', ''], random);
      const part: Part = { name: fileName, filename: headerText(filename), data, ...(type ? { contentType: type } : {}) };
      const mode = integerBetween(random, 0, 4);
      if (mode === 0) body.parts.push(part);
      else if (mode === 1) body.parts.push(part, { ...part });
      else if (mode === 2) for (let i = 0; i < 25; i++) body.parts.push({ ...part, data: assets.png });
      else {
        const index = body.parts.findIndex((p) => p.filename !== undefined);
        if (index >= 0) body.parts[index] = part;
        else body.parts.push(part);
      }
      return `${fileName}: ${label}, filename ${JSON.stringify(filename.slice(0, 20))}, mode ${mode}`;
    },
  },
  {
    name: 'multipart-malformed',
    applies: hasMultipart,
    apply(draft) {
      const { random } = draft;
      const body =
        draft.body?.kind === 'multipart'
          ? draft.body
          : { kind: 'multipart' as const, parts: [], boundary: boundary(random), tail: '--{boundary}--\r\n' };
      draft.body = body;
      const variant = integerBetween(random, 0, 8);
      switch (variant) {
        case 0:
          body.tail = '';
          return 'no closing boundary';
        case 1:
          body.tail = '--other--\r\n';
          return 'wrong closing boundary';
        case 2:
          draft.headers['content-type'] = 'multipart/form-data';
          return 'no boundary parameter';
        case 3:
          draft.headers['content-type'] = `multipart/form-data; boundary=${'b'.repeat(200)}`;
          return 'boundary mismatch';
        case 4:
          body.parts.unshift({ name: 'x"; filename="y', data: 'z', extraHeaders: 'Content-Transfer-Encoding: base64\r\n' });
          return 'odd part headers';
        case 5:
          for (let i = 0; i < 2_000; i++) body.parts.push({ name: `f${i}`, data: 'v' });
          return '2000 text parts';
        case 6:
          body.parts.push({ name: 'title', data: 'x'.repeat(300_000) });
          return 'huge text part';
        case 7:
          draft.body = {
            kind: 'raw',
            payload: `--${body.boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${body.boundary}--`,
            contentType: `multipart/form-data; boundary=${body.boundary}`,
          };
          return 'part without a name';
        default:
          body.parts = [];
          return 'no parts';
      }
    },
  },
];

/** Values a format accepts, or nearly: the corners of dates, addresses and URLs. */
const FORMAT_EDGES: Record<string, string[]> = {
  'date-time': [
    '2016-12-31T23:59:60Z',
    '9999-12-31T23:59:59Z',
    '0000-01-01T00:00:00Z',
    '1969-12-31T23:59:59.999Z',
    '2024-02-29T12:00:00+14:00',
    '2024-01-01T00:00:00.123456789-12:00',
    '2024-01-01t00:00:00z',
    '2023-02-29T00:00:00Z',
    '2024-13-01T00:00:00Z',
    '2024-01-01T24:00:00Z',
    '2024-01-01 00:00:00Z',
    '2024-01-01',
    '+275760-09-13T00:00:00Z',
  ],
  date: [
    '0000-01-01',
    '9999-12-31',
    '2024-02-29',
    '2023-02-29',
    '1900-01-01',
    '2024-1-1',
    '-001-01-01',
    '2024-01-01T00:00:00Z',
    '20240101',
  ],
  email: [
    'a@b',
    '"quoted local"@example.test',
    'x@[127.0.0.1]',
    `${'l'.repeat(64)}@example.test`,
    `a@${'d'.repeat(63)}.${'e'.repeat(63)}.test`,
    'ü@example.test',
    'a+tag@EXAMPLE.TEST',
    'A@B.C',
    'a@b..c',
    '.a@b.c',
    'a@-b.c',
  ],
  uri: [
    'http://[::1]/',
    'https://example.test:99999/',
    'http://a/%zz',
    'https://user:pass@example.test/',
    'HTTPS://EXAMPLE.TEST/',
    'https://xn--e1afmkfd.xn--p1ai/',
    'https://exa mple.test/',
    'https://example.test/\u202E',
    `https://example.test/${'p'.repeat(1_980)}`,
    'https://',
    'https:///path',
    'http://256.256.256.256/',
  ],
};

function formatOf(schema: JsonSchema): string | undefined {
  return schema.format ?? (schema.anyOf ?? schema.oneOf)?.find((b) => b.format)?.format;
}

const describeValue = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 40)}… ${text.length} characters` : text;
};

/** A value at the edge of what the schema accepts: the longest string, the largest number, the fullest list. */
function boundaryValue(schema: JsonSchema, name: string, draft: Draft): unknown {
  const { random, world } = draft;
  const type = mainType(schema);
  const branch = (schema.anyOf ?? schema.oneOf)?.find((b) => b.type !== 'null') ?? schema;
  if (type === 'string') {
    const length = branch.maxLength ?? pick([200, 1_000, 10_000], random);
    if (name === 'polygon') return Array.from({ length: 100 }, (_, i) => `${25 + Math.sin(i / 16)} ${-80 + Math.cos(i / 16)}`).join(',');
    if (name === 'ids') return Array.from({ length: 100 }, (_, i) => String(i + 1)).join(',');
    if (['type', 'status', 'label', 'feature', 'country', 'state', 'city', 'area', 'facets'].includes(name)) {
      return Array.from({ length: 50 }, (_, i) =>
        i === 0 ? pick(Object.values(world.termsByTaxonomy).flat(), random).slug : `slug-${i}`,
      ).join(',');
    }
    const unit = pick(['x', 'é', '😀', 'a ', 'word ', 'ab,', 'א', 'é'], random);
    return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
  }
  if (type === 'integer' || type === 'number') {
    const candidates = [branch.maximum, branch.minimum, branch.exclusiveMaximum, branch.exclusiveMinimum].filter(
      (n): n is number => n !== undefined,
    );
    const edge = candidates.length > 0 ? pick(candidates, random) : pick([2147483647, 9007199254740991, 0], random);
    const nudge = type === 'number' && chance(random, 0.3) ? pick([-0.001, 0.001], random) : 0;
    return edge + nudge;
  }
  if (type === 'array') {
    const count = branch.maxItems ?? 50;
    return Array.from({ length: count }, (_, i) => (mainType(branch.items) === 'string' ? `item ${i}` : i + 1));
  }
  if (type === 'object') {
    const count = branch.maxProperties ?? 50;
    return Object.fromEntries(Array.from({ length: count }, (_, i) => [`key${i}`, 'v'.repeat(i)]));
  }
  return pick(NASTY_NUMBERS, random);
}

/** A PNG whose header claims 100000 × 100000 pixels (the CRC is left wrong on purpose). */
function hugePngHeader(png: Buffer): Buffer {
  const copy = Buffer.from(png);
  copy.writeUInt32BE(100_000, 16);
  copy.writeUInt32BE(100_000, 20);
  return copy;
}

/** The hostile classes that apply to `op`, in an order of the operation's own (the sample runs the first few). */
export function classOrder(op: Operation, random: Random): string[] {
  const [known, ...others] = CLASSES.filter((c) => c.applies(op)).map((c) => c.name);
  return [known!, ...shuffle(others, random)];
}

/**
 * Request number `index` of an operation: every eighth one (index 0 included) as a well-meaning client would
 * send it, the others with one hostile class (the next in `order`), and sometimes a second one.
 */
export function generateRequest(
  op: Operation,
  world: World,
  assets: Assets,
  random: Random,
  index: number,
  order: string[],
  propertiesBody: JsonSchema | undefined,
): FuzzRequest {
  const draft = validDraft(op, world, assets, random, propertiesBody);
  if (index % 8 === 0) {
    draft.classes.push('valid');
    return finalize(draft);
  }
  const primary = order[(index - 1 - Math.floor(index / 8)) % order.length]!;
  const chosen = [primary];
  if (chance(random, 0.25)) chosen.push(pick(order, random));
  for (const name of chosen) {
    const hostile = CLASSES.find((c) => c.name === name)!;
    draft.classes.push(`${name}: ${hostile.apply(draft)}`);
  }
  // Only Stripe can sign a webhook body: hostile ones travel unsigned, except bodies that are not JSON at all,
  // which the receiver says it refuses even when signed.
  if (draft.stripeSignature === 'valid' && !chosen.includes('body-raw')) draft.stripeSignature = 'none';
  return finalize(draft);
}
