import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { PaymentGateway } from '../../../adapters/payments/payment-gateway.js';
import type { DB } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { nowIso } from '../../../lib/time.js';
import { type MembershipWithPackage, statusAt, toMembership, toUserPackage } from './memberships.mapper.js';
import * as repository from './memberships.repository.js';
import type { MembershipRecord, UserPackageRecord } from './memberships.schemas.js';
import { findPackage, findPackagesByIds } from '../packages/packages.repository.js';

/**
 * The caller's membership (docs/api.md 10, 3.2): reading it, in the nested and the flat form, and stopping its
 * renewal. Activation, renewal and expiry happen elsewhere (fulfilment.service.ts, memberships/membership-expiry.service.ts).
 */
export class MembershipsService {
  constructor(
    private readonly db: Kysely<DB>,
    /** Stripe, when configured; without it a membership that a subscription renews cannot be cancelled. */
    private readonly gateway: PaymentGateway | undefined,
    private readonly log: FastifyBaseLogger,
  ) {}

  async membershipOf(caller: AuthUser): Promise<MembershipRecord> {
    return toMembership(await this.find(caller.id), new Date());
  }

  async userPackageOf(caller: AuthUser): Promise<UserPackageRecord> {
    return toUserPackage(await this.find(caller.id), new Date());
  }

  /**
   * Stops renewal: the package stays active until `expires_at`, then expires (docs/api.md 12). A Stripe
   * subscription is told first, to stop at the end of its period; if that fails nothing changes here (503),
   * so that the membership never says "no renewal" while the card is still charged. Cancelling again is a
   * no-op. No membership → 404; one that is no longer active → 409, there is nothing left to stop.
   */
  async cancel(caller: AuthUser): Promise<MembershipRecord> {
    const now = new Date();
    const found = await this.find(caller.id);
    if (!found) throw new AppError('not_found', 'membership_none');
    const { membership } = found;
    const status = statusAt(membership, now);
    if (status !== 'active') throw new AppError('conflict', 'membership_not_active', [], { status });
    if (membership.auto_renew === 0) return toMembership(found, now);

    if (membership.stripe_subscription_id !== null) await this.cancelSubscription(membership.stripe_subscription_id);
    const updated = await repository.stopRenewal(this.db, membership, nowIso(now));
    return toMembership({ membership: updated, package: found.package }, now);
  }

  private async cancelSubscription(subscriptionId: string): Promise<void> {
    if (!this.gateway) throw new AppError('service_unavailable', 'membership_cancel_unavailable');
    try {
      await this.gateway.cancelAtPeriodEnd(subscriptionId);
    } catch (error) {
      this.log.error({ err: error, subscriptionId }, 'could not cancel the Stripe subscription');
      throw new AppError('service_unavailable', 'payment_provider_unavailable');
    }
  }

  /**
   * The memberships among `ids` that exist, each with its user, as an administrator would read the user's
   * membership now, by id: what the outbound webhooks send as `membership.changed`. Two queries.
   */
  async recordsOf(ids: readonly number[], now = new Date()): Promise<Map<number, { user_id: number; membership: MembershipRecord }>> {
    const rows = await repository.findMemberships(this.db, ids);
    const packages = new Map(
      (await findPackagesByIds(this.db, [...new Set(rows.map((row) => row.package_id))])).map((pkg) => [pkg.id, pkg]),
    );
    const records = new Map<number, { user_id: number; membership: MembershipRecord }>();
    for (const membership of rows) {
      const pkg = packages.get(membership.package_id);
      if (pkg) records.set(membership.id, { user_id: membership.user_id, membership: toMembership({ membership, package: pkg }, now) });
    }
    return records;
  }

  private async find(userId: number): Promise<MembershipWithPackage | undefined> {
    const membership = await repository.findMembershipOfUser(this.db, userId);
    if (!membership) return undefined;
    const pkg = await findPackage(this.db, membership.package_id);
    // Packages in use are hidden, never deleted (the foreign key refuses it).
    if (!pkg) throw new Error(`package ${membership.package_id} of membership ${membership.id} is gone`);
    return { membership, package: pkg };
  }
}
