import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { ERROR_STATUS } from '../lib/errors.js';
import { ErrorBody } from './envelope.js';
import { clientSecuritySchemes, markClientScopes } from './openapi-client-scopes.js';
import { addOperationExamples } from './openapi-examples.js';

/** Machine clients' scopes (modules/api-clients): their descriptions, and the scope of each route. */
interface ClientScopes {
  descriptions: Readonly<Record<string, string>>;
  scopeOf: (route: string) => string | undefined;
}

/**
 * OpenAPI 3.1, generated from the same route schemas that validate requests and serialize responses.
 * Must be registered before the routes it documents.
 */
export async function registerOpenApi(
  app: FastifyInstance,
  { apiPrefix, publicUrl }: { apiPrefix: string; publicUrl: string },
  clientScopes: ClientScopes,
): Promise<void> {
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
        contact: { name: 'This site', url: publicUrl },
      },
      // The paths carry the whole path, the prefix included: the server is this site's root.
      servers: [{ url: publicUrl, description: 'This site' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          ...clientSecuritySchemes(`${publicUrl}${apiPrefix}/realty-api/v1/oauth/token`, clientScopes.descriptions),
        },
      },
    },
    transformObject: (document) =>
      'openapiObject' in document
        ? markClientScopes(
            addOperationExamples(completeOperations(markOptionalBodies(document.openapiObject as OpenApiPaths))),
            clientScopes.scopeOf,
          )
        : document.swaggerObject,
  });
}

/** The operations' tags, in the order the reference page lists them. */
const TAGS = [
  { name: 'properties', description: 'Listings: search, map clusters, one listing, writing and the owner’s lists' },
  { name: 'moderation', description: 'Moderators’ queue and decisions on listings' },
  { name: 'taxonomies', description: 'Terms: property types, statuses, features, labels and the place hierarchy' },
  { name: 'agents', description: 'Agents’ public profiles and their listings' },
  { name: 'agencies', description: 'Agencies, their agents and their listings' },
  { name: 'reviews', description: 'Reviews of listings, agents and agencies' },
  { name: 'saved-searches', description: 'Searches a user keeps, and their alerts' },
  { name: 'media', description: 'Pictures and documents: upload, list, delete' },
  { name: 'auth', description: 'Sign-in, tokens, registration and password reset' },
  { name: 'social', description: 'Sign-in with Google, Facebook or Apple' },
  { name: 'users', description: 'Profiles, favorites, leads and the administrators’ user management' },
  { name: 'notifications', description: 'A user’s notifications, their live stream and the e-mail deliveries' },
  { name: 'payments', description: 'Packages, memberships, checkout and invoices' },
  { name: 'stats', description: 'Views and leads over time, for listings’ owners and administrators' },
  { name: 'exchange', description: 'Imports, exports, feed sources, portal feeds and redirects of old addresses' },
  { name: 'site-settings', description: 'The site’s identity and public settings' },
  { name: 'webhooks', description: 'Outbound webhooks: endpoints, signed deliveries of listing events' },
  { name: 'api-clients', description: 'Machine clients: scoped credentials, the client-credentials grant, rotation and revocation' },
  { name: 'health', description: 'Liveness and readiness probes' },
];

/** What an error status means, from the error codes that answer it (docs/api.md 0.2). */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  400: 'The request is invalid: `errors` names each field',
  401: 'No valid access token: missing, expired, revoked or wrong',
  402: 'The caller’s package or membership does not allow it',
  403: 'Signed in, but the role or the record’s owner does not allow it',
  404: 'Not found, or not visible to the caller: a hidden record answers the same',
  409: 'In conflict with what is stored: a value taken, a review already written, a move the state does not allow',
  413: 'The body or the file is larger than the limit',
  415: 'The content type, or the file’s type read from its bytes, is not accepted',
  429: 'Too many requests: retry after `Retry-After` seconds',
  503: 'Not ready yet, or a dependency is unavailable: retry later',
};
const SUCCESS_WORDS: Record<string, string> = { 200: 'OK', 201: 'Created', 202: 'Accepted', 204: 'No content', 304: 'Not modified' };

/**
 * Fills what client generators and linters (Spectral's `spectral:oas`) need of each operation:
 * - an `operationId` made of the method and the path (`GET /realty-api/v1/properties/{id}/reviews` →
 *   `getPropertiesByIdReviews`), stable for as long as the route is, unless the route names its own;
 * - a description of each response in place of @fastify/swagger's "Default Response": an error status says what
 *   it means and which error codes answer it, a success repeats the operation's summary.
 */
function completeOperations<T extends OpenApiPaths>(document: T): T {
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    for (const [method, operation] of Object.entries(operations)) {
      operation.operationId ??= operationIdOf(method, path);
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (response.description !== 'Default Response') continue;
        response.description = responseDescription(status, operation.summary);
      }
    }
  }
  return document;
}

function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/realty-api\/v1(?=\/|$)/, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const parameter = /^\{(.+)\}$/.exec(segment);
      return parameter ? `By ${parameter[1]}` : segment;
    });
  const pascal = words
    .join(' ')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');
  return `${method.toLowerCase()}${pascal}`;
}

function responseDescription(status: string, summary: string | undefined): string {
  const meaning = ERROR_DESCRIPTIONS[status];
  if (meaning !== undefined) {
    const codes = Object.entries(ERROR_STATUS)
      .filter(([, answered]) => String(answered) === status)
      .map(([code]) => `\`${code}\``);
    return `${meaning} (${codes.join(', ')})`;
  }
  const word = SUCCESS_WORDS[status] ?? `Status ${status}`;
  return summary ? `${word}: ${summary.charAt(0).toLowerCase()}${summary.slice(1)}` : word;
}

interface BodySchema {
  type?: string;
  anyOf?: BodySchema[];
}

/** The parts of the generated document's operations that the transforms below complete. */
interface Operation {
  operationId?: string;
  summary?: string;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: BodySchema }> };
  responses?: Record<string, { description?: string }>;
  security?: Record<string, string[]>[];
}

interface OpenApiPaths {
  paths?: Record<string, Record<string, Operation>>;
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

const SWAGGER_UI_STYLE_HASH = 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w=';

/** The product's name where Swagger UI shows its own, white on the page's dark top bar. */
const DOCS_LOGO =
  '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="40" viewBox="0 0 300 40" role="img" aria-label="realty-api API reference">' +
  '<text x="0" y="28" fill="#ffffff" font-family="system-ui, sans-serif" font-size="24" font-weight="700">realty-api</text>' +
  '<text x="142" y="28" fill="#9fd3ff" font-family="system-ui, sans-serif" font-size="16">API reference</text></svg>';

/** The JSON document inside the namespace, and the interactive reference page at `/docs`. */
export async function registerOpenApiRoutes(app: FastifyInstance, apiPrefix: string): Promise<void> {
  app.get(`${apiPrefix}/realty-api/v1/openapi.json`, { schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, {
    routePrefix: '/docs',
    staticCSP: true,
    // Swagger UI's bundle injects one <style> element of its own: allowed by its hash, not by 'unsafe-inline'. A
    // new Swagger UI with another style shows up as a CSP error in test/e2e/docs.e2e.ts.
    transformStaticCSP: (header) => header.replace("style-src 'self' https:", `style-src 'self' https: '${SWAGGER_UI_STYLE_HASH}'`),
    uiConfig: { deepLinking: true, docExpansion: 'list' },
    theme: { title: 'realty-api — API reference' },
    logo: { type: 'image/svg+xml', content: Buffer.from(DOCS_LOGO), href: '/docs', target: '_self' },
  });
}
