import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type Language, languageFromAcceptHeader, supportedLanguage } from '../i18n/index.js';

const PREFIX_LANGUAGE = Symbol('realty-api.prefixLanguage');
type WithPrefixLanguage = IncomingMessage & { [PREFIX_LANGUAGE]?: string };

/**
 * `/{lang}{API_PREFIX}/realty-api/v1/...` serves every route in that language (docs/api.md 0.5). The URL is
 * rewritten before routing, so the localized variant is the same route, with the same rate-limit bucket.
 */
export function languagePrefixRewriter(apiPrefix: string): (request: IncomingMessage) => string {
  const escaped = apiPrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^/([a-z]{2})(?=${escaped}/realty-api/v1(?:[/?#]|$))`);
  return (request) => {
    const url = request.url ?? '/';
    const match = pattern.exec(url);
    if (!match) return url;
    (request as WithPrefixLanguage)[PREFIX_LANGUAGE] = match[1];
    return url.slice(match[0].length);
  };
}

/** `?lang=`, else the path prefix, else Accept-Language, else English. */
export function resolveLanguage(request: FastifyRequest): Language {
  const query = request.query as Record<string, unknown> | undefined;
  const fromQuery = typeof query?.lang === 'string' ? supportedLanguage(query.lang) : undefined;
  return (
    fromQuery ??
    supportedLanguage((request.raw as WithPrefixLanguage)[PREFIX_LANGUAGE]) ??
    languageFromAcceptHeader(request.headers['accept-language']) ??
    'en'
  );
}

const LangQuery = Type.String({ pattern: '^[A-Za-z]{2}([-_][A-Za-z]{2,4})?$', description: 'Message language (en, ar, es, fr)' });

/**
 * Every route of the API accepts `?lang=` (docs/api.md 12), and refuses every other query parameter it does not
 * name. Routes that say `config: { ownQueryRules: true }` (the website's pages, which links from anywhere reach
 * with tracking parameters) keep their own schema as it is.
 */
export function acceptLangQuery(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.url.startsWith('/docs') || route.url.startsWith('/console')) return;
    if ((route.config as { ownQueryRules?: boolean } | undefined)?.ownQueryRules) return;
    const schema = (route.schema ??= {});
    const query = (schema.querystring ?? Type.Object({}, { additionalProperties: false })) as {
      properties?: Record<string, unknown>;
    };
    schema.querystring = { ...query, properties: { ...query.properties, lang: Type.Optional(LangQuery) } };
  });
}
