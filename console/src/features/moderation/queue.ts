import type { Schemas } from '@realty-api/client';

/**
 * Where the moderation queue reads listings awaiting approval: GET /properties/moderation (docs/api.md 3.3)
 * lists every user's listings to administrators and managers (others get 403), in one state.
 */
export const QUEUE_LIST_PATH = '/properties/moderation';
export const QUEUE_ITEMS_KEY = 'properties';
/** Pending listings (the route's default, said outright), the most recently changed first (its default order). */
export const QUEUE_QUERY = { status: 'pending' } as const;
export const QUEUE_RESOURCE = 'moderation-queue';
export const QUEUE_PAGE_SIZE = 20;

/** A listing summary (docs/api.md 4.1) as the queue lists it. */
export type QueueListing = Schemas['PropertySummary'];

type Picture = Pick<Schemas['Media'], 'url' | 'sizes'>;

/** The smallest image of a listing worth showing as a thumbnail, or null when it has none. */
export function thumbnailOf(listing: { featured_image: Picture | null; gallery: readonly Picture[] }): string | null {
  const image = listing.featured_image ?? listing.gallery[0] ?? null;
  if (!image) return null;
  return image.sizes.thumbnail?.url ?? image.sizes.medium?.url ?? image.url;
}

/** A listing's place in one line: street, city, state, country, whichever are set. */
export function placeOf(listing: {
  address: Pick<QueueListing['address'], 'address'> & Record<'city' | 'state' | 'country', { name: string } | null>;
}): string {
  const address = listing.address;
  return [address.address, address.city?.name, address.state?.name, address.country?.name]
    .filter((part) => part && part.trim() !== '')
    .join(', ');
}

/** A state move of a listing: `approve` or `disapprove` (docs/api.md 3.3). */
export type ModerationAction = 'approve' | 'disapprove';

/** The route and body of a move; a disapproval carries its reason, trimmed. */
export function moveRequest(action: ModerationAction, id: number, reason?: string): { url: string; values: Record<string, string> } {
  return action === 'approve'
    ? { url: `/users/approve-property/${id}`, values: {} }
    : { url: `/users/disapprove-property/${id}`, values: { reason: (reason ?? '').trim() } };
}

/** The API keeps at most this many characters of a reason (moderation.schemas.ts). */
export const REASON_MAX = 2000;

/** Whether a disapproval reason is acceptable: something besides spaces, at most `max` characters. */
export function reasonProblem(reason: string, max = REASON_MAX): 'required' | 'too_long' | null {
  const trimmed = reason.trim();
  if (trimmed === '') return 'required';
  return trimmed.length > max ? 'too_long' : null;
}
