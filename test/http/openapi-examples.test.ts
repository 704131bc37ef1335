import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_NAME, type ExampleSchema, exampleOf } from '../../src/http/openapi-examples.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';

interface Media {
  schema?: ExampleSchema;
  examples?: Record<string, { value?: unknown }>;
}

const exampleIn = (media: Media | undefined): unknown => media?.examples?.[EXAMPLE_NAME]?.value;
interface Operation {
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { content?: Record<string, Media> }>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, ExampleSchema> };
}

/** Each JSON request body and 2xx JSON answer of the document, named `METHOD path (request|status)`. */
function jsonBodies(document: Document): { name: string; media: Media }[] {
  return Object.entries(document.paths).flatMap(([path, operations]) =>
    Object.entries(operations).flatMap(([method, operation]) => {
      const request = operation.requestBody?.content?.['application/json'];
      const answers = Object.entries(operation.responses)
        .filter(([status]) => /^2\d\d$/.test(status))
        .flatMap(([status, response]) => {
          const media = response.content?.['application/json'];
          return media ? [{ name: `${method.toUpperCase()} ${path} ${status}`, media }] : [];
        });
      return [...(request ? [{ name: `${method.toUpperCase()} ${path} request`, media: request }] : []), ...answers];
    }),
  );
}

// issue 40 item 8: the reference page carries an example request and answer of each operation, made from the schemas.
describe('the OpenAPI document’s examples', () => {
  let t: TestApp;
  let document: Document;

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    document = (await t.app.inject({ method: 'GET', url: '/realty-api/v1/openapi.json' })).json<Document>();
  });
  afterAll(async () => {
    await t.close();
  });

  it('gives every JSON request body and every 2xx JSON answer an example that its schema accepts', () => {
    const bodies = jsonBodies(document);
    expect(bodies.length).toBeGreaterThan(150);
    expect(bodies.filter(({ media }) => exampleIn(media) === undefined).map(({ name }) => name)).toEqual([]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    // Local references (#/components/schemas/…) resolve against a root that carries the components.
    const invalid = bodies.flatMap(({ name, media }) => {
      const validate = ajv.compile({ ...media.schema, components: document.components });
      return validate(exampleIn(media)) ? [] : [`${name}: ${ajv.errorsText(validate.errors)}`];
    });
    expect(invalid).toEqual([]);
  });

  it('makes an operation’s examples from its schemas: formats, enums, defaults and the envelope', () => {
    const register = document.paths['/realty-api/v1/auth/register']?.post;
    expect(exampleIn(register?.requestBody?.content?.['application/json'])).toMatchObject({
      email: 'user@example.com', // format email
      role: 'buyer', // the enum's first value
      session: 'body', // the default
    });
    const listing = exampleIn(document.paths['/realty-api/v1/properties/{id}']?.get?.responses['200']?.content?.['application/json']);
    expect(listing).toMatchObject({
      success: true,
      data: { id: 1, status: 'draft', created_at: '2026-01-15T09:30:00.000Z', featured_image: { url: 'https://example.com/' } },
    });
    const create = exampleIn(document.paths['/realty-api/v1/properties']?.post?.requestBody?.content?.['application/json']);
    expect(create).toMatchObject({ currency: 'USD', title: 'example' }); // a pattern's first fitting shape
  });
});

describe('exampleOf', () => {
  const none = (): undefined => undefined;

  it('prefers what the schema says: examples, then example, const, default and enum', () => {
    expect(exampleOf({ type: 'string', examples: ['a', 'b'], default: 'c' }, none)).toBe('a');
    expect(exampleOf({ type: 'string', example: 'x', default: 'c' }, none)).toBe('x');
    expect(exampleOf({ type: 'integer', default: 30, minimum: 1 }, none)).toBe(30);
    expect(exampleOf({ enum: [null, 'sale', 'rent'] }, none)).toBe('sale');
  });

  it('follows formats, patterns, bounds and nullable choices', () => {
    expect(exampleOf({ type: 'string', format: 'email' }, none)).toBe('user@example.com');
    expect(exampleOf({ type: 'string', format: 'date' }, none)).toBe('2026-01-15');
    expect(exampleOf({ type: 'string', pattern: '^#[0-9a-fA-F]{6}$' }, none)).toBe('#1e88e5');
    expect(exampleOf({ type: 'string', minLength: 10 }, none)).toHaveLength(10);
    expect(exampleOf({ type: 'integer', minimum: 1000, maximum: 2000 }, none)).toBe(1000);
    expect(exampleOf({ anyOf: [{ type: 'null' }, { type: 'number', maximum: 0.5 }] }, none)).toBe(0.5);
    expect(exampleOf({ type: ['null', 'boolean'] }, none)).toBe(true);
    expect(exampleOf({ type: 'array', items: { type: 'integer' }, minItems: 2, uniqueItems: true }, none)).toEqual([1, 2]);
  });

  it('resolves references and stops where a schema contains itself', () => {
    const schemas: Record<string, ExampleSchema> = {
      Node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/components/schemas/Node' } } },
    };
    const resolve = (ref: string): ExampleSchema | undefined => schemas[ref.split('/').pop()!];
    expect(exampleOf({ $ref: '#/components/schemas/Node' }, resolve)).toEqual({ name: 'example' });
  });
});
