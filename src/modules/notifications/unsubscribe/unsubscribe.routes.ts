import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { bodyDefaultsToEmpty } from '../../../http/route-helpers.js';
import { NotificationTypeSchema } from '../notifications.schemas.js';
import type { UnsubscribeService } from './unsubscribe.service.js';

export interface UnsubscribeRouteOptions {
  unsubscribe: UnsubscribeService;
}

const tags = ['notifications'];
const CONFIRM = 'POST this URL to unsubscribe';
/** A one-click body is 26 bytes; nothing this route accepts comes near this. */
const BODY_LIMIT = 1024;

const TokenQuery = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 512,
      description: 'From the e-mail’s unsubscribe link: names one user and one notification type, signed by the service',
    }),
  },
  { additionalProperties: false },
);

const UnsubscribeState = Type.Object({
  type: NotificationTypeSchema,
  email: Type.Boolean({ description: 'Whether e-mails of this type are on now' }),
  confirm: Type.Literal(CONFIRM),
});

const Unsubscribed = Type.Object({ type: NotificationTypeSchema, email: Type.Literal(false) });

/** Nothing, `{}`, or RFC 8058's one-click form field. */
const UnsubscribeBody = Type.Object(
  { 'List-Unsubscribe': Type.Optional(Type.Literal('One-Click', { description: 'RFC 8058 one-click unsubscribe' })) },
  { additionalProperties: false },
);

/**
 * The e-mails' unsubscribe link (docs/api.md 8; RFC 8058 one-click). Public: the signed token is the credential.
 * Registered in a scope of its own: only here does a form body (what mail clients POST) get parsed, and an
 * empty JSON body count as none.
 */
export async function unsubscribeRoutes(app: FastifyInstance, { unsubscribe }: UnsubscribeRouteOptions) {
  // Only JSON and forms; anything else → 415.
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    // Fastify's default JSON parser answers through `done`; its declared promise return is never one here.
    else void json(request, body as string, done);
  });
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/notifications/unsubscribe',
    {
      schema: {
        tags,
        summary: 'Which e-mails an unsubscribe link turns off (changes nothing)',
        description:
          'Public; the `token` of the link in every notification e-mail names one user and one notification type ' +
          '(signed by the service, no expiry). Answers the type and whether its e-mails are on now, and changes ' +
          'nothing: mail scanners and link previews fetch links. To unsubscribe, POST the same URL. A malformed or ' +
          'forged token → 400 (field `token`); the token of a deleted account → 404.',
        querystring: TokenQuery,
        response: { 200: Envelope(UnsubscribeState), ...errorResponses(400, 404, 429) },
      },
    },
    async (request, reply) => {
      const state = await unsubscribe.state(request.query.token);
      reply.header('cache-control', 'no-store');
      return { success: true, data: { ...state, confirm: CONFIRM } as const };
    },
  );

  api.post(
    '/notifications/unsubscribe',
    {
      bodyLimit: BODY_LIMIT,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Turn off the e-mails of one notification type (the e-mail’s unsubscribe link)',
        description:
          'Public; the `token` is the one of the link (see GET). Turns e-mail off for the token’s type and user; ' +
          'in-app and push notifications and the other types are unchanged, and GET/PUT /notifications/preferences ' +
          'turn it on again. Idempotent. The body may be absent, empty, `{}`, or RFC 8058’s one-click form ' +
          '`List-Unsubscribe=One-Click` (`application/x-www-form-urlencoded`), which mail clients send for the ' +
          '`List-Unsubscribe-Post` header of every notification e-mail. A malformed or forged token → 400 (field ' +
          '`token`); the token of a deleted account → 404.',
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        querystring: TokenQuery,
        body: UnsubscribeBody,
        response: { 200: Envelope(Unsubscribed), ...errorResponses(400, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await unsubscribe.unsubscribe(request.query.token) }),
  );
}
