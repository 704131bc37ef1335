/** One measured request: the real route, and the least real/bare throughput ratio it must reach. */
export interface Scenario {
  name: string;
  /** Path on the API server, query string included. */
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
];

/** The API server's resident memory after every scenario has run must stay below this. */
export const MEMORY_TARGET_MB = 200;
