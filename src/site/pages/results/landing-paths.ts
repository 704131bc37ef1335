import type { TaxonomyFilter } from '../../../modules/search/index.js';

/**
 * Landing pages (docs/site.md): `/properties/<facet>/<slug>[/<facet>/<slug>…]`, a search by one term of each of
 * these facets, written in this one order (`/properties/status/for-sale/type/apartment/city/miami`). They are the
 * indexable pages of the results, each with its own title; any other filter stays in the query string.
 */
export const LANDING_FACETS = ['status', 'type', 'country', 'state', 'city', 'area'] as const satisfies readonly TaxonomyFilter[];
export type LandingFacet = (typeof LANDING_FACETS)[number];

/** The places among the landing facets, most specific first (the place a title names). */
export const PLACE_FACETS = ['area', 'city', 'state', 'country'] as const satisfies readonly LandingFacet[];

export const RESULTS_PATH = '/properties';

/** One facet of a landing path and the slug it names. */
export interface PathFacet {
  readonly facet: LandingFacet;
  readonly slug: string;
}

/** A slug as slugify() makes them: letters and digits of any script, single hyphens (search-query.ts reads the same). */
const SLUG = /^[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*$/u;

const isLandingFacet = (name: string): name is LandingFacet => (LANDING_FACETS as readonly string[]).includes(name);

/**
 * The facets of the path after `/properties/` (decoded), in the order written; null when it cannot be a landing
 * page (an unknown facet, a facet twice, a facet without its slug, a slug no term could have): a 404.
 */
export function parseLandingPath(rest: string): PathFacet[] | null {
  const segments = rest.split('/');
  if (segments.at(-1) === '') segments.pop(); // a trailing slash
  if (segments.length === 0 || segments.length % 2 !== 0) return null;
  const facets: PathFacet[] = [];
  for (let i = 0; i < segments.length; i += 2) {
    const facet = segments[i]!;
    const slug = segments[i + 1]!.toLowerCase();
    if (!isLandingFacet(facet) || !SLUG.test(slug) || slug.length > 200) return null;
    if (facets.some((known) => known.facet === facet)) return null;
    facets.push({ facet, slug });
  }
  return facets;
}
