import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Two validators: query strings, path parameters and headers arrive as text, so their values are coerced
 * to the declared types (`number=5`); JSON bodies are typed already, so a string where a number belongs
 * is a 400, not silently converted. Neither removes unknown fields: they are refused (docs/api.md 12).
 */
const BASE: Options = { removeAdditional: false, allErrors: true, useDefaults: true, strict: false };

export function registerValidation(app: FastifyInstance): void {
  const textual = withFormats(new Ajv({ ...BASE, coerceTypes: 'array' }));
  const json = withFormats(new Ajv({ ...BASE, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => refusingNul((httpPart === 'body' ? json : textual).compile(schema)));
}

/**
 * A validator that also refuses U+0000 in any text of the value, naming the field (keyword `noNul`). PostgreSQL's
 * text cannot hold it (SQLite's can): without this a NUL that reached a query was a 500 on one database and an
 * answer on the other. Fastify reads `{ error }` as the validation errors.
 */
function refusingNul(validate: ValidateFunction): (value: unknown) => boolean | { error: ErrorObject[] } {
  return (value) => {
    if (!validate(value)) return { error: validate.errors ?? [] };
    const path = nulPath(value, '');
    return path === undefined ? true : { error: [nulError(path)] };
  };
}

/** The JSON pointer of the first string holding a NUL (in a key or a value), if any. */
function nulPath(value: unknown, pointer: string): string | undefined {
  if (typeof value === 'string') return value.includes('\0') ? pointer : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const at = `${pointer}/${key.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (key.includes('\0')) return at;
    const found = nulPath(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

function nulError(instancePath: string): ErrorObject {
  return { instancePath, keyword: 'noNul', schemaPath: '#/noNul', params: {}, message: 'must not contain a NUL character' };
}

/**
 * A validator with the JSON-body rules for JSON that arrives another way (a multipart form's `data` part).
 * It throws what Fastify's own body validation throws, so the error handler answers the same 400.
 */
export function jsonValidator<T>(schema: object): (value: unknown) => T {
  const validate = refusingNul(withFormats(new Ajv({ ...BASE, coerceTypes: false })).compile(schema));
  return (value) => {
    const result = validate(value);
    if (result === true) return value as T;
    throw Object.assign(new Error('body validation failed'), {
      validation: result === false ? [] : result.error,
      validationContext: 'body',
    });
  };
}

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}
