import type { ExpressionBuilder, Selectable, Transaction } from 'kysely';
import type { DB, MembershipsTable } from '../../../db/schema/index.js';
import { EXPIRY_NOTICE_MS, RENEWAL_GRACE_MS } from './memberships.periods.js';
import type { Executor } from '../../../db/executor.js';

export type MembershipRow = Selectable<MembershipsTable>;

/** Membership storage (docs/api.md 10): one row per user, replaced by each package bought. */

export async function findMembershipOfUser(db: Executor, userId: number): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function findMemberships(db: Executor, ids: readonly number[]): Promise<MembershipRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('memberships').selectAll().where('id', 'in', ids).execute();
}

export async function findMembershipBySubscription(db: Executor, stripeSubscriptionId: string): Promise<MembershipRow | undefined> {
  return db.selectFrom('memberships').selectAll().where('stripe_subscription_id', '=', stripeSubscriptionId).executeTakeFirst();
}

/** A membership's figures for one period, as activation and renewal set them. */
export interface MembershipPeriod {
  packageId: number;
  remainingListings: number | null;
  remainingFeatured: number;
  expiresAt: string | null;
  at: string;
}

/**
 * Gives the user a fresh active membership of a package, replacing the one they had (one row per user, one
 * atomic upsert, so two activations at once leave one row, the last one's).
 */
export async function activateMembership(
  trx: Transaction<DB>,
  userId: number,
  period: MembershipPeriod & { autoRenew: boolean; stripeSubscriptionId: string | null },
): Promise<MembershipRow> {
  const fields = {
    package_id: period.packageId,
    status: 'active' as const,
    remaining_listings: period.remainingListings,
    remaining_featured: period.remainingFeatured,
    started_at: period.at,
    expires_at: period.expiresAt,
    auto_renew: period.autoRenew ? 1 : 0,
    stripe_subscription_id: period.stripeSubscriptionId,
    expiry_notice_at: null,
    updated_at: period.at,
  };
  return trx
    .insertInto('memberships')
    .values({ user_id: userId, ...fields, created_at: period.at })
    .onConflict((oc) => oc.column('user_id').doUpdateSet(fields))
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * A renewal's new period: credits back to the package's, a new `expires_at`, active again (a renewal that
 * arrives after the membership lapsed revives it), and a new expiry notice due.
 */
export async function renewMembership(trx: Transaction<DB>, membershipId: number, period: MembershipPeriod): Promise<void> {
  await trx
    .updateTable('memberships')
    .set({
      package_id: period.packageId,
      status: 'active',
      remaining_listings: period.remainingListings,
      remaining_featured: period.remainingFeatured,
      expires_at: period.expiresAt,
      expiry_notice_at: null,
      updated_at: period.at,
    })
    .where('id', '=', membershipId)
    .execute();
}

/** No more renewals for the membership of a subscription; a no-op when there is none or it is already off. */
export async function stopRenewalOfSubscription(trx: Transaction<DB>, stripeSubscriptionId: string, at: string): Promise<void> {
  await trx
    .updateTable('memberships')
    .set({ auto_renew: 0, updated_at: at })
    .where('stripe_subscription_id', '=', stripeSubscriptionId)
    .where('auto_renew', '=', 1)
    .execute();
}

/**
 * Turns renewal off for the membership as it was read: a package bought meanwhile replaces the row's content
 * (same id, new `started_at`) and keeps its own renewal. The row as it is afterwards.
 */
export async function stopRenewal(db: Executor, read: Pick<MembershipRow, 'id' | 'started_at'>, at: string): Promise<MembershipRow> {
  await db
    .updateTable('memberships')
    .set({ auto_renew: 0, updated_at: at })
    .where('id', '=', read.id)
    .where('started_at', '=', read.started_at)
    .where('auto_renew', '=', 1)
    .execute();
  return db.selectFrom('memberships').selectAll().where('id', '=', read.id).executeTakeFirstOrThrow();
}

export async function isStripeInvoiceRecorded(db: Executor, stripeInvoiceId: string): Promise<boolean> {
  const row = await db.selectFrom('invoices').select('id').where('stripe_invoice_id', '=', stripeInvoiceId).executeTakeFirst();
  return row !== undefined;
}

/**
 * Sets an invoice's tax so that its total is what the provider charged, for the rare renewal whose total no
 * whole pre-tax amount reaches at the package's rate (rounded tax skips some totals).
 */
export async function setInvoiceTotal(trx: Transaction<DB>, invoiceId: number, amountMinor: number, totalMinor: number): Promise<void> {
  await trx
    .updateTable('invoices')
    .set({ tax_minor: totalMinor - amountMinor, total_minor: totalMinor })
    .where('id', '=', invoiceId)
    .execute();
}

export async function findBuyer(db: Executor, userId: number): Promise<{ display_name: string; email: string } | undefined> {
  return db.selectFrom('users').select(['display_name', 'email']).where('id', '=', userId).executeTakeFirst();
}

// The expiry job

/** What the job tells the owner about: the membership, its package and the end of its period. */
export interface MembershipNotice {
  id: number;
  user_id: number;
  package_id: number;
  expires_at: string;
  auto_renew: number;
}

const NOTICE_COLUMNS = ['id', 'user_id', 'package_id', 'expires_at', 'auto_renew'] as const;

/** Active memberships ending within EXPIRY_NOTICE_MS of `now` whose owner has not been told this period. */
export async function findDueForNotice(db: Executor, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('id')
    .where('status', '=', 'active')
    .where('expiry_notice_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', noticeHorizon(now))
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Marks those of `ids` still due a notice as told; returns the ones it marked. The conditions are checked
 * again in the update, so of two jobs racing for a membership only one marks it (and tells its owner), and
 * one renewed in the meantime is skipped.
 */
export async function markNoticed(db: Executor, ids: readonly number[], now: string): Promise<MembershipNotice[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('memberships')
    .set({ expiry_notice_at: now, updated_at: now })
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .where('expiry_notice_at', 'is', null)
    .where('expires_at', '>', now)
    .where('expires_at', '<=', noticeHorizon(now))
    .returning(NOTICE_COLUMNS)
    .execute();
  return rows.map(withExpiry);
}

/**
 * Active memberships past their end at `now`: past `expires_at`, or past it by RENEWAL_GRACE_MS for one a
 * Stripe subscription still renews (memberships.periods.ts lapsesAt), oldest first.
 */
export async function findDueForExpiry(db: Executor, now: string, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('memberships')
    .select('id')
    .where('status', '=', 'active')
    .where((eb) => lapsedBy(eb, now))
    .orderBy('expires_at')
    .orderBy('id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.id);
}

/** Moves those of `ids` still active and lapsed to `expired`; returns the ones it moved (see markNoticed). */
export async function expireMemberships(db: Executor, ids: readonly number[], now: string): Promise<MembershipNotice[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .updateTable('memberships')
    .set({ status: 'expired', updated_at: now })
    .where('id', 'in', ids)
    .where('status', '=', 'active')
    .where((eb) => lapsedBy(eb, now))
    .returning(NOTICE_COLUMNS)
    .execute();
  return rows.map(withExpiry);
}

function noticeHorizon(now: string): string {
  return new Date(Date.parse(now) + EXPIRY_NOTICE_MS).toISOString();
}

/** The SQL form of memberships.periods.ts lapsesAt(...) <= now (null for a membership without an end). */
export function lapsedBy(eb: ExpressionBuilder<DB, 'memberships'>, now: string) {
  const graceCutoff = new Date(Date.parse(now) - RENEWAL_GRACE_MS).toISOString();
  return eb.or([
    eb.and([eb('expires_at', '<=', now), eb.or([eb('auto_renew', '=', 0), eb('stripe_subscription_id', 'is', null)])]),
    eb.and([eb('expires_at', '<=', graceCutoff), eb('auto_renew', '=', 1), eb('stripe_subscription_id', 'is not', null)]),
  ]);
}

function withExpiry(row: Omit<MembershipNotice, 'expires_at'> & { expires_at: string | null }): MembershipNotice {
  return { ...row, expires_at: row.expires_at ?? '' };
}
