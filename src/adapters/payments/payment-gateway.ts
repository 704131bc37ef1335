/**
 * A card payment provider as the payments module uses it: hosted checkout pages and subscription control.
 * Stripe implements it (stripe-gateway.ts); tests use a fake Stripe API server.
 */

export type RecurringInterval = 'day' | 'week' | 'month' | 'year';

export interface CheckoutSessionRequest {
  invoiceId: number;
  invoiceNumber: string;
  /** What the buyer sees on the payment page. */
  title: string;
  /** The invoice total, tax included, in minor units. */
  totalMinor: number;
  currency: string;
  customerEmail: string;
  /** Set for packages that renew: the session starts a subscription of this rhythm. */
  recurring?: { interval: RecurringInterval; intervalCount: number };
  successUrl: string;
  cancelUrl: string;
}

export interface CheckoutSession {
  id: string;
  url: string;
}

export interface PaymentGateway {
  createCheckoutSession(request: CheckoutSessionRequest): Promise<CheckoutSession>;
  /** The subscription stops renewing; it stays paid up to the end of its current period. */
  cancelAtPeriodEnd(subscriptionId: string): Promise<void>;
  /** The subscription ends now (its membership was replaced by another package); cancelling twice is harmless. */
  cancelNow(subscriptionId: string): Promise<void>;
}
