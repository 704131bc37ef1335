import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Envelope, errorResponses } from '../../../http/envelope.js';
import { CheckoutBody, CheckoutResult } from './checkout.schemas.js';
import type { CheckoutService } from './checkout.service.js';

export interface CheckoutRouteOptions {
  checkout: CheckoutService;
}

/** POST /payments/checkout (docs/api.md 10). */
export async function checkoutRoutes(app: FastifyInstance, { checkout }: CheckoutRouteOptions) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.post(
    '/payments/checkout',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['payments'],
        summary: 'Buy a package, a listing fee or a featured upgrade',
        description:
          'Writes an invoice (`INV-YYYY-NNNNNN`) for the item, with the caller’s display name and e-mail as the ' +
          'buyer. `package`: a visible package (else 404) at its price, tax rate and currency. `listing` and ' +
          '`featured` are sold only in PAYMENT_MODE `per_listing` (else 409: in `membership` mode featuring ' +
          'spends credits, in `free` mode owners do not feature). `listing`: the caller’s own draft listing ' +
          '(author, or the agency of its authoring agent) that has no paid listing invoice yet; LISTING_PRICE ' +
          'plus TAX_RATE in DEFAULT_CURRENCY. `featured`: the caller’s own published listing that is not ' +
          'featured yet; FEATURED_PRICE plus TAX_RATE. A listing the caller cannot see → 404; one they see but do ' +
          'not own → 403 (administrators and managers included); a listing in the wrong state → 409.\n\n' +
          'An item whose total is 0 is paid at once (`payment_method` `free`) and delivered in the same ' +
          'transaction; `method` may then be left out and is ignored. Otherwise `method` is required (400): ' +
          '`stripe` (only when STRIPE_SECRET_KEY is set, else 400) answers a pending invoice and `checkout_url`, ' +
          'a Stripe Checkout page; a package with a billing period other than `one_time` starts a subscription ' +
          'there (`recurring: true`) that renews until cancelled. The invoice is paid and the item delivered when ' +
          'Stripe’s webhook reports the payment. If Stripe cannot be reached the invoice is cancelled and the ' +
          'answer is 503. `bank_transfer` answers a pending invoice and `instructions` (BANK_TRANSFER_INSTRUCTIONS ' +
          'and the invoice number as the transfer reference); an administrator marks it paid when the money ' +
          'arrives. `free` is refused for an item that costs something (400).',
        security: [{ bearer: [] }],
        body: CheckoutBody,
        response: { 201: Envelope(CheckoutResult), ...errorResponses(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => {
      const data = await checkout.checkout(request.user!, request.body, request.lang);
      return reply.status(201).send({ success: true, data });
    },
  );
}
