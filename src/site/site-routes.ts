import type { FastifyInstance } from 'fastify';
import type { Language } from '../i18n/index.js';
import type { Site } from './site.js';

/** A page module's routes, registered once per language under its prefix (index.ts). */
export type SiteRoutes = (scope: FastifyInstance, site: Site, lang: Language) => void;

/**
 * The route options of every page: left out of the API's OpenAPI document, and free of the API's rule that an
 * unknown query parameter is an error (a link with `?utm_source=` must open the page).
 */
export const PAGE_ROUTE = { schema: { hide: true }, config: { ownQueryRules: true } } as const;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A page's query rules are its own schema's (PAGE_ROUTE): http/language.ts leaves them alone. */
    ownQueryRules?: boolean;
  }
}
