import type { MembershipStatus } from '../../../db/schema/index.js';
import { nowIso, toApiTimestamp } from '../../../lib/time.js';
import { lapsesAt } from './memberships.periods.js';
import type { MembershipRow } from './memberships.repository.js';
import type { MembershipRecord, UserPackageRecord } from './memberships.schemas.js';
import { type PackageRow, toPackage } from '../packages/packages.mapper.js';

/** A membership with its package, as the routes show it. */
export interface MembershipWithPackage {
  membership: MembershipRow;
  package: PackageRow;
}

const NO_MEMBERSHIP: MembershipRecord = {
  package: null,
  status: 'none',
  remaining_listings: null,
  remaining_featured: null,
  started_at: null,
  expires_at: null,
  auto_renew: false,
};

/**
 * The status at `now`: an active membership past its end counts as `expired` before the expiry job has
 * stored it (memberships.periods.ts lapsesAt), so that clients never see an active membership they cannot use.
 */
export function statusAt(membership: MembershipRow, now: Date): MembershipStatus {
  if (membership.status !== 'active') return membership.status;
  const end = lapsesAt(membership);
  return end !== null && end <= nowIso(now) ? 'expired' : 'active';
}

/** The membership record (docs/api.md 10); credits left are 0 once it is no longer active (none can be spent). */
export function toMembership(found: MembershipWithPackage | undefined, now: Date): MembershipRecord {
  if (!found) return NO_MEMBERSHIP;
  const { membership } = found;
  const status = statusAt(membership, now);
  const active = status === 'active';
  return {
    package: toPackage(found.package),
    status,
    remaining_listings: active ? membership.remaining_listings : 0,
    remaining_featured: active ? membership.remaining_featured : 0,
    started_at: toApiTimestamp(membership.started_at),
    expires_at: membership.expires_at === null ? null : toApiTimestamp(membership.expires_at),
    auto_renew: membership.auto_renew === 1,
  };
}

/** GET /users/package (docs/api.md 3.2): the membership flat, unlimited as -1 (docs/api.md 12), nulls without one. */
export function toUserPackage(found: MembershipWithPackage | undefined, now: Date): UserPackageRecord {
  if (!found) {
    return {
      package_id: null,
      package_title: null,
      package_listings: null,
      package_remaining_listings: null,
      package_featured_listings: null,
      package_remaining_featured_listings: null,
      package_billing_period: null,
      package_billing_frequency: null,
      package_expired_date: null,
    };
  }
  const record = toMembership(found, now);
  return {
    package_id: found.package.id,
    package_title: found.package.title,
    package_listings: found.package.listings_included ?? -1,
    package_remaining_listings: record.remaining_listings ?? -1,
    package_featured_listings: found.package.featured_included,
    package_remaining_featured_listings: record.remaining_featured,
    package_billing_period: found.package.billing_period,
    package_billing_frequency: found.package.billing_frequency,
    package_expired_date: record.expires_at,
  };
}
