import type { BillingPeriod } from '../../../db/schema/index.js';

const DAY_MS = 86_400_000;

/**
 * How long a membership that renews by Stripe subscription stays active past its `expires_at` while the
 * renewal is on its way: Stripe charges at the end of the period and reports `invoice.paid` about an hour
 * later, and without this margin every renewing member's listings would expire in between. A renewal that
 * has not arrived within it (a failed card) lets the membership expire.
 */
export const RENEWAL_GRACE_MS = DAY_MS;

/** How long before `expires_at` the owner is told the membership is about to expire (docs/api.md 10). */
export const EXPIRY_NOTICE_MS = 3 * DAY_MS;

/**
 * The end of `frequency` billing periods starting at `from`, or null for a one-time package, which never runs
 * out by date. Days and weeks are exact multiples of 24 hours (UTC has no daylight saving); months and years
 * follow the calendar and keep the time of day, ending on the same day of the month, or on the month's last
 * day when it is shorter: Jan 31 + 1 month is Feb 28 (Feb 29 in a leap year), Feb 29 + 1 year is Feb 28.
 * Each renewal adds its period to the previous end, so a month that was cut short stays short (Jan 31 →
 * Feb 28 → Mar 28): the end date never depends on anything but the one before it.
 */
export function periodEnd(from: Date, period: BillingPeriod, frequency: number): Date | null {
  switch (period) {
    case 'one_time':
      return null;
    case 'day':
      return new Date(from.getTime() + frequency * DAY_MS);
    case 'week':
      return new Date(from.getTime() + frequency * 7 * DAY_MS);
    case 'month':
      return addCalendarMonths(from, frequency);
    case 'year':
      return addCalendarMonths(from, frequency * 12);
  }
}

function addCalendarMonths(from: Date, months: number): Date {
  const year = from.getUTCFullYear();
  const month = from.getUTCMonth() + months;
  // Day 0 of the month after the target is the target's last day; Date.UTC carries months past December.
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const end = new Date(from.getTime());
  end.setUTCFullYear(year, month, Math.min(from.getUTCDate(), lastDay));
  return end;
}

/** The facts of a membership that decide until when it counts as active. */
export interface MembershipTerm {
  expires_at: string | null;
  auto_renew: number;
  stripe_subscription_id: string | null;
}

/**
 * The instant (stored ISO form) from which an active membership counts as expired: its `expires_at`, plus
 * RENEWAL_GRACE_MS when a Stripe subscription is still going to renew it. Null: it never expires by date.
 */
export function lapsesAt(term: MembershipTerm): string | null {
  if (term.expires_at === null) return null;
  if (!renewsBySubscription(term)) return term.expires_at;
  return new Date(Date.parse(term.expires_at) + RENEWAL_GRACE_MS).toISOString();
}

/** A Stripe subscription will renew the membership at the end of its period. */
function renewsBySubscription(term: Pick<MembershipTerm, 'auto_renew' | 'stripe_subscription_id'>): boolean {
  return term.auto_renew === 1 && term.stripe_subscription_id !== null;
}
