import { Ajv, type ErrorObject, type Options } from 'ajv';
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
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? json : textual).compile(schema));
}

/**
 * A validator with the JSON-body rules for JSON that arrives another way (a multipart form's `data` part).
 * It throws what Fastify's own body validation throws, so the error handler answers the same 400.
 */
export function jsonValidator<T>(schema: object): (value: unknown) => T {
  const validate = withFormats(new Ajv({ ...BASE, coerceTypes: false })).compile(schema);
  return (value) => {
    if (validate(value)) return value as T;
    throw Object.assign(new Error('body validation failed'), { validation: validate.errors as ErrorObject[], validationContext: 'body' });
  };
}

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}
