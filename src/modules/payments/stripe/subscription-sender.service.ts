import type { PaymentGateway } from '../../../adapters/payments/payment-gateway.js';
import type { ChannelSender } from '../../../db/outbox.js';

/** The outbox payload of the `stripe_subscription` channel: a subscription to end now. */
interface SubscriptionCancellation {
  subscription_id: string;
}

/**
 * Ends Stripe subscriptions whose membership was replaced by another package. Written to the outbox in the
 * transaction that replaced the membership, so a crash, or Stripe being down, only delays the cancellation
 * (the outbox retries with back-off): an abandoned subscription must not keep charging the buyer.
 */
export function subscriptionSender(gateway: PaymentGateway): ChannelSender {
  return async (payload: unknown) => {
    const { subscription_id } = payload as SubscriptionCancellation;
    await gateway.cancelNow(subscription_id);
    return { subscription_id };
  };
}
