/**
 * Example values of the OpenAPI document's request bodies and success answers, made from their schemas when the
 * document is built (issue 40 item 8): the reference page at /docs shows them, and Spectral's
 * `oas3-valid-media-example` rule checks each against its schema. Nothing here is written per route: a schema's own
 * `examples`, `example`, `default`, `const` or first `enum` value wins; otherwise the value follows the type and
 * the format (an e-mail address for `email`, an ISO 8601 instant for `date-time`, …), the first of a few common
 * shapes that matches a `pattern`, and the bounds of lengths, numbers and item counts.
 */

export interface ExampleSchema {
  $ref?: string;
  type?: string | string[];
  format?: string;
  pattern?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  anyOf?: ExampleSchema[];
  oneOf?: ExampleSchema[];
  allOf?: ExampleSchema[];
  properties?: Record<string, ExampleSchema>;
  additionalProperties?: boolean | ExampleSchema;
  minProperties?: number;
  items?: ExampleSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** Values of the common formats; fixed, so that the document is the same at each build. */
const FORMAT_EXAMPLES: Record<string, string> = {
  email: 'user@example.com',
  'date-time': '2026-01-15T09:30:00.000Z',
  date: '2026-01-15',
  time: '09:30:00Z',
  uri: 'https://example.com/',
  url: 'https://example.com/',
  uuid: '3f2b8c1e-7d4a-4e5b-9c6d-1a2b3c4d5e6f',
  ipv4: '192.0.2.1',
  ipv6: '2001:db8::1',
  hostname: 'example.com',
};

/** Shapes tried in order against a string's `pattern` when its format says nothing. */
const PATTERN_CANDIDATES = [
  'example',
  'en',
  'USD',
  'asc',
  'example-slug',
  'example_key',
  '#1e88e5',
  '1,2',
  'https://example.com/',
  '+1 555 0100',
  '2026-01-15',
  '2026-01',
  'whsec_c2VjcmV0LWtleQ==',
];

/** Reads a `#/components/schemas/Name` reference. */
export type SchemaResolver = (ref: string) => ExampleSchema | undefined;

export function exampleOf(schema: ExampleSchema | undefined, resolve: SchemaResolver, seen: readonly string[] = []): unknown {
  if (!schema) return {};
  if (schema.$ref !== undefined) {
    // A schema that contains itself stops at its second visit.
    if (seen.includes(schema.$ref)) return undefined;
    return exampleOf(resolve(schema.$ref), resolve, [...seen, schema.$ref]);
  }
  if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0];
  if (schema.example !== undefined) return schema.example;
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum.find((value) => value !== null) ?? schema.enum[0];
  const choices = schema.anyOf ?? schema.oneOf;
  if (choices !== undefined && choices.length > 0) {
    // The first choice that is not null: the example shows a value where one may be given.
    const chosen = choices.find((choice) => !isNullOnly(choice, resolve)) ?? choices[0];
    return exampleOf(chosen, resolve, seen);
  }
  if (schema.allOf !== undefined) {
    const parts = schema.allOf.map((part) => exampleOf(part, resolve, seen));
    return parts.every(isPlainObject) ? Object.assign({}, ...parts) : parts[0];
  }
  switch (typeOf(schema)) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
      return numberExample(schema, true);
    case 'number':
      return numberExample(schema, false);
    case 'string':
      return stringExample(schema);
    case 'array':
      return arrayExample(schema, resolve, seen);
    default:
      return objectExample(schema, resolve, seen);
  }
}

function isNullOnly(schema: ExampleSchema, resolve: SchemaResolver): boolean {
  const target = schema.$ref !== undefined ? resolve(schema.$ref) : schema;
  return target?.type === 'null' || (target?.enum !== undefined && target.enum.every((value) => value === null));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The schema's type, the first that is not null when it names several; an object when it names none. */
function typeOf(schema: ExampleSchema): string {
  if (Array.isArray(schema.type)) return schema.type.find((type) => type !== 'null') ?? 'null';
  if (schema.type !== undefined) return schema.type;
  if (schema.items !== undefined) return 'array';
  return 'object';
}

function numberExample(schema: ExampleSchema, integer: boolean): number {
  let value = 1;
  if (schema.minimum !== undefined) value = Math.max(value, schema.minimum);
  if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) value = schema.exclusiveMinimum + 1;
  if (schema.maximum !== undefined) value = Math.min(value, schema.maximum);
  if (schema.exclusiveMaximum !== undefined && value >= schema.exclusiveMaximum) value = schema.exclusiveMaximum - 1;
  return integer ? Math.ceil(value) : value;
}

function stringExample(schema: ExampleSchema): string {
  const format = schema.format !== undefined ? FORMAT_EXAMPLES[schema.format] : undefined;
  if (format !== undefined) return format;
  let value = 'example';
  if (schema.pattern !== undefined) {
    const pattern = new RegExp(schema.pattern, 'u');
    value = PATTERN_CANDIDATES.find((candidate) => pattern.test(candidate) && fitsLength(candidate, schema)) ?? value;
  }
  if (schema.minLength !== undefined && value.length < schema.minLength) value = value.padEnd(schema.minLength, 'x');
  if (schema.maxLength !== undefined && value.length > schema.maxLength) value = value.slice(0, schema.maxLength);
  return value;
}

function fitsLength(value: string, schema: ExampleSchema): boolean {
  return value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
}

function arrayExample(schema: ExampleSchema, resolve: SchemaResolver, seen: readonly string[]): unknown[] {
  const item = exampleOf(schema.items, resolve, seen);
  if (item === undefined) return [];
  const count = Math.min(Math.max(schema.minItems ?? 1, 1), schema.maxItems ?? Infinity);
  return Array.from({ length: count }, (_, i) => (i === 0 || !schema.uniqueItems ? item : distinct(item, i)));
}

/** The i-th of several items that must differ. */
function distinct(item: unknown, i: number): unknown {
  if (typeof item === 'number') return item + i;
  if (typeof item === 'string') return `${item}${i + 1}`;
  return item;
}

function objectExample(schema: ExampleSchema, resolve: SchemaResolver, seen: readonly string[]): Record<string, unknown> {
  const example: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = exampleOf(property, resolve, seen);
    if (value !== undefined) example[name] = value;
  }
  if (Object.keys(example).length < (schema.minProperties ?? 0) && typeof schema.additionalProperties === 'object') {
    example.key = exampleOf(schema.additionalProperties, resolve, seen) ?? 'value';
  }
  return example;
}

interface MediaType {
  schema?: ExampleSchema;
  example?: unknown;
  examples?: Record<string, { summary?: string; value?: unknown }>;
}

/**
 * The media type's named example (`examples.schema.value`). Named rather than the single `example`, which
 * openapi-typescript would copy into the client's types as comments of every answer.
 */
export const EXAMPLE_NAME = 'schema';

interface ExampleOperation {
  requestBody?: { content?: Record<string, MediaType> };
  responses?: Record<string, { content?: Record<string, MediaType> }>;
}

interface ExampleDocument {
  paths?: Record<string, Record<string, ExampleOperation>>;
  components?: { schemas?: Record<string, ExampleSchema> };
}

/**
 * Gives each operation's JSON request body and each of its 2xx JSON answers an example made from its schema,
 * unless the route wrote one. Returns the document.
 */
export function addOperationExamples<T extends object>(document: T): T {
  const { paths, components } = document as ExampleDocument;
  const schemas = components?.schemas ?? {};
  const resolve: SchemaResolver = (ref) => schemas[ref.replace(/^#\/components\/schemas\//, '')];
  const fill = (media: MediaType | undefined): void => {
    if (!media || media.example !== undefined || media.examples !== undefined) return;
    const value = exampleOf(media.schema, resolve);
    if (value !== undefined) media.examples = { [EXAMPLE_NAME]: { summary: 'Made from the schema', value } };
  };
  for (const operations of Object.values(paths ?? {})) {
    for (const operation of Object.values(operations)) {
      fill(operation.requestBody?.content?.['application/json']);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (/^2\d\d$/.test(status)) fill(response.content?.['application/json']);
      }
    }
  }
  return document;
}
