/**
 * The operations of the application's own OpenAPI document (GET /docs/json), in the shape the fuzzer
 * generates requests from: every method and path, with the schemas of its path, query and header
 * parameters and of each request body type. `$ref`s to `#/components/schemas/…` are resolved.
 */

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  $ref?: string;
  description?: string;
};

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
}

export interface Operation {
  /** `GET /realty-api/v1/properties/{id}`: the name of the operation in test titles, reports and FUZZ_ONLY. */
  key: string;
  method: string;
  /** The path template, with `{name}` placeholders. */
  path: string;
  parameters: Parameter[];
  /** Request body schemas by media type (`application/json`, `multipart/form-data`, …); empty without a body. */
  bodies: Record<string, JsonSchema>;
  bodyRequired: boolean;
  /** Whether the document says the route needs a bearer token. */
  secured: boolean;
  /** The 200 answer is an endless `text/event-stream` (the notification stream). */
  streams: boolean;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, JsonSchema> };
}

interface OpenApiOperation {
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: JsonSchema }> };
  responses?: Record<string, { content?: Record<string, unknown> }>;
  security?: unknown[];
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

export function operationsOf(document: unknown): Operation[] {
  const doc = document as OpenApiDocument;
  const components = doc.components?.schemas ?? {};
  const resolve = (schema: JsonSchema | undefined, depth = 0): JsonSchema => resolveRefs(schema ?? {}, components, depth);
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const parameters = (operation.parameters ?? [])
        .filter((p): p is Parameter => p.in === 'path' || p.in === 'query' || p.in === 'header')
        .map((p) => ({ name: p.name, in: p.in, required: p.required ?? p.in === 'path', schema: resolve(p.schema) }));
      const bodies: Record<string, JsonSchema> = {};
      for (const [type, content] of Object.entries(operation.requestBody?.content ?? {})) bodies[type] = resolve(content.schema);
      operations.push({
        key: `${method.toUpperCase()} ${path}`,
        method: method.toUpperCase(),
        path,
        parameters,
        bodies,
        bodyRequired: operation.requestBody?.required ?? false,
        secured: (operation.security?.length ?? 0) > 0,
        streams: Object.keys(operation.responses?.['200']?.content ?? {}).includes('text/event-stream'),
      });
    }
  }
  return operations;
}

function resolveRefs(schema: JsonSchema, components: Record<string, JsonSchema>, depth: number): JsonSchema {
  if (depth > 20) return {};
  if (schema.$ref) {
    const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
    return resolveRefs(components[name] ?? {}, components, depth + 1);
  }
  const out: JsonSchema = { ...schema };
  const each = (list: JsonSchema[] | undefined) => list?.map((s) => resolveRefs(s, components, depth + 1));
  if (schema.anyOf) out.anyOf = each(schema.anyOf);
  if (schema.oneOf) out.oneOf = each(schema.oneOf);
  if (schema.allOf) out.allOf = each(schema.allOf);
  if (schema.items) out.items = resolveRefs(schema.items, components, depth + 1);
  if (schema.properties) {
    out.properties = Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, resolveRefs(v, components, depth + 1)]));
  }
  if (typeof schema.additionalProperties === 'object') {
    out.additionalProperties = resolveRefs(schema.additionalProperties, components, depth + 1);
  }
  return out;
}
