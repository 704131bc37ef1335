import { StripeGateway } from '../../adapters/payments/stripe-gateway.js';
import type { AccountsServices } from '../accounts/index.js';
import type { AppModule, Platform } from '../module.js';
import type { ListingCharges, PropertiesServices } from '../properties/index.js';
import type { UsersServices } from '../users/index.js';
import { checkoutRoutes } from './checkout/checkout.routes.js';
import { CheckoutService } from './checkout/checkout.service.js';
import { Fulfilment } from './checkout/fulfilment.service.js';
import { invoiceRoutes } from './invoices/invoices.routes.js';
import { Invoice } from './invoices/invoices.schemas.js';
import { InvoicesService } from './invoices/invoices.service.js';
import { MembershipExpiryJob } from './memberships/membership-expiry.service.js';
import { membershipRoutes } from './memberships/memberships.routes.js';
import { Membership } from './memberships/memberships.schemas.js';
import { MembershipsService } from './memberships/memberships.service.js';
import { packageRoutes } from './packages/packages.routes.js';
import { Package } from './packages/packages.schemas.js';
import { PackagesService } from './packages/packages.service.js';
import { paymentSettingsRoutes } from './payment-settings.routes.js';
import { ListingQuotas } from './quotas/listing-quotas.service.js';
import { stripeWebhookRoutes } from './stripe/stripe-webhook.routes.js';
import { StripeWebhookService } from './stripe/stripe-webhook.service.js';
import { subscriptionSender } from './stripe/subscription-sender.service.js';

export interface PaymentsServices {
  /** Membership packages (docs/api.md 10). */
  packages: PackagesService;
  /** Invoices: reading, archiving, settling bank transfers. */
  invoices: InvoicesService;
  /** The caller's membership: reading it and stopping its renewal. */
  memberships: MembershipsService;
  /** POST /payments/checkout: invoices for packages, listing fees and featured upgrades. */
  checkout: CheckoutService;
  /** Stripe's payment events: settles invoices, renews and ends subscriptions. */
  stripeWebhook: StripeWebhookService;
  /** Tells owners their membership ends soon, and expires it (and in membership mode its listings). */
  membershipExpiry: MembershipExpiryJob;
}

const MINUTE_MS = 60_000;

/**
 * What listing actions cost under PAYMENT_MODE, for the listings module, which is built before this one:
 * it needs only the database, so app.ts makes it first and hands it to both.
 */
export function createListingCharges({ config }: Platform): ListingCharges {
  return new ListingQuotas(config.payments);
}

/** Memberships, payments and invoices (docs/api.md 10): packages, checkout, Stripe, bank transfers, expiry. */
export function createPaymentsModule(
  { config, database, log, paymentGateway }: Platform,
  {
    users,
    profiles,
    properties,
    listingMoves,
  }: Pick<AccountsServices, 'users'> & UsersServices & Pick<PropertiesServices, 'properties' | 'listingMoves'>,
): AppModule<PaymentsServices> {
  const { db } = database;
  const gateway = paymentGateway ?? (config.payments.stripe ? new StripeGateway(config.payments.stripe) : undefined);
  const fulfilment = new Fulfilment(listingMoves);
  const packages = new PackagesService(db, { defaultCurrency: config.payments.currency });
  const invoices = new InvoicesService(db, profiles, fulfilment);
  const memberships = new MembershipsService(db, gateway, log);
  const checkout = new CheckoutService(db, users, properties, fulfilment, gateway, config.payments);
  const stripeWebhook = new StripeWebhookService(db, fulfilment, config.payments.stripe?.webhookSecret, log);
  const membershipExpiry = new MembershipExpiryJob(db, listingMoves, { mode: config.payments.mode });
  return {
    services: { packages, invoices, memberships, checkout, stripeWebhook, membershipExpiry },
    schemas: [Package, Invoice, Membership],
    routes: async (api) => {
      await api.register(paymentSettingsRoutes, { payments: config.payments });
      await api.register(packageRoutes, { packages });
      await api.register(invoiceRoutes, { invoices });
      await api.register(membershipRoutes, { memberships });
      await api.register(checkoutRoutes, { checkout });
      await api.register(stripeWebhookRoutes, { stripeWebhook });
    },
    senders: gateway ? { stripe_subscription: subscriptionSender(gateway) } : {},
    jobs: [
      {
        name: 'membership-expiry',
        intervalMs: MINUTE_MS,
        run: async (now) => {
          const run = await membershipExpiry.runOnce(now);
          if (run.noticed + run.expired > 0) log.info(run, 'memberships noticed and expired');
        },
      },
    ],
  };
}
