import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { bodyDefaultsToEmpty, callerOf } from '../../http/route-helpers.js';
import { translate } from '../../i18n/index.js';
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  RotatedSecret,
  UpdateWebhookBody,
  WebhookDeleted,
  WebhookIdParams,
  WebhookList,
  WebhookTestResult,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['webhooks'];
const EmptyBody = Type.Object({}, { additionalProperties: false });
const ACCESS = 'Administrators only (others → 403); an unknown id → 404.';

/** Outbound webhook endpoints (docs/api.md, "Webhooks"; docs/webhooks.md). */
export async function webhookRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhooksService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/webhooks',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Make a webhook endpoint (administrator)',
        description:
          'Events of the types in `events` (narrowed by `filter`) are POSTed to `url`, signed to Standard Webhooks 1.0 ' +
          'with the `secret` of this answer, which is shown only here. `url`: absolute http or https, at most 2,000 ' +
          'characters, no user name or password; a private or loopback address (127.0.0.1, 10.x, ::1, localhost) → 400 ' +
          'unless its host is in WEBHOOK_ALLOWED_HOSTS (a host name is checked again at every attempt). At most 100 ' +
          'endpoints (→ 409). The caller owns it. Unknown fields → 400.',
        security,
        body: CreateWebhookBody,
        response: { 201: Envelope(CreatedWebhookEndpoint), ...errorResponses(400, 401, 403, 409, 413, 415, 429) },
      },
    },
    async (request, reply) =>
      reply.code(201).send({
        success: true,
        data: await webhooks.create(callerOf(request), request.body),
        message: translate(request.lang, 'webhook_created'),
      }),
  );

  api.get(
    '/webhooks',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'The webhook endpoints (administrator)',
        description: 'Every endpoint, oldest first, without secrets. No paging: there are 100 at most.',
        security,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: Envelope(WebhookList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async () => ({ success: true, data: await webhooks.list() }),
  );

  api.get(
    '/webhooks/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'One webhook endpoint (administrator)',
        description: ACCESS,
        security,
        params: WebhookIdParams,
        response: { 200: Envelope(Type.Ref('WebhookEndpoint')), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await webhooks.get(request.params.id) }),
  );

  api.patch(
    '/webhooks/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Change a webhook endpoint (administrator)',
        description:
          'Any of `url`, `events`, `filter` (null removes it), `description`, `enabled`; at least one. New events are ' +
          'queued under the new settings; queued ones keep theirs. `enabled: true` enables an endpoint disabled for ' +
          'a 410 or five days of failures again, and its waiting deliveries resume in order. ' +
          ACCESS,
        security,
        params: WebhookIdParams,
        body: UpdateWebhookBody,
        response: { 200: Envelope(Type.Ref('WebhookEndpoint')), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await webhooks.update(request.params.id, request.body) }),
  );

  api.delete(
    '/webhooks/:id',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Delete a webhook endpoint (administrator)',
        description: `Deletes it with its deliveries: waiting ones are not sent. ${ACCESS}`,
        security,
        params: WebhookIdParams,
        response: { 200: Envelope(WebhookDeleted), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await webhooks.remove(request.params.id);
      return {
        success: true,
        data: { id: request.params.id, deleted: true as const },
        message: translate(request.lang, 'webhook_deleted'),
      };
    },
  );

  api.post(
    '/webhooks/:id/rotate-secret',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Give a webhook endpoint a new signing secret (administrator)',
        description:
          'The new secret is shown only in this answer. For 24 hours (`previous_secret_expires_at`) deliveries carry ' +
          'two signatures, the new secret’s and the old one’s, space-separated in `webhook-signature`, so the ' +
          `receiver can switch without missing one. ${ACCESS}`,
        security,
        params: WebhookIdParams,
        body: EmptyBody,
        response: { 200: Envelope(RotatedSecret), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await webhooks.rotateSecret(request.params.id),
      message: translate(request.lang, 'webhook_secret_rotated'),
    }),
  );

  api.post(
    '/webhooks/:id/test',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Send a test event to a webhook endpoint now (administrator)',
        description:
          'POSTs `{"type": "webhook.test", …}`, signed like every delivery, through the same checks (no redirect ' +
          'followed, private addresses refused, WEBHOOK_TIMEOUT_MS), and answers how the receiver answered: 200 ' +
          `whatever it said. Nothing is queued or retried. ${ACCESS}`,
        security,
        params: WebhookIdParams,
        body: EmptyBody,
        response: { 200: Envelope(WebhookTestResult), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await webhooks.test(request.params.id) }),
  );
}
