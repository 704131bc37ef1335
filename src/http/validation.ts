import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

/**
 * Two validators: query strings, path parameters and headers arrive as text, so their values are coerced
 * to the declared types (`number=5`); JSON bodies are typed already, so a string where a number belongs
 * is a 400, not silently converted. Neither removes unknown fields: they are refused (docs/api.md 12).
 */
const BASE: Options = { removeAdditional: false, allErrors: true, useDefaults: true, strict: false };

const validators = {
  text: withFormats(new Ajv({ ...BASE, coerceTypes: 'array' })),
  body: withFormats(new Ajv({ ...BASE, coerceTypes: false })),
};
type Validator = ReturnType<typeof refusingNul>;

/**
 * Compiled validators of this process, by kind and schema: routes share identical ones (path parameters, the
 * HEAD copies of GET routes), and so do the applications a process builds. Compiling was a fifth of the time
 * from start to ready.
 */
const compiled = new Map<string, Validator>();

function validatorFor(kind: keyof typeof validators, schema: object): Validator {
  const key = `${kind}:${JSON.stringify(schema)}`;
  let validator = compiled.get(key);
  if (!validator) compiled.set(key, (validator = refusingNul(validators[kind].compile(schema))));
  return validator;
}

/**
 * Each route's validators are compiled at the route's first request, not while Fastify boots: a process
 * answers a few of its hundreds of routes soon after it starts, and compiling them all was most of Fastify's
 * boot (chaos check 6). Every request is still validated by its schema; the first one waits for the compile.
 */
export function registerValidation(app: FastifyInstance): void {
  app.setValidatorCompiler(({ schema, httpPart }) => {
    const kind = httpPart === 'body' ? 'body' : 'text';
    let validate: Validator | undefined;
    return (value: unknown) => (validate ??= validatorFor(kind, schema))(value);
  });
}

/**
 * A validator that also refuses U+0000 in any text of the value, naming the field (keyword `noNul`). PostgreSQL's
 * text cannot hold it (SQLite's can): without this a NUL that reached a query was a 500 on one database and an
 * answer on the other. Fastify reads `{ error }` as the validation errors.
 */
function refusingNul(validate: ValidateFunction): (value: unknown) => boolean | { error: ErrorObject[] } {
  return (value) => {
    if (!validate(value)) return { error: validate.errors ?? [] };
    const path = nulPath(value);
    return path === undefined ? true : { error: [nulError(path)] };
  };
}

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | undefined;
}

/**
 * The JSON pointer of the first string holding a NUL (in a key or a value), if any, depth first. Iterative: a
 * body nested thousands of levels deep (where a schema allows any JSON) would overflow the stack of a recursion.
 */
function nulPath(value: unknown): string | undefined {
  const root: Visit = { value, key: '', parent: undefined };
  const flat = flatEntries(value);
  if (flat) {
    // Every query string and most bodies: their fields are tested in place, without a visit each (the same order).
    for (const [key, item] of flat)
      if (key.includes('\0') || (typeof item === 'string' && item.includes('\0'))) return pointerOf({ value: item, key, parent: root });
    return undefined;
  }
  const stack: Visit[] = [root];
  for (let visit = stack.pop(); visit !== undefined; visit = stack.pop()) {
    if (visit.key.includes('\0')) return pointerOf(visit);
    const item = visit.value;
    if (typeof item === 'string' && item.includes('\0')) return pointerOf(visit);
    // Raw bytes (the Stripe webhook's body) are not text: walking them as an object took half a second per MiB.
    if (typeof item !== 'object' || item === null || ArrayBuffer.isView(item)) continue;
    const entries = Object.entries(item);
    for (let i = entries.length - 1; i >= 0; i--) stack.push({ key: entries[i]![0], value: entries[i]![1], parent: visit });
  }
  return undefined;
}

/** The entries of an object none of whose values is an object (raw bytes are not text, and count as one); else undefined. */
function flatEntries(value: unknown): [string, unknown][] | undefined {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return undefined;
  const entries = Object.entries(value);
  for (const [, item] of entries) if (typeof item === 'object' && item !== null && !ArrayBuffer.isView(item)) return undefined;
  return entries;
}

function pointerOf(visit: Visit): string {
  let pointer = '';
  for (let at: Visit | undefined = visit; at?.parent !== undefined; at = at.parent) {
    pointer = `/${at.key.replace(/~/g, '~0').replace(/\//g, '~1')}${pointer}`;
  }
  return pointer;
}

function nulError(instancePath: string): ErrorObject {
  return { instancePath, keyword: 'noNul', schemaPath: '#/noNul', params: {}, message: 'must not contain a NUL character' };
}

/**
 * A validator with the JSON-body rules for JSON that arrives another way (a multipart form's `data` part).
 * It throws what Fastify's own body validation throws, so the error handler answers the same 400.
 */
export function jsonValidator<T>(schema: object): (value: unknown) => T {
  // Compiled at the first use, not when the module that declares it is loaded (start-up time).
  let validate: Validator | undefined;
  return (value) => {
    const result = (validate ??= validatorFor('body', schema))(value);
    if (result === true) return value as T;
    throw Object.assign(new Error('body validation failed'), {
      validation: result === false ? [] : result.error,
      validationContext: 'body',
    });
  };
}

/** The JSON-body rules of `schema` as a plain check: the Ajv errors of a value, none when it passes. */
export function bodyChecker(schema: object): (value: unknown) => ErrorObject[] {
  let validate: Validator | undefined;
  return (value) => {
    const result = (validate ??= validatorFor('body', schema))(value);
    return result === true ? [] : result === false ? [] : result.error;
  };
}

function withFormats(ajv: Ajv): Ajv {
  (addFormats as unknown as (ajv: Ajv) => Ajv)(ajv);
  return ajv;
}
