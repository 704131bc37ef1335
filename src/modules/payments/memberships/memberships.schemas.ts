import { type Static, type TSchema, Type } from 'typebox';
import { BILLING_PERIODS, type PackageRecord } from '../packages/packages.schemas.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** What GET /membership/package reports; `none` when the caller never had a membership. */
const MEMBERSHIP_STATUSES = ['active', 'expired', 'cancelled', 'none'] as const;

/** The caller's membership (docs/api.md 10): `package` is the package bought, null with status `none`. */
export const Membership = Type.Object(
  {
    package: Nullable(Type.Ref('Package')),
    status: Type.Enum([...MEMBERSHIP_STATUSES], {
      description:
        '`active` until `expires_at`, then `expired` (whether or not the expiry job has run yet); `none` without ' +
        'a membership. A membership a Stripe subscription renews stays `active` for one day past `expires_at` ' +
        'while the renewal payment is on its way.',
    }),
    remaining_listings: Nullable(
      Type.Integer({ description: 'Listing credits left; null = unlimited (and null with `none`); 0 once no longer `active`' }),
    ),
    remaining_featured: Nullable(Type.Integer({ description: 'Featured credits left; null with `none`; 0 once no longer `active`' })),
    started_at: Nullable(Type.String({ description: 'ISO 8601 UTC: when the package was bought' })),
    expires_at: Nullable(Type.String({ description: 'ISO 8601 UTC: end of the paid period; null for a one-time package or with `none`' })),
    auto_renew: Type.Boolean({
      description: 'A Stripe subscription renews the package at `expires_at`; false after POST /membership/cancel',
    }),
  },
  { $id: 'Membership', title: 'Membership' },
);
export interface MembershipRecord extends Omit<Static<typeof Membership>, 'package'> {
  package: PackageRecord | null;
}

/** GET /users/package: the membership flat, as houzez-api clients read it (docs/api.md 3.2). */
export const UserPackage = Type.Object({
  package_id: Nullable(Type.Integer()),
  package_title: Nullable(Type.String()),
  package_listings: Nullable(Type.Integer({ description: 'Listings the package includes; -1 = unlimited' })),
  package_remaining_listings: Nullable(Type.Integer({ description: 'Listing credits left; -1 = unlimited; 0 once expired' })),
  package_featured_listings: Nullable(Type.Integer({ description: 'Featured listings the package includes' })),
  package_remaining_featured_listings: Nullable(Type.Integer({ description: 'Featured credits left; 0 once expired' })),
  package_billing_period: Nullable(Type.Enum([...BILLING_PERIODS])),
  package_billing_frequency: Nullable(Type.Integer()),
  package_expired_date: Nullable(Type.String({ description: 'ISO 8601 UTC `expires_at`; null for a one-time package' })),
});
export type UserPackageRecord = Static<typeof UserPackage>;

/** POST /membership/cancel takes nothing; an empty object (or no body) is accepted, any field refused. */
export const CancelBody = Type.Object({}, { additionalProperties: false });
