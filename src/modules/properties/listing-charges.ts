import type { Transaction } from 'kysely';
import type { DB, ListingState } from '../../db/schema/index.js';
import type { AuthUser } from '../../lib/signed-in-user.js';

/** What setting or removing a featured flag costs the caller: nothing, or one featured credit. */
export type FeaturingCost = 'none' | 'featured_credit';

/**
 * What listing actions cost under PAYMENT_MODE. The payments module answers (its ListingQuotas); the listings
 * module asks inside the transaction that makes the change, so a refused or failed change costs nothing.
 * Declared here, implemented there: properties never imports payments.
 */
export interface ListingCharges {
  /** Whether the caller's new listing is created as a draft whatever the body says (it awaits its fee). */
  createsAsDraft(caller: AuthUser): boolean;
  /** Spends what a new listing costs (402 when it cannot be paid). */
  chargeCreation(trx: Transaction<DB>, caller: AuthUser): Promise<void>;
  /** Spends or checks what moving a listing from `from` to `to` costs (402 when it cannot be paid). */
  chargeMove(trx: Transaction<DB>, caller: AuthUser, listingId: number, from: ListingState, to: ListingState): Promise<void>;
  /** Whether the caller may set (`featured`) or remove the flag, and at what cost (403 when they may not). */
  featuringCost(caller: AuthUser, featured: boolean): FeaturingCost;
  /** Spends the featured credit that `featuringCost` asked for (402 without one). */
  chargeFeaturing(trx: Transaction<DB>, caller: AuthUser): Promise<void>;
}
