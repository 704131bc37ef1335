import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { bodyDefaultsToEmpty, callerOf } from '../../http/route-helpers.js';
import { translate } from '../../i18n/index.js';
import {
  CreatedWebhookEndpoint,
  CreateWebhookBody,
  DeliveriesQuery,
  DeliveryIdParams,
  DeliveryList,
  ReplayBody,
  ReplayResult,
  RotatedSecret,
  UpdateWebhookBody,
  WebhookDeleted,
  WebhookIdParams,
  WebhookList,
  WebhookSettingsBody,
  WebhookTestResult,
} from './webhooks.schemas.js';
import type { WebhooksService } from './webhooks.service.js';

const administrator = { auth: ['administrator'] } as const;
const security = [{ bearer: [] }];
const tags = ['webhooks'];
const EmptyBody = Type.Object({}, { additionalProperties: false });
const ACCESS =
  'Administrators (others → 403), and machine clients with `webhooks:manage` for the endpoints they made; an unknown id, or to a client another owner’s, → 404.';

/** Outbound webhook endpoints (docs/api.md, "Webhooks"; docs/webhooks.md). */
export async function webhookRoutes(app: FastifyInstance, { webhooks }: { webhooks: WebhooksService }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  // A machine client manages only the endpoints it made (docs/api.md 17): another's is a 404 on every route with an id.
  api.addHook('preHandler', async (request) => {
    const { id } = request.params as { id?: number };
    if (request.user?.client && id !== undefined) await webhooks.assertVisible(request.user, id);
  });

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
    async (request) => ({ success: true, data: await webhooks.list(callerOf(request)) }),
  );

  api.get(
    '/webhooks/settings',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Whether webhook deliveries are paused (administrator)',
        description:
          'The switch over every delivery (PUT sets it) and WEBHOOK_DELIVERIES_PAUSED, either of which holds them back. ' +
          'Administrators only (others → 403).',
        security,
        querystring: Type.Object({}, { additionalProperties: false }),
        response: { 200: Envelope(Type.Ref('WebhookSettings')), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async () => ({ success: true, data: await webhooks.settings() }),
  );

  api.put(
    '/webhooks/settings',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Pause or resume every webhook delivery (administrator)',
        description:
          '`deliveries_paused: true` holds every delivery back from the next run of the delivery job, in every process, ' +
          'without a restart; events are still derived and queued, and go out in order once it is `false` again. A ' +
          'batch being sent when it is set finishes. WEBHOOK_DELIVERIES_PAUSED, when set, holds them back whatever this ' +
          'says. Administrators only (others → 403).',
        security,
        body: WebhookSettingsBody,
        response: { 200: Envelope(Type.Ref('WebhookSettings')), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await webhooks.updateSettings(callerOf(request), request.body),
      message: translate(request.lang, request.body.deliveries_paused ? 'webhook_deliveries_paused' : 'webhook_deliveries_resumed'),
    }),
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
  api.get(
    '/webhooks/:id/deliveries',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'A webhook endpoint’s deliveries, newest first (administrator)',
        description:
          'Each delivery of an event to the endpoint: its event (`id`, `type`, `sequence`), status, attempts, the last ' +
          'answer’s status and first 256 bytes, the last attempt’s latency or error, and when it is tried next. ' +
          `Paged (\`page\`, \`per_page\` ≤ 100); \`status\` keeps one status. ${ACCESS}`,
        security,
        params: WebhookIdParams,
        querystring: DeliveriesQuery,
        response: { 200: Envelope(DeliveryList), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await webhooks.deliveries(request.params.id, request.query) }),
  );

  api.post(
    '/webhooks/:id/deliveries/:delivery_id/retry',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Try a delivery again now (administrator)',
        description:
          'A pending or given-up (`failed`) delivery is due at once, with three more days of retries; it keeps its place ' +
          'in its listing’s order (later pending events of the listing wait for it). A delivered one → 409 ' +
          '`invalid_transition` (replay sends it again). An unknown delivery, or another endpoint’s → 404. ' +
          'Administrators only (others → 403).',
        security,
        params: DeliveryIdParams,
        body: EmptyBody,
        response: { 200: Envelope(Type.Ref('WebhookDelivery')), ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => ({ success: true, data: await webhooks.retryDelivery(request.params.id, request.params.delivery_id) }),
  );

  api.post(
    '/webhooks/:id/replay',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'Send every matching event since a sequence number again (administrator)',
        description:
          'Queues a new delivery of every kept event whose `sequence` is `from_sequence` or later and that the endpoint ' +
          'wants now (its `events` and `filter`), in sequence order: they go out in order per listing, with the same ' +
          '`webhook-id` as the first time. Events are kept 7 days: `first_kept_sequence` tells where the kept ones ' +
          `start. Deliveries wait while the endpoint is disabled. ${ACCESS}`,
        security,
        params: WebhookIdParams,
        body: ReplayBody,
        response: { 200: Envelope(ReplayResult), ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await webhooks.replay(request.params.id, request.body.from_sequence) }),
  );
}
