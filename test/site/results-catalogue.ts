import { expect } from 'vitest';
import type { ListingState, NewListing } from '../../src/db/schema/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/index.js';
import type { TestApp } from '../helpers/app.js';
import { links, newListing, newTerm, newUser } from '../helpers/factories.js';
import { parsePage } from '../helpers/html.js';

/**
 * The data the results and landing page tests search: places in a hierarchy (USA › Florida › Miami › Brickell,
 * Tampa), three types, two statuses, two features, prices in two currencies, a studio, and enough listings in
 * Miami for two pages of 20.
 */
export interface Catalogue {
  terms: Record<string, TermRecord>;
  /** Published listings by name; fillers are `filler0`…`filler21`. */
  ids: Record<string, number>;
}

const FILLERS = 22;

export async function makeCatalogue(t: TestApp): Promise<Catalogue> {
  const db = t.database.db;
  const tax = t.services.taxonomies;
  const usa = await newTerm(tax, 'property_country', { name: 'USA', slug: 'usa' });
  const florida = await newTerm(tax, 'property_state', { name: 'Florida', slug: 'florida', country_id: usa.id });
  const miami = await newTerm(tax, 'property_city', { name: 'Miami', slug: 'miami', state_id: florida.id });
  const tampa = await newTerm(tax, 'property_city', { name: 'Tampa', slug: 'tampa', state_id: florida.id });
  const brickell = await newTerm(tax, 'property_area', { name: 'Brickell', slug: 'brickell', city_id: miami.id });
  const terms: Record<string, TermRecord> = {
    usa,
    florida,
    miami,
    tampa,
    brickell,
    apartment: await newTerm(tax, 'property_type', { name: 'Apartment', slug: 'apartment' }),
    villa: await newTerm(tax, 'property_type', { name: 'Villa', slug: 'villa' }),
    house: await newTerm(tax, 'property_type', { name: 'House', slug: 'house' }),
    sale: await newTerm(tax, 'property_status', { name: 'For Sale', slug: 'for-sale' }),
    rent: await newTerm(tax, 'property_status', { name: 'For Rent', slug: 'for-rent' }),
    pool: await newTerm(tax, 'property_feature', { name: 'Pool', slug: 'pool' }),
    gym: await newTerm(tax, 'property_feature', { name: 'Gym', slug: 'gym' }),
  };
  const T = terms as Record<string, TermRecord>;
  const seller = await newUser(db, { role: 'seller' });
  let day = 0;
  const listing = async (
    title: string,
    place: TermRecord[],
    type: TermRecord,
    status: TermRecord,
    spec: Partial<NewListing> & { features?: TermRecord[]; state?: ListingState } = {},
  ) => {
    const { features = [], state = 'publish', ...rest } = spec;
    const published = new Date(Date.UTC(2026, 0, 1 + day++)).toISOString();
    return newListing(db, {
      title,
      author_id: seller.id,
      status: state,
      published_at: state === 'draft' ? null : published,
      currency: 'USD',
      terms: [
        ...links('property_type', type),
        ...links('property_status', status),
        ...links('property_feature', ...features),
        ...place.flatMap((term) => links(placeTaxonomy(term, T), term)),
      ],
      ...rest,
    });
  };
  const inMiami = [usa, florida, miami];
  const ids: Record<string, number> = {
    sunny: await listing('Sunny apartment in Brickell', [...inMiami, brickell], T.apartment!, T.sale!, {
      price: 300_000,
      bedrooms: 2,
      bathrooms: 1,
      size: 900,
      latitude: 25.76,
      longitude: -80.19,
      features: [T.pool!],
    }),
    ocean: await listing('Ocean villa with a pool', inMiami, T.villa!, T.sale!, {
      price: 1_200_000,
      bedrooms: 4,
      bathrooms: 3,
      size: 3000,
      latitude: 25.79,
      longitude: -80.13,
      features: [T.pool!, T.gym!],
    }),
    studio: await listing('Studio loft downtown', inMiami, T.apartment!, T.rent!, {
      price: 2000,
      bedrooms: 0,
      bathrooms: 1,
      size: 400,
      latitude: 25.77,
      longitude: -80.2,
    }),
    family: await listing('Tampa family house', [usa, florida, tampa], T.house!, T.sale!, {
      price: 450_000,
      bedrooms: 3,
      bathrooms: 2,
      latitude: 27.95,
      longitude: -82.46,
    }),
    euroFlat: await listing('Tampa flat priced in euros', [usa, florida, tampa], T.apartment!, T.sale!, {
      price: 250_000,
      currency: 'EUR',
      bedrooms: 2,
      latitude: 27.96,
      longitude: -82.45,
    }),
    euroVilla: await listing('Tampa villa priced in euros', [usa, florida, tampa], T.villa!, T.sale!, {
      price: 320_000,
      currency: 'EUR',
      bedrooms: 5,
    }),
    sold: await listing('Sold bungalow in Miami', inMiami, T.house!, T.sale!, { price: 500_000, state: 'sold' }),
    draft: await listing('Draft cottage in Miami', inMiami, T.house!, T.sale!, { state: 'draft' }),
  };
  for (let i = 0; i < FILLERS; i++) {
    ids[`filler${i}`] = await listing(`Filler apartment ${i}`, inMiami, T.apartment!, T.sale!, {
      price: 100_000 + i * 10_000,
      bedrooms: 1 + (i % 3),
      bathrooms: 1,
      size: 500 + i * 10,
      latitude: 25.7 + i / 1000,
      longitude: -80.3 + i / 1000,
    });
  }
  return { terms, ids };
}

function placeTaxonomy(term: TermRecord, terms: Record<string, TermRecord>) {
  if (term.id === terms.usa?.id) return 'property_country' as const;
  if (term.id === terms.florida?.id) return 'property_state' as const;
  if (term.id === terms.brickell?.id) return 'property_area' as const;
  return 'property_city' as const;
}

/** GETs a page, following the site's redirects (at most three), and answers the last response with the path it came from. */
export async function visit(t: TestApp, url: string, headers: Record<string, string> = {}) {
  let path = url;
  for (let hops = 0; hops < 3; hops++) {
    const res = await t.app.inject({ method: 'GET', url: path, headers });
    if (res.statusCode !== 301 && res.statusCode !== 303) return { res, path };
    path = String(res.headers.location).replace(/^https?:\/\/[^/]+/, '');
  }
  throw new Error(`too many redirects from ${url}`);
}

/** The slugs of the cards on a results page, in order. */
export function cardSlugs(html: string): string[] {
  return parsePage(html)
    .root.querySelectorAll('.results__cards .card__title a')
    .map((link) => decodeURIComponent(link.getAttribute('href')!.replace(/^(\/[a-z]{2})?\/property\//, '')));
}

/** The listings the API answers for a search, by slug, with its facets. */
export async function apiSearch(t: TestApp, query: string) {
  const res = await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/search?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  const data = res.json().data as {
    properties: { slug: string }[];
    pagination: { total_records: number };
    facets?: Record<string, { value: unknown; name: string; count: number }[]>;
  };
  return { slugs: data.properties.map((listing) => listing.slug), total: data.pagination.total_records, facets: data.facets ?? {} };
}

/** The facet lists of a results page: per facet, its values' names, counts, links and whether each is chosen. */
export function facetsOf(html: string) {
  const facets: Record<string, { name: string; count: string; href: string; active: boolean; rel: string | undefined }[]> = {};
  for (const section of parsePage(html).root.querySelectorAll('.facet')) {
    const id = section.querySelector('h3')!.getAttribute('id')!.replace('facet-', '');
    facets[id] = section.querySelectorAll('a').map((link) => ({
      name: link.querySelector('.facet__name')!.text,
      count: link.querySelector('.facet__count')!.text,
      href: link.getAttribute('href')!,
      active: link.hasAttribute('data-active'),
      rel: link.getAttribute('rel'),
    }));
  }
  return facets;
}
