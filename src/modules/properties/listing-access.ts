import type { ListingState } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import type { ListingAccess } from './listing-records.service.js';
import { LISTING_MODERATORS } from './properties.schemas.js';

/** States in which a listing is public (docs/api.md 4.2): everyone may read it. */
export const PUBLIC_STATES: readonly ListingState[] = ['publish', 'sold'];

export function isModerator(caller: AuthUser | null): boolean {
  return caller !== null && (LISTING_MODERATORS as readonly string[]).includes(caller.role);
}

/** The author, or the user of the agency whose agent is the author (docs/api.md 0.3). */
export function isOwner(caller: AuthUser | null, listing: ListingAccess): boolean {
  return caller !== null && (listing.authorId === caller.id || listing.authorAgencyUserId === caller.id);
}

export function canView(caller: AuthUser | null, listing: ListingAccess): boolean {
  return PUBLIC_STATES.includes(listing.status) || isOwner(caller, listing) || isModerator(caller);
}

/** A listing the caller cannot see is 404 (existence is not leaked); one they see but may not change is 403. */
export function assertCanManage(caller: AuthUser, listing: ListingAccess): void {
  if (isOwner(caller, listing) || isModerator(caller)) return;
  if (!canView(caller, listing)) throw AppError.notFound();
  throw new AppError('forbidden');
}

export function assertCanView(caller: AuthUser | null, listing: ListingAccess | undefined): asserts listing is ListingAccess {
  if (!listing || !canView(caller, listing)) throw AppError.notFound();
}
