import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

type Serializer = (data: unknown) => string;
type CompileSerializer = (route: { schema: unknown }) => Serializer;
type BuildSerializer = (externalSchemas: unknown, serializerOpts: unknown) => CompileSerializer;
interface CompilersFactory {
  buildSerializer?: BuildSerializer;
}

/** Compiled serializers by (shared schemas and options) → route schema, for every app of this process. */
const compiled = new Map<string, Map<string, Serializer>>();

/**
 * Lets `app` reuse the response serializers that earlier apps of this test process compiled for the same
 * schemas, instead of compiling them again at `ready()`.
 *
 * NOTE: fast-json-stringify compiling every route's response schemas was about four fifths of a test app's
 * start (≈1.2 of 1.5 s), paid again by every test app. A serializer depends only on its schema, the shared
 * schemas and the serializer options, and keeps no state, so one compiled per process serves every app.
 * Fastify has no public way to change the compiler factory of an instance whose plugins are loaded (buildApp
 * awaits its registrations), so this replaces `buildSerializer` in the factory objects the instance's
 * schema controllers share. If Fastify's internals move, it does nothing: the apps compile their own, slower.
 * The cleaner way is an option of buildApp (see the report of this change).
 */
export function shareCompiledSerializers(app: FastifyInstance): void {
  const key = Object.getOwnPropertySymbols(app).find((symbol) => symbol.description === 'fastify.schemaController');
  const controller =
    key && (app as unknown as Record<symbol, { opts?: { compilersFactory?: CompilersFactory }; compilersFactory?: CompilersFactory }>)[key];
  for (const factory of new Set([controller?.opts?.compilersFactory, controller?.compilersFactory])) {
    const build = factory?.buildSerializer;
    if (factory && typeof build === 'function' && !memoized.has(build)) {
      factory.buildSerializer = memoize(build);
    }
  }
}

const memoized = new WeakSet<BuildSerializer>();

function memoize(build: BuildSerializer): BuildSerializer {
  const wrapper: BuildSerializer = (externalSchemas, serializerOpts) => {
    const compile = build(externalSchemas, serializerOpts);
    const scope = createHash('sha256')
      .update(JSON.stringify([externalSchemas ?? null, serializerOpts ?? null]))
      .digest('base64');
    let serializers = compiled.get(scope);
    if (!serializers) compiled.set(scope, (serializers = new Map()));
    const cache = serializers;
    return (route) => {
      const schema = JSON.stringify(route.schema);
      let serializer = cache.get(schema);
      if (!serializer) cache.set(schema, (serializer = compile(route)));
      return serializer;
    };
  };
  memoized.add(wrapper);
  return wrapper;
}
