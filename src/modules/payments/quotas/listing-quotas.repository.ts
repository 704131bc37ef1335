import type { Executor } from '../../../db/executor.js';

/**
 * Whether the user has a membership that credits could be spent from (active, not past `expires_at`): tells
 * "no membership" from "no credits left" once spending one failed, so that the 402 says what to do.
 */
export async function hasLiveMembership(db: Executor, userId: number, at: string): Promise<boolean> {
  const row = await db
    .selectFrom('memberships')
    .select('id')
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', at)]))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Whether the listing's fee is paid (`per_listing` mode): a paid `listing` invoice for it (index
 * invoices_item_idx). An invoice an administrator archived no longer counts: it is deleted for every purpose
 * but accounting.
 */
export async function isListingFeePaid(db: Executor, listingId: number): Promise<boolean> {
  const row = await db
    .selectFrom('invoices')
    .select('id')
    .where('item_type', '=', 'listing')
    .where('item_id', '=', listingId)
    .where('status', '=', 'paid')
    .where('archived_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
