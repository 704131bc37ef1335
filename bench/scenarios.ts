/** One measured request: the real route, and the least real/bare throughput ratio it must reach. */
export interface Scenario {
  name: string;
  /**
   * Path on the API server, query string included. `{published_listing_id}` stands for the id of a published
   * listing of the prepared data, `{reviewed_listing_id}` for the published listing with the most reviews
   * (bench/prepare-data.ts).
   */
  path: string;
  /** Least acceptable real/bare throughput ratio (0.5 = half the bare route's req/s). */
  targetRatio: number;
  /** Default GET. */
  method?: 'GET' | 'POST';
  /** Sends a bearer token of a freshly registered user: measures the authentication of every request. */
  signedIn?: boolean;
}

export const SCENARIOS: readonly Scenario[] = [
  { name: 'property types (200 terms)', path: '/realty-api/v1/property-types', targetRatio: 0.5 },
  {
    name: 'features hide_empty by count',
    path: '/realty-api/v1/property-features?hide_empty=true&orderby=count&order=DESC',
    targetRatio: 0.5,
  },
  // The bearer check alone (token signature + session), answered from the process's session cache.
  { name: 'validate-token (signed in)', path: '/realty-api/v1/auth/validate-token', method: 'POST', signedIn: true, targetRatio: 0.35 },
  // Listings, on 100,000 of them: one full record, and the first page of the default list (newest first).
  { name: 'one listing', path: '/realty-api/v1/properties/{published_listing_id}', targetRatio: 0.35 },
  { name: 'listings, page of 20', path: '/realty-api/v1/properties?per_page=20', targetRatio: 0.15 },
  // The directory and reviews: a page of 20 agents (default order, by name), and a listing's reviews.
  { name: 'agents, page of 20', path: '/realty-api/v1/agents?per_page=20', targetRatio: 0.25 },
  { name: 'reviews of a listing', path: '/realty-api/v1/properties/{reviewed_listing_id}/reviews', targetRatio: 0.25 },
];

/** The API server's resident memory after every scenario has run must stay below this. */
export const MEMORY_TARGET_MB = 200;
