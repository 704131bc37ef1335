import { formsRateLimit } from '../../http/rate-limit.js';
import type { DirectoryServices } from '../directory/index.js';
import type { AppModule, Platform } from '../module.js';
import type { PropertiesServices } from '../properties/index.js';
import { reviewRoutes } from './reviews.routes.js';
import { Review, UserReview } from './reviews.schemas.js';
import { ReviewsService } from './reviews.service.js';

export interface ReviewsServices {
  /** Reviews of listings, agents and agencies, and their reactions. */
  reviews: ReviewsService;
}

/** Reviews (docs/api.md 6.1). */
export function createReviewsModule(
  { config, database, stamps, storage }: Platform,
  {
    properties,
    listingRatings,
    agents,
    agencies,
    directoryRatings,
  }: Pick<PropertiesServices, 'properties' | 'listingRatings'> & Pick<DirectoryServices, 'agents' | 'agencies' | 'directoryRatings'>,
): AppModule<ReviewsServices> {
  const reviews = new ReviewsService(
    database.db,
    stamps,
    properties,
    storage,
    { agents, agencies },
    {
      listings: listingRatings,
      directory: directoryRatings,
    },
  );
  return {
    services: { reviews },
    schemas: [Review, UserReview],
    routes: async (api) => {
      await api.register(reviewRoutes, { reviews, formsRateLimit: formsRateLimit(config) });
    },
  };
}

export { CreateReviewBody, type CreateReviewInput, type ReviewListRecord, type ReviewRecord } from './reviews.schemas.js';
export { ListingReviewRows } from './listing-review-rows.service.js';
