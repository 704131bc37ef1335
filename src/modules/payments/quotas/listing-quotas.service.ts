import type { Transaction } from 'kysely';
import type { PaymentsConfig } from '../../../config.js';
import type { DB, ListingState } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { nowIso } from '../../../lib/time.js';
import { type CreditKind, spendCredit } from '../memberships/membership-credits.repository.js';
import { type FeaturingCost, isModerator, type ListingCharges, FEATURE_SETTERS } from '../../properties/index.js';
import * as repository from './listing-quotas.repository.js';

export type QuotaSettings = Pick<PaymentsConfig, 'mode' | 'listingPriceMinor'>;

/**
 * What listing actions cost under PAYMENT_MODE (docs/api.md 10, 3.3). Administrators and managers never pay.
 * Credits come from the acting user's own membership: the author's when they create, re-list or feature, the
 * agency's when it acts on its agent's listing. An agent's own listings are paid by the agent's membership,
 * not the agency's: credits belong to the account that bought the package.
 * - `free`: nothing costs anything.
 * - `membership`: creating a listing and re-listing an expired one spend a listing credit, featuring one a
 *   featured credit; none left or no active membership → 402 `quota_exceeded`. A credit is spent in the
 *   transaction that makes the change, so a refused or failed change spends nothing, and by a conditional
 *   decrement (membership-credits.repository.ts), so concurrent requests never spend one credit twice.
 * - `per_listing` with a LISTING_PRICE above 0: a new listing waits as a draft until its `listing` invoice is
 *   paid, and submitting it before → 402. Owners buy featuring through checkout, not with credits.
 */
export class ListingQuotas implements ListingCharges {
  constructor(private readonly settings: QuotaSettings) {}

  /** Whether the caller's new listing is created as a draft whatever the body says (it awaits its fee). */
  createsAsDraft(caller: AuthUser): boolean {
    return this.chargesListingFee() && !isModerator(caller);
  }

  /** Spends the listing credit a new listing costs, inside the creating transaction (402 without one). */
  async chargeCreation(trx: Transaction<DB>, caller: AuthUser): Promise<void> {
    if (this.settings.mode === 'membership' && !isModerator(caller)) await spendOrRefuse(trx, caller.id, 'listing');
  }

  /**
   * What moving a listing from `from` to `to` costs, inside the moving transaction: re-listing an expired
   * listing spends a listing credit (membership); submitting a draft needs its paid listing fee (per_listing).
   * 402 otherwise. Returns from on_hold or sold cost nothing.
   */
  async chargeMove(trx: Transaction<DB>, caller: AuthUser, listingId: number, from: ListingState, to: ListingState): Promise<void> {
    if (isModerator(caller) || from === to) return;
    if (this.settings.mode === 'membership' && from === 'expired') {
      await spendOrRefuse(trx, caller.id, 'listing');
    } else if (this.chargesListingFee() && from === 'draft' && !(await repository.isListingFeePaid(trx, listingId))) {
      throw new AppError('quota_exceeded', 'quota_listing_fee_unpaid');
    }
  }

  /**
   * Whether the caller, who may manage the listing, may set (`featured`) or remove its featured flag, and at
   * what cost: administrators freely; owners in membership mode set it with a featured credit; owners in
   * either paid mode may remove it (nothing is refunded). Anyone else → 403: managers, owners in free mode,
   * and owners setting it in per_listing mode, who buy the `featured` item through checkout instead.
   */
  featuringCost(caller: AuthUser, featured: boolean): FeaturingCost {
    if ((FEATURE_SETTERS as readonly string[]).includes(caller.role)) return 'none';
    if (isModerator(caller) || this.settings.mode === 'free') throw new AppError('forbidden');
    if (!featured) return 'none';
    if (this.settings.mode === 'per_listing') throw new AppError('forbidden', 'quota_featured_by_checkout');
    return 'featured_credit';
  }

  /** Spends the featured credit that `featuringCost` asked for, inside the featuring transaction (402 without). */
  async chargeFeaturing(trx: Transaction<DB>, caller: AuthUser): Promise<void> {
    await spendOrRefuse(trx, caller.id, 'featured');
  }

  private chargesListingFee(): boolean {
    return this.settings.mode === 'per_listing' && this.settings.listingPriceMinor > 0;
  }
}

/** Spends one credit, or refuses with a 402 whose message tells a missing membership from a spent one. */
async function spendOrRefuse(trx: Transaction<DB>, userId: number, kind: CreditKind): Promise<void> {
  const now = new Date();
  if (await spendCredit(trx, userId, kind, now)) return;
  const key = !(await repository.hasLiveMembership(trx, userId, nowIso(now)))
    ? 'quota_no_membership'
    : kind === 'listing'
      ? 'quota_no_listing_credits'
      : 'quota_no_featured_credits';
  throw new AppError('quota_exceeded', key);
}
