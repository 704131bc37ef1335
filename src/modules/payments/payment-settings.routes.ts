import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type Static, Type } from 'typebox';
import type { PaymentsConfig } from '../../config.js';
import type { PaymentMethod } from '../../db/schema/index.js';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { basisPointsToPercent, fromMinor } from '../../lib/money.js';

/** The methods a buyer chooses between (`free` is no choice: free items need no method). */
const BUYER_METHODS = ['bank_transfer', 'stripe'] as const satisfies readonly PaymentMethod[];
type BuyerMethod = (typeof BUYER_METHODS)[number];

const PaymentSettings = Type.Object({
  mode: Type.Enum(['free', 'per_listing', 'membership'], { description: 'PAYMENT_MODE' }),
  currency: Type.String({ description: 'DEFAULT_CURRENCY: the currency of the listing and featured fees' }),
  methods: Type.Array(Type.Enum([...BUYER_METHODS]), {
    description: 'How buyers may pay: `bank_transfer` always, `stripe` when STRIPE_SECRET_KEY is set',
  }),
  listing_price: Type.Number({ description: 'LISTING_PRICE: fee for one listing in `per_listing` mode, in major units (0 = free)' }),
  featured_price: Type.Number({
    description: 'FEATURED_PRICE: fee for featuring one listing outside a membership, in major units (0 = free)',
  }),
  tax_rate: Type.Number({ description: 'TAX_RATE: the percentage added to listing and featured fees (packages carry their own)' }),
});
export type PaymentSettingsRecord = Static<typeof PaymentSettings>;

/** What clients need to offer payments (docs/api.md 10, 12): read from the configuration, nothing stored. */
function paymentSettingsOf(payments: PaymentsConfig): PaymentSettingsRecord {
  const methods: BuyerMethod[] = payments.stripe ? ['bank_transfer', 'stripe'] : ['bank_transfer'];
  return {
    mode: payments.mode,
    currency: payments.currency,
    methods,
    listing_price: fromMinor(payments.listingPriceMinor, payments.currency),
    featured_price: fromMinor(payments.featuredPriceMinor, payments.currency),
    tax_rate: basisPointsToPercent(payments.taxRateBp),
  };
}

/** GET /payments/settings (public). */
export async function paymentSettingsRoutes(app: FastifyInstance, { payments }: { payments: PaymentsConfig }) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();
  const settings = paymentSettingsOf(payments);

  api.get(
    '/payments/settings',
    {
      schema: {
        tags: ['payments'],
        summary: 'How this server takes payments',
        description:
          '`mode`: `free` (nothing is charged), `per_listing` (each listing costs `listing_price`) or `membership` ' +
          '(listings and featuring spend the credits of a package). `methods` lists `bank_transfer` always and ' +
          '`stripe` when Stripe is configured; free items need no method. Prices are in major units of `currency`, ' +
          'before tax; `tax_rate` is a percentage.',
        response: { 200: Envelope(PaymentSettings), ...errorResponses(400, 401, 429) },
      },
    },
    async () => ({ success: true, data: settings }),
  );
}
