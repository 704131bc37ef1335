import { createHash } from 'node:crypto';
import {
  type Serializer,
  type SerializerCompiler,
  type SerializerFactory,
  SerializerSelector,
} from '@fastify/fast-json-stringify-compiler';

/** Compiled serializers of this process: by the shared schemas and options they were built with, then by schema. */
const compiled = new Map<string, Map<string, Serializer>>();

/**
 * Fastify's response-serializer factory (`schemaController.compilersFactory.buildSerializer`), compiling each
 * distinct response schema once per process, at the first response that uses it. Fastify builds one
 * serializer per route and status: 952 at start, 589 of them the same error body, 245 more for the automatic
 * HEAD copies of GET routes, and each build re-validated the shared schemas again. That was half of the time
 * from start to ready. A serializer depends only on its schema, the shared schemas and the options, and keeps
 * no state, so identical ones are shared: between routes, and between the applications a process builds (the
 * tests build hundreds). Even shared, compiling them while Fastify boots cost a second of a restart (chaos
 * check 6) for routes most of which no request reaches soon after it: each is compiled when first needed.
 */
export function sharedSerializers(): SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    let serializers: { compile: SerializerCompiler; cache: Map<string, Serializer> } | undefined;
    const scope = () => {
      if (serializers) return serializers;
      const key = createHash('sha256')
        .update(JSON.stringify([externalSchemas ?? null, options ?? null]))
        .digest('base64');
      let cache = compiled.get(key);
      if (!cache) compiled.set(key, (cache = new Map()));
      return (serializers = { compile: build(externalSchemas, options), cache });
    };
    return (route) => {
      let serializer: Serializer | undefined;
      return (data) => {
        if (!serializer) {
          const { compile, cache } = scope();
          const key = JSON.stringify(route.schema ?? null);
          serializer = cache.get(key);
          if (!serializer) cache.set(key, (serializer = compile(route)));
        }
        return serializer(data);
      };
    };
  };
}
