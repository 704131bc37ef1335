import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { bodyDefaultsToEmpty } from '../../../http/route-helpers.js';
import {
  DeliveriesQuery,
  Delivery,
  DeliveryIdParams,
  DeliveryList,
  NoBody,
  RetriedDeliveries,
  RetryDeadBody,
} from './deliveries.schemas.js';
import type { DeliveriesService } from './deliveries.service.js';

export interface DeliveryRouteOptions {
  deliveries: DeliveriesService;
}

const security = [{ bearer: [] }];
const administrator = { auth: ['administrator'] } as const;
const tags = ['notifications'];
const NoQuery = Type.Object({}, { additionalProperties: false });

/** The outbox's messages for the administrator: what failed for good, and sending it again (docs/api.md 8, delivery). */
export async function deliveryRoutes(app: FastifyInstance, { deliveries }: DeliveryRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/notifications/deliveries',
    {
      config: administrator,
      schema: {
        tags,
        summary: 'E-mail, push and payment messages of the outbox (administrator)',
        description:
          'The durable worker’s messages in one state: `status` `dead` (default: given up after the last attempt), ' +
          '`pending` (due, being sent, or backing off after a failure) or `sent`; `channel` (≤ 64) narrows to one ' +
          'channel (`email`, `notification_email`, `notification_push`, `stripe_subscription`). Newest first (id ' +
          'descending), paged. `last_error` says why the last attempt failed. The payload is never shown: an ' +
          'e-mail’s body can hold a password-reset link. Not an administrator → 403.',
        security,
        querystring: DeliveriesQuery,
        response: { 200: Envelope(DeliveryList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await deliveries.list(request.query) }),
  );

  api.post(
    '/notifications/deliveries/retry',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Send every dead message again (administrator)',
        description:
          'What `POST /notifications/deliveries/{id}/retry` does, for every `dead` message at once, or for one ' +
          'channel’s with `channel` (≤ 64, as the list’s filter): each goes back to `pending` with `attempts` 0, ' +
          'due now, and keeps its idempotency key. One update, so all of them move or none; pending and sent ' +
          'messages are left alone. Answers how many moved (0 when none was dead). Unknown fields → 400.',
        security,
        querystring: NoQuery,
        body: RetryDeadBody,
        response: { 200: Envelope(RetriedDeliveries), ...errorResponses(400, 401, 403, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await deliveries.retryAll(request.body) }),
  );

  api.post(
    '/notifications/deliveries/:id/retry',
    {
      config: administrator,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags,
        summary: 'Send a dead message again (administrator)',
        description:
          'A `dead` message goes back to `pending` with `attempts` 0, due now: the worker sends it on its next run, ' +
          'with every attempt and back-off again. It keeps its idempotency key, so a receiver that got an earlier ' +
          'attempt can drop the repeat. A message that is not dead (pending or sent) → 409 `invalid_transition`; ' +
          'an unknown id → 404. No body (any field → 400).',
        security,
        params: DeliveryIdParams,
        querystring: NoQuery,
        body: NoBody,
        response: { 200: Envelope(Delivery), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({ success: true, data: await deliveries.retry(request.params.id) }),
  );
}
