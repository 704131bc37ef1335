import type { Kysely } from 'kysely';
import type { DB, ListingState, NewListing, UserRow } from '../../src/db/schema/index.js';
import type { TermLink } from '../../src/modules/properties/index.js';
import type { TermRecord } from '../../src/modules/taxonomies/taxonomies.schemas.js';
import { SITE_SESSION_COOKIE } from '../../src/site/session.js';
import type { TestApp } from '../helpers/app.js';
import { DEFAULT_PASSWORD, links, newAgencyWithAgent, newListing, newMedia, newTerm, newUser, unique } from '../helpers/factories.js';
import { parsePage } from '../helpers/html.js';

/** Listing pages as tests build and read them (test/site/listing*.test.ts, compare.test.ts). */

export const PUBLIC_URL = 'https://realty.example';
/** Posts a browser makes from the site's own pages. */
export const SAME_ORIGIN = { origin: PUBLIC_URL, 'content-type': 'application/x-www-form-urlencoded' };

export const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

/** Pictures attached to a listing, with the medium and large sizes the media module makes. */
export async function attachPictures(db: Kysely<DB>, ownerId: number, listingId: number, count: number, alt = '') {
  const ids: number[] = [];
  for (let position = 0; position < count; position++) {
    const key = unique('pictures/');
    const media = await newMedia(db, ownerId, {
      listing_id: listingId,
      position,
      width: 2400,
      height: 1600,
      alt,
      sizes: JSON.stringify({
        thumbnail: { key: `${key}-thumbnail.jpg`, width: 150, height: 150 },
        medium: { key: `${key}-medium.jpg`, width: 600, height: 400 },
        large: { key: `${key}-large.jpg`, width: 1200, height: 800 },
      }),
    });
    ids.push(media.id);
  }
  return ids;
}

export interface ListingWorld {
  seller: UserRow;
  agentUser: UserRow;
  agentId: number;
  agencyId: number;
  terms: {
    apartment: TermRecord;
    forSale: TermRecord;
    forRent: TermRecord;
    hot: TermRecord;
    pool: TermRecord;
    gym: TermRecord;
    country: TermRecord;
    state: TermRecord;
    city: TermRecord;
    area: TermRecord;
  };
}

export async function listingWorld(t: TestApp): Promise<ListingWorld> {
  const db = t.database.db;
  const { taxonomies } = t.services;
  const seller = await newUser(db, { role: 'seller', display_name: 'Sam Seller' });
  const { agentUser, agentId, agencyId } = await newAgencyWithAgent(db);
  await db
    .updateTable('agents')
    .set({ name: 'Ana Agent', phone: '+34 600 000 001', email: 'ana@agents.example' })
    .where('id', '=', agentId)
    .execute();
  const country = await newTerm(taxonomies, 'property_country', { name: 'Spain' });
  const state = await newTerm(taxonomies, 'property_state', { name: 'Andalusia' });
  const city = await newTerm(taxonomies, 'property_city', { name: unique('Marbella ') });
  const area = await newTerm(taxonomies, 'property_area', { name: 'Old Town' });
  return {
    seller,
    agentUser,
    agentId,
    agencyId,
    terms: {
      apartment: await newTerm(taxonomies, 'property_type', { name: 'Apartment', slug: unique('apartment-') }),
      forSale: await newTerm(taxonomies, 'property_status', { name: 'For Sale', slug: unique('for-sale-') }),
      forRent: await newTerm(taxonomies, 'property_status', { name: 'For Rent', slug: unique('for-rent-') }),
      hot: await newTerm(taxonomies, 'property_label', { name: 'Hot offer' }),
      pool: await newTerm(taxonomies, 'property_feature', { name: 'Swimming pool' }),
      gym: await newTerm(taxonomies, 'property_feature', { name: 'Gym' }),
      country,
      state,
      city,
      area,
    },
  };
}

/** A listing with something in every block: gallery, prices, rooms, text, plans, video, tour, map, agents. */
export async function fullListing(
  t: TestApp,
  world: ListingWorld,
  overrides: Partial<NewListing> & { status?: ListingState; terms?: TermLink[] } = {},
): Promise<{ id: number; slug: string }> {
  const db = t.database.db;
  const { terms } = world;
  const slug = unique('sea-view-flat-');
  const id = await newListing(db, {
    slug,
    title: 'Sea view flat',
    author_id: world.seller.id,
    price: 450000,
    currency: 'EUR',
    price_prefix: 'From',
    price_postfix: '',
    bedrooms: 3,
    bathrooms: 2,
    rooms: 5,
    garage: 1,
    garage_size: '20 m²',
    size: 120,
    size_unit: 'm2',
    land_size: 300,
    land_size_unit: 'm2',
    year_built: 2015,
    reference: 'REF-123',
    address: '12 Harbour Street',
    zipcode: '29601',
    latitude: 36.5101,
    longitude: -4.8825,
    description: '<p>A <strong>bright</strong> flat by the sea.</p>',
    excerpt: 'A bright flat by the sea.',
    additional_features: JSON.stringify([{ title: 'Heating', value: 'Underfloor' }]),
    floor_plans: JSON.stringify([
      {
        title: 'Ground floor',
        rooms: 3,
        bathrooms: 1,
        price: null,
        price_postfix: '',
        size: 80,
        size_postfix: 'm²',
        description: 'Living room and kitchen',
        image_url: 'https://plans.example/ground.png',
      },
    ]),
    video_url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
    virtual_tour: 'https://my.matterport.com/show/?m=SxQL3iGyoDo',
    agent_display: 'agent_info',
    agency_id: world.agencyId,
    terms: [
      ...links('property_type', terms.apartment),
      ...links('property_status', terms.forSale),
      ...links('property_label', terms.hot),
      ...links('property_feature', terms.pool, terms.gym),
      ...links('property_country', terms.country),
      ...links('property_state', terms.state),
      ...links('property_city', terms.city),
      ...links('property_area', terms.area),
    ],
    ...overrides,
  });
  await db.insertInto('listing_agents').values({ listing_id: id, agent_id: world.agentId, position: 0 }).execute();
  await attachPictures(db, world.seller.id, id, 3);
  return { id, slug: overrides.slug ?? slug };
}

/** The parts of the listing page's JSON-LD the tests read. */
export interface ListingLd {
  '@type': string;
  url: string;
  name: string;
  datePosted: string;
  offers: { '@type': string; price: number; priceCurrency: string; businessFunction: string; availability: string };
  mainEntity: Record<string, unknown> & { address: Record<string, string> };
}

export interface BreadcrumbLd {
  '@type': string;
  itemListElement: { name: string; item?: string }[];
}

/** A website session for `user`: the cookie header its requests carry, and the CSRF token of its forms. */
export async function siteVisitor(t: TestApp, user: UserRow, path = '/'): Promise<{ cookie: string; csrf: string }> {
  const session = await t.services.auth.browserSignIn({ username: user.username, password: DEFAULT_PASSWORD });
  const cookie = `${SITE_SESSION_COOKIE}=${session.secret}`;
  const page = await t.app.inject({ method: 'GET', url: path, headers: { cookie } });
  const csrf = parsePage(page.body).root.querySelector('input[name="csrf"]')?.getAttribute('value');
  if (!csrf) throw new Error(`no CSRF field on ${path}: ${page.statusCode}`);
  return { cookie, csrf };
}
