import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../http/envelope.js';
import { AppError } from '../../lib/errors.js';
import { OAuthTokenAnswer, OAuthTokenBody } from './api-clients.schemas.js';
import type { ClientCredentials } from './client-credentials.service.js';

const BASIC = /^Basic[ ]+([A-Za-z0-9+/]+=*)$/i;

/**
 * The OAuth 2.0 token endpoint of machine clients (RFC 6749 4.4, client credentials). In a scope of its own: only
 * here is a form body (what OAuth libraries send) parsed, and the Authorization header is HTTP Basic.
 */
export async function oauthRoutes(app: FastifyInstance, { credentials }: { credentials: ClientCredentials }) {
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(body as string)) {
      // RFC 6749 3.2: a parameter sent twice is an invalid request.
      if (name in fields) {
        done(AppError.invalidField(name, 'rule_invalid'), undefined);
        return;
      }
      fields[name] = value;
    }
    done(null, fields);
  });
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/oauth/token',
    {
      config: { auth: 'own' },
      schema: {
        tags: ['api-clients'],
        summary: 'An access token for a machine client (OAuth 2.0 client credentials)',
        description:
          'RFC 6749 4.4: `grant_type=client_credentials`, as a form (`application/x-www-form-urlencoded`, what OAuth ' +
          'libraries send) or JSON. The client authenticates with HTTP Basic (`client_id:client_secret`) or with ' +
          '`client_id` and `client_secret` in the body, not both (→ 400). `scope` (space-separated) narrows the token to ' +
          'some of the client’s scopes. The answer is RFC 6749’s, at the top level (no `{success, data}`), with ' +
          '`Cache-Control: no-store`; the token works for `expires_in` seconds (ACCESS_TOKEN_TTL) or until the client is ' +
          'revoked. A wrong id or secret, an ended secret or a revoked client → 401 `invalid_credentials`; a refused ' +
          'address → 403; each grant counts against the client’s own rate limit.',
        security: [{ clientBasic: [] }],
        consumes: ['application/x-www-form-urlencoded', 'application/json'],
        body: OAuthTokenBody,
        response: { 200: OAuthTokenAnswer, ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request, reply) => {
      const header = request.headers.authorization;
      const basic = header === undefined ? undefined : BASIC.exec(header)?.[1];
      if (header !== undefined && basic === undefined) throw new AppError('invalid_credentials');
      const answer = await credentials.issueToken(request.body, basic, request);
      return reply.header('cache-control', 'no-store').header('pragma', 'no-cache').send(answer);
    },
  );
}
