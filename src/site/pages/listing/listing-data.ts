import type { Language } from '../../../i18n/index.js';
import { AppError } from '../../../lib/errors.js';
import type { AuthUser } from '../../../lib/signed-in-user.js';
import { PUBLIC_STATES, type PropertyRecord } from '../../../modules/properties/index.js';
import type { SiteServices } from '../../site-services.js';
import type { ListedAgent, ListingContact } from './AgentCard.js';
import type { ListingPageData } from './ListingPage.js';
import type { ReviewAccess } from './ListingReviews.js';
import type { CalculatorState } from './MortgageCalculator.js';

/** Reviews shown per page of the listing's reviews. */
const REVIEWS_PER_PAGE = 5;
const SIMILAR_SHOWN = 4;

/** A record the visitor may not see answers 404; the block that would show it is then left out. */
async function unlessHidden<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (error instanceof AppError && error.status === 404) return null;
    throw error;
  }
}

/**
 * Who the listing shows, per `agent_display`: its agents (each with its record when its page is visible), its
 * agency, or its author. As the lead goes to the author when the chosen agents or agency are missing
 * (docs/api.md 6.3), the card then names the author too.
 */
async function contactOf(services: SiteServices, caller: AuthUser | null, listing: PropertyRecord): Promise<ListingContact> {
  const author: ListingContact =
    listing.author && listing.author.display_name ? { kind: 'author', name: listing.author.display_name } : null;
  switch (listing.agent_display) {
    case 'none':
      return null;
    case 'author_info':
      return author;
    case 'agency_info': {
      const agency = listing.agency && (await unlessHidden(services.agencies.get(listing.agency.id)));
      return agency ? { kind: 'agency', agency } : author;
    }
    case 'agent_info': {
      if (listing.agents.length === 0) return author;
      const agents = await Promise.all(
        listing.agents.map(async (summary): Promise<ListedAgent> => ({
          summary,
          record: await unlessHidden(services.agents.get(caller, summary.id)),
        })),
      );
      return { kind: 'agents', agents };
    }
  }
}

/** Everything the listing page shows besides the listing itself, read through the services as the API reads it. */
export async function listingPageData(
  services: SiteServices,
  caller: AuthUser | null,
  lang: Language,
  listing: PropertyRecord,
  { reviewsPage, calculator }: { reviewsPage: number; calculator: CalculatorState },
): Promise<ListingPageData> {
  const isPublic = PUBLIC_STATES.includes(listing.status);
  const [contact, reviews, similar] = await Promise.all([
    contactOf(services, caller, listing),
    services.reviews.list(caller, { type: 'property', id: listing.id }, { page: reviewsPage, per_page: REVIEWS_PER_PAGE }, lang),
    isPublic ? services.propertyLists.similar(caller, listing.id, { limit: SIMILAR_SHOWN }) : { properties: [] },
  ]);
  const reviewAccess: ReviewAccess = !isPublic ? 'none' : !caller ? 'sign-in' : listing.author?.id === caller.id ? 'none' : 'write';
  return { listing, isPublic, contact, reviews, reviewAccess, similar: similar.properties, calculator };
}
