import type { ListingState } from './types';

/** The moves an owner makes on a listing (docs/api.md 3.3), as `action` of POST /users/property-actions. */
export type OwnerMove = 'submit_listing' | 'hold' | 'live' | 'sold';

const FROM: Record<OwnerMove, readonly ListingState[]> = {
  submit_listing: ['draft'],
  hold: ['publish'],
  live: ['on_hold', 'sold', 'expired'],
  sold: ['publish', 'on_hold'],
};

/** The owner moves the API allows from `state`, in the order the page shows them. */
export function allowedMoves(state: ListingState): OwnerMove[] {
  return (Object.keys(FROM) as OwnerMove[]).filter((move) => FROM[move].includes(state));
}
