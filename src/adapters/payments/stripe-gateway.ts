import type Stripe from 'stripe';
import type { StripeConfig } from '../../config.js';
import { AppError } from '../../lib/errors.js';
import { lazyModule } from '../../lib/lazy-module.js';
import type { CheckoutSession, CheckoutSessionRequest, PaymentGateway } from './payment-gateway.js';

/** How long one Stripe call may take before the buyer's request answers 503 (Stripe's own default is 80 s). */
const STRIPE_TIMEOUT_MS = 15_000;

/** Stripe's client is a large library that only a server selling something uses: loaded at the first call. */
const stripeLibrary = lazyModule(async () => (await import('stripe')).default);

/**
 * Stripe Checkout through the official client, at `STRIPE_API_BASE` (api.stripe.com, or a local fake in
 * tests). Every failure of Stripe (network, timeout, 5xx, and 4xx too: a refused key or request is this
 * server's configuration problem, not the buyer's) is a 503 that keeps Stripe's error as its cause for the log.
 */
export class StripeGateway implements PaymentGateway {
  private readonly client: () => Promise<Stripe>;

  constructor(config: StripeConfig) {
    const base = new URL(config.apiBase);
    const protocol = base.protocol === 'http:' ? 'http' : 'https';
    this.client = lazyModule(async () => {
      const StripeClient = await stripeLibrary();
      return new StripeClient(config.secretKey, {
        host: base.hostname,
        port: base.port || (protocol === 'http' ? 80 : 443),
        protocol,
        timeout: STRIPE_TIMEOUT_MS,
        // One retry of a failed connection or 5xx; the client sends an idempotency key, so a retried session
        // creation that had reached Stripe does not create a second session.
        maxNetworkRetries: 1,
        telemetry: false,
      });
    });
  }

  /**
   * A hosted payment page for the invoice total: a one-off payment, or the first period of a subscription
   * when `recurring` is set. The invoice id travels as `client_reference_id` and `metadata.invoice_id`
   * (docs/api.md 12), and on the subscription too, so that its `invoice.paid` events name our invoice.
   */
  async createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession> {
    const metadata = { invoice_id: String(request.invoiceId), invoice_number: request.invoiceNumber };
    const { recurring } = request;
    const session = await this.call((stripe) =>
      stripe.checkout.sessions.create({
        mode: recurring ? 'subscription' : 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: request.totalMinor,
              product_data: { name: request.title },
              ...(recurring ? { recurring: { interval: recurring.interval, interval_count: recurring.intervalCount } } : {}),
            },
          },
        ],
        client_reference_id: String(request.invoiceId),
        metadata,
        ...(recurring ? { subscription_data: { metadata } } : {}),
        customer_email: request.customerEmail,
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      }),
    );
    if (!session.url) throw unavailable(new Error(`Stripe returned checkout session ${session.id} without a URL`));
    return { id: session.id, url: session.url };
  }

  async cancelAtPeriodEnd(subscriptionId: string): Promise<void> {
    await this.call((stripe) => stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: true }));
  }

  async cancelNow(subscriptionId: string): Promise<void> {
    const stripe = await this.client();
    try {
      await stripe.subscriptions.cancel(subscriptionId);
    } catch (error) {
      const { errors } = await stripeLibrary();
      // Already cancelled (a retried outbox message): Stripe answers 400 resource_missing or a canceled state.
      if (error instanceof errors.StripeInvalidRequestError) return;
      if (error instanceof errors.StripeError) throw unavailable(error);
      throw error;
    }
  }

  private async call<T>(request: (stripe: Stripe) => Promise<T>): Promise<T> {
    const stripe = await this.client();
    try {
      return await request(stripe);
    } catch (error) {
      if (error instanceof (await stripeLibrary()).errors.StripeError) throw unavailable(error);
      throw error;
    }
  }
}

/** A 503 that keeps Stripe's failure as its cause, so that the error log shows what went wrong. */
function unavailable(cause: unknown): AppError {
  const error = new AppError('service_unavailable', 'payment_provider_unavailable');
  error.cause = cause;
  return error;
}
