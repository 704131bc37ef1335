import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ErrorBody } from './envelope.js';

/**
 * OpenAPI 3.1, generated from the same route schemas that validate requests and serialize responses.
 * Must be registered before the routes it documents.
 */
export async function registerOpenApi(app: FastifyInstance, apiPrefix: string): Promise<void> {
  app.addSchema(ErrorBody);
  await app.register(swagger, {
    // Shared schemas appear under their own names (Term, ErrorBody, …) instead of def-0, def-1, …
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`) },
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'realty-api',
        version: '1.0.0',
        description: [
          'Backend for real-estate listing platforms. Every route lives under `/realty-api/v1`',
          apiPrefix ? ` (here behind the prefix \`${apiPrefix}\`)` : '',
          '. Every route also answers under `/{lang}/realty-api/v1/...` with messages in that language',
          ' (en, ar, es, fr), and every route accepts `?lang=`. Success bodies are `{success, data, message?}`;',
          ' errors are `{success: false, code, message, errors?, request_id}`. Unknown query parameters and body',
          ' fields are refused with 400 `validation_failed`.',
        ].join(''),
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transformObject: (document) =>
      'openapiObject' in document ? markOptionalBodies(document.openapiObject as OpenApiPaths) : document.swaggerObject,
  });
}

interface BodySchema {
  type?: string;
  anyOf?: BodySchema[];
}

interface OpenApiPaths {
  paths?: Record<string, Record<string, { requestBody?: { required?: boolean; content?: Record<string, { schema?: BodySchema }> } }>>;
}

/**
 * @fastify/swagger marks every request body required. A JSON body schema that admits `null` (the
 * validator's value for a request without a body, e.g. the favorite toggle) may be left out: say so.
 */
function markOptionalBodies<T extends OpenApiPaths>(document: T): T {
  const optional = (schema: BodySchema | undefined): boolean =>
    schema !== undefined && (schema.type === 'null' || (schema.anyOf?.some(optional) ?? false));
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const json = operation.requestBody?.content?.['application/json'];
      if (json && optional(json.schema)) operation.requestBody!.required = false;
    }
  }
  return document;
}

/** The JSON document inside the namespace, and the interactive reference page at `/docs`. */
export async function registerOpenApiRoutes(app: FastifyInstance, apiPrefix: string): Promise<void> {
  app.get(`${apiPrefix}/realty-api/v1/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    uiConfig: { deepLinking: true, docExpansion: 'list' },
  });
}
