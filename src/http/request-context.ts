import type { Role } from '../db/schema/index.js';
import type { Language } from '../i18n/index.js';
import type { AuthUser } from '../lib/signed-in-user.js';

/**
 * Declared on each route as `config: { auth }` and checked by one hook (http/auth.ts):
 * `public` (the default; a token, when sent, must still be valid), `user` (any signed-in caller),
 * the roles allowed, or `own` (the route checks a credential of its own kind, such as the metrics token, in
 * the Authorization header: the sign-in hook leaves it alone).
 */
type AuthRequirement = 'public' | 'user' | 'own' | readonly Role[];

declare module 'fastify' {
  interface FastifyRequest {
    lang: Language;
    user: AuthUser | null;
  }
  interface FastifyContextConfig {
    auth?: AuthRequirement;
    /** The route keeps its query schema as it is, unknown parameters included (http/language.ts acceptLangQuery). */
    ownQueryRules?: boolean;
  }
}
