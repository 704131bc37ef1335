import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import type { StripeWebhookService } from './stripe-webhook.service.js';

export interface StripeWebhookRouteOptions {
  stripeWebhook: StripeWebhookService;
}

const WebhookReceipt = Type.Object({ received: Type.Literal(true) });

/**
 * POST /payments/webhooks/stripe (docs/api.md 10). Registered in a scope of its own: the signature covers the
 * exact bytes Stripe sent, so JSON bodies reach this route as the raw Buffer instead of being parsed.
 */
export async function stripeWebhookRoutes(app: FastifyInstance, { stripeWebhook }: StripeWebhookRouteOptions) {
  // Only JSON is accepted (anything else → 415), kept as the raw Buffer.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/payments/webhooks/stripe',
    {
      schema: {
        tags: ['payments'],
        summary: 'Stripe webhook endpoint (called by Stripe)',
        description:
          'Public: Stripe authenticates itself with the `Stripe-Signature` header, an HMAC-SHA256 of the raw body ' +
          'with STRIPE_WEBHOOK_SECRET; a missing, wrong or more than 5 minutes old signature → 400, and without ' +
          'STRIPE_WEBHOOK_SECRET every delivery → 503 (Stripe retries). The body is a Stripe event (JSON). ' +
          'Handled: `checkout.session.completed` and `checkout.session.async_payment_succeeded` with ' +
          '`payment_status` `paid` settle the invoice named by `client_reference_id` (or `metadata.invoice_id`) ' +
          'and deliver its item; `invoice.paid` with `billing_reason` `subscription_create` does the same for the ' +
          'subscription’s first invoice (whichever of the two arrives first settles it), and with ' +
          '`subscription_cycle` records a renewal invoice and extends the membership; ' +
          '`customer.subscription.deleted` stops the membership’s renewal. Other types are acknowledged and ' +
          'ignored. Each event id is handled once, in the same transaction as its effects: replays and late ' +
          'events answer 200 without changing anything, and a failure leaves the event unhandled (5xx) for ' +
          'Stripe’s retry.',
        headers: Type.Object({
          'stripe-signature': Type.Optional(Type.String({ description: '`t=<unix seconds>,v1=<HMAC-SHA256 of "t.body">`' })),
        }),
        body: Type.Unsafe<unknown>({ type: 'object', description: 'A Stripe event; read as raw bytes for the signature' }),
        response: { 200: Envelope(WebhookReceipt), ...errorResponses(400, 413, 415, 429, 503) },
      },
    },
    async (request) => {
      const signature = request.headers['stripe-signature'];
      await stripeWebhook.receive(request.body as Buffer, typeof signature === 'string' ? signature : undefined);
      return { success: true, data: { received: true as const } };
    },
  );
}
