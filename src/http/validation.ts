import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Two validators: query strings, path parameters and headers arrive as text, so their values are coerced
 * to the declared types (`number=5`); JSON bodies are typed already, so a string where a number belongs
 * is a 400, not silently converted. Neither removes unknown fields: they are refused (API.md 12).
 */
export function registerValidation(app: FastifyInstance): void {
  const base: Options = { removeAdditional: false, allErrors: true, useDefaults: true, strict: false };
  const textual = withFormats(new Ajv({ ...base, coerceTypes: 'array' }));
  const json = withFormats(new Ajv({ ...base, coerceTypes: false }));
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? json : textual).compile(schema));
}

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}
