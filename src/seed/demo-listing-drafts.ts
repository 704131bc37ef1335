import type { ListingState, NewListing } from '../db/schema/index.js';
import { between, integerBetween, pick, pickWeighted, type Random, shuffle } from '../lib/random.js';
import { slugify, sortKey } from '../lib/slug.js';
import { excerptOf } from '../lib/text.js';
import type { TermLink } from '../modules/properties/index.js';
import { searchColumnsOf } from '../lib/search-columns.js';
import type { DemoDirectory } from './demo-directory.js';
import type { DemoImage } from './demo-images.js';
import { FEATURE_COUNT, FEATURES_BY_KIND, PRICE_SPREAD, type TypeProfile } from './demo-listing-types.js';
import { type AreaProfile, type CityProfile, SQFT_PER_M2 } from './demo-places.js';

/** The demo terms a listing can use, by their ids in this database. */
export interface DemoTermIds {
  types: readonly { profile: TypeProfile; termId: number }[];
  forSale: number;
  forRent: number;
  newConstruction: number;
  /** Label and feature term ids by name. */
  labels: ReadonlyMap<string, number>;
  features: ReadonlyMap<string, number>;
  places: readonly DemoPlace[];
}

export interface DemoPlace {
  city: CityProfile;
  countryId: number;
  stateId: number;
  cityId: number;
  areas: readonly { area: AreaProfile; termId: number }[];
}

export interface DraftContext {
  terms: DemoTermIds;
  directory: DemoDirectory;
  images: readonly DemoImage[];
  now: Date;
}

/** One generated listing: its row (with its search columns), its term links, the agents it names and its gallery pictures in order. */
export interface DemoListingDraft {
  row: NewListing;
  terms: TermLink[];
  agentIds: number[];
  gallery: DemoImage[];
}

const DAY_MS = 86_400_000;
const M2_PER_ACRE = 4_046.86;
/** Farmland lies outside the streets of its area: no street address. */
const FARMLAND = 'Agricultural Land';
/** Features only a city by the sea can offer. */
const COASTAL_FEATURES = ['Sea View'];
/** Published listings spread over this many days before now. */
const PUBLISHED_OVER_DAYS = 730;
const RENTAL_SHARE = 0.3;
const NEW_CONSTRUCTION_SHARE = 0.08;
const PRIVATE_SELLER_SHARE = 0.15;
const LABEL_SHARE = 0.25;
const FEATURED_SHARE = 0.06;

const RESIDENTIAL_ADJECTIVES = [
  'Bright',
  'Spacious',
  'Modern',
  'Renovated',
  'Charming',
  'Elegant',
  'Sunny',
  'Stylish',
  'Cozy',
  'Luxurious',
  'Quiet',
  'Light-Filled',
];
const COMMERCIAL_ADJECTIVES = ['Prime', 'Modern', 'Corner', 'Bright', 'Refurbished', 'Spacious', 'Well-Located', 'Flexible'];
const CONDITIONS = [
  'has been carefully maintained',
  'was fully renovated two years ago',
  'keeps many original details',
  'has been updated throughout',
];
const SURROUNDINGS = [
  'Shops, cafés and public transport are within walking distance.',
  'It sits on a quiet street close to schools and parks.',
  'Restaurants, galleries and the neighbourhood market are a few minutes away.',
  'Good road links and public transport reach the city centre quickly.',
];

/** Generates listing number `n` of a demo seed: every value drawn from `random`, in a fixed order. */
export function draftListing(random: Random, context: DraftContext, n: number): DemoListingDraft {
  const { terms, directory, now } = context;
  const place = pickWeighted(terms.places, (p) => p.city.weight, random);
  const { area, termId: areaId } = pick(place.areas, random);
  const type = pickWeighted(terms.types, (t) => t.profile.weight, random);
  const profile = type.profile;
  const city = place.city;
  const rental = profile.rentable && random() < RENTAL_SHARE;
  const newConstruction = !rental && profile.kind === 'residential' && random() < NEW_CONSTRUCTION_SHARE;

  const bedrooms = profile.bedrooms ? integerBetween(random, ...profile.bedrooms) : null;
  const floorM2 = floorSizeOf(random, profile, bedrooms);
  const landM2 = profile.landM2 ? roundTo(between(random, ...profile.landM2), profile.kind === 'land' ? 10 : 5) : null;
  const rooms = roomsOf(random, profile, bedrooms, floorM2);
  const price = priceOf(random, city, area, profile, rental, floorM2 ?? landM2 ?? 0);
  const thisYear = now.getUTCFullYear();
  // Older buildings are rarer on the market than recent ones.
  const yearBuilt =
    profile.kind === 'land'
      ? null
      : newConstruction
        ? thisYear + integerBetween(random, 0, 2)
        : thisYear - 1 - Math.floor((thisYear - 1 - city.builtSince) * random() ** 1.3);

  const seller = sellerOf(random, directory, city.state);
  const state = stateOf(random, rental);
  const dates = datesOf(random, state, now);
  const featureNames = featuresOf(random, profile, city, terms);
  const labels = labelsFor(rental, seller.agencyId !== null, dates.publishedAt, now).filter((name) => terms.labels.has(name));
  const labelName = random() < LABEL_SHARE && labels.length > 0 ? pick(labels, random) : null;

  const unit = city.sizeUnit === 'sqft' ? 'sq ft' : 'm²';
  const toUnit = (m2: number) => (city.sizeUnit === 'sqft' ? Math.round(m2 * SQFT_PER_M2) : m2);
  const plot = landM2 === null ? '' : plotSize(profile, city, landM2);
  const title = titleOf(random, profile, bedrooms, area, city, plot);
  const size = floorM2 === null ? plot : `${toUnit(floorM2).toLocaleString('en-US')} ${unit}`;
  const description = descriptionOf(random, {
    profile,
    rooms,
    area,
    city,
    yearBuilt,
    newConstruction,
    rental,
    featureNames,
    seller: seller.kind,
    size,
  });

  const row: NewListing = {
    slug: `${slugify(title)}-${n}`,
    title,
    sort_title: sortKey(title),
    description,
    excerpt: excerptOf(description),
    status: state,
    author_id: seller.authorId,
    reference: seller.referencePrefix ? `${seller.referencePrefix}-${String(n).padStart(6, '0')}` : '',
    price,
    second_price: null,
    currency: city.currency,
    price_prefix: newConstruction ? 'From' : '',
    price_postfix: rental ? '/month' : '',
    bedrooms: rooms.bedrooms,
    bathrooms: rooms.bathrooms,
    rooms: rooms.rooms,
    garage: rooms.garage,
    garage_size: rooms.garage ? (city.sizeUnit === 'sqft' ? `${rooms.garage * 180} sq ft` : `${rooms.garage * 16} m²`) : '',
    size: floorM2 === null ? null : toUnit(floorM2),
    size_unit: city.sizeUnit,
    land_size: landM2 === null ? null : toUnit(landM2),
    land_size_unit: city.sizeUnit,
    year_built: yearBuilt,
    featured: state === 'publish' && random() < FEATURED_SHARE ? 1 : 0,
    address: profile.name === FARMLAND ? '' : addressOf(random, city, area),
    zipcode: area.zipcodes.length > 0 ? pick(area.zipcodes, random) : '',
    ...pointIn(random, area),
    video_url: '',
    virtual_tour: '',
    views: dates.publishedAt ? Math.floor(random() * ((now.getTime() - Date.parse(dates.publishedAt)) / DAY_MS) * 4) : 0,
    agency_id: seller.agencyId,
    agent_display: seller.display,
    additional_features: JSON.stringify(additionalFeaturesOf(random, profile, rental)),
    floor_plans: JSON.stringify(floorPlansOf(random, profile, rooms, floorM2, toUnit, unit)),
    created_at: dates.createdAt,
    updated_at: dates.updatedAt,
    published_at: dates.publishedAt,
    expires_at: null,
  };

  const links: TermLink[] = [
    { termId: type.termId, taxonomy: 'property_type' },
    { termId: rental ? terms.forRent : terms.forSale, taxonomy: 'property_status' },
    ...(newConstruction ? [{ termId: terms.newConstruction, taxonomy: 'property_status' as const }] : []),
    ...(labelName ? [{ termId: terms.labels.get(labelName) as number, taxonomy: 'property_label' as const }] : []),
    ...featureNames.map((name) => ({ termId: terms.features.get(name) as number, taxonomy: 'property_feature' as const })),
    { termId: place.countryId, taxonomy: 'property_country' },
    { termId: place.stateId, taxonomy: 'property_state' },
    { termId: place.cityId, taxonomy: 'property_city' },
    { termId: areaId, taxonomy: 'property_area' },
  ];
  // Computed here, on the drafting thread (demo-draft-batches.ts), rather than by the bulk writer.
  return {
    row: Object.assign(row, searchColumnsOf(row)),
    terms: links,
    agentIds: seller.agentIds,
    gallery: galleryOf(random, profile, context.images),
  };
}

/** The price follows the city, the area and the type (per m² of floor, or of plot for land), within ±20 %. */
function priceOf(random: Random, city: CityProfile, area: AreaProfile, profile: TypeProfile, rental: boolean, m2: number): number {
  const perM2 = (rental ? city.rentPerM2 : city.salePerM2) * area.priceFactor * profile.priceFactor;
  const price = m2 * perM2 * between(random, 1 - PRICE_SPREAD, 1 + PRICE_SPREAD);
  if (rental) return Math.max(10, roundTo(price, price < 5_000 ? 10 : 50));
  return Math.max(1_000, roundTo(price, price < 1_000_000 ? 1_000 : 5_000));
}

interface Rooms {
  bedrooms: number | null;
  bathrooms: number | null;
  rooms: number | null;
  garage: number | null;
}

/** Floor space within the type's range, larger with more bedrooms. */
function floorSizeOf(random: Random, profile: TypeProfile, bedrooms: number | null): number | null {
  if (!profile.floorM2) return null;
  const [min, max] = profile.floorM2;
  const [fewest, most] = profile.bedrooms ?? [0, 0];
  const share = bedrooms === null || most === fewest ? random() : (bedrooms - fewest + random()) / (most - fewest + 1);
  return Math.round(min + (max - min) * share);
}

function roomsOf(random: Random, profile: TypeProfile, bedrooms: number | null, floorM2: number | null): Rooms {
  if (profile.kind === 'land' || floorM2 === null) return { bedrooms: null, bathrooms: null, rooms: null, garage: null };
  if (bedrooms === null) {
    const rooms = integerBetween(random, 1, Math.max(1, Math.min(40, Math.floor(floorM2 / 60))));
    return {
      bedrooms: null,
      bathrooms: integerBetween(random, 1, Math.max(1, Math.min(12, Math.floor(floorM2 / 150)))),
      rooms,
      garage: integerBetween(random, 0, 10),
    };
  }
  const bathrooms = Math.max(1, Math.round(bedrooms * 0.7 + random()));
  const house = profile.landM2 !== null;
  const garage = house ? integerBetween(random, 1, 3) : random() < 0.4 && bedrooms > 0 ? 1 : 0;
  return { bedrooms, bathrooms, rooms: bedrooms + 1 + integerBetween(random, 0, 2), garage };
}

interface Seller {
  kind: 'agency' | 'owner';
  authorId: number;
  agencyId: number | null;
  agentIds: number[];
  display: 'agent_info' | 'agency_info' | 'author_info';
  referencePrefix: string;
}

/**
 * Most listings come from an agency working in the listing's state: written by one of its agents (who is
 * named, sometimes with a colleague) or by the agency itself (naming one agent). The rest come from private
 * owners and sellers, who name no agent.
 */
function sellerOf(random: Random, directory: DemoDirectory, state: string): Seller {
  const agencies = directory.agencies.filter((agency) => agency.states.includes(state));
  if (agencies.length === 0 || random() < PRIVATE_SELLER_SHARE) {
    return {
      kind: 'owner',
      authorId: pick(directory.privateSellers, random),
      agencyId: null,
      agentIds: [],
      display: 'author_info',
      referencePrefix: '',
    };
  }
  const agency = pick(agencies, random);
  const agent = pick(agency.agents, random);
  const common = { kind: 'agency' as const, agencyId: agency.agencyId, referencePrefix: agency.referencePrefix };
  if (random() < 0.25) return { ...common, authorId: agency.userId, agentIds: [agent.agentId], display: 'agency_info' };
  const colleague = random() < 0.2 ? agency.agents.find((other) => other.agentId !== agent.agentId) : undefined;
  return {
    ...common,
    authorId: agent.userId,
    agentIds: colleague ? [agent.agentId, colleague.agentId] : [agent.agentId],
    display: 'agent_info',
  };
}

/** Mostly published; some waiting for approval, some drafts, and sales sometimes sold already. */
function stateOf(random: Random, rental: boolean): ListingState {
  const draw = random();
  if (draw < 0.05) return 'draft';
  if (draw < 0.1) return 'pending';
  if (!rental && draw < 0.16) return 'sold';
  return 'publish';
}

function datesOf(random: Random, state: ListingState, now: Date): { createdAt: string; updatedAt: string; publishedAt: string | null } {
  const nowMs = now.getTime();
  if (state === 'draft' || state === 'pending') {
    const created = new Date(nowMs - random() * 60 * DAY_MS).toISOString();
    return { createdAt: created, updatedAt: created, publishedAt: null };
  }
  const published = nowMs - random() * PUBLISHED_OVER_DAYS * DAY_MS;
  const updated = published + random() * (nowMs - published) * (state === 'sold' ? 1 : 0.3);
  const publishedAt = new Date(published).toISOString();
  return { createdAt: publishedAt, updatedAt: new Date(updated).toISOString(), publishedAt };
}

function featuresOf(random: Random, profile: TypeProfile, city: CityProfile, terms: DemoTermIds): string[] {
  const available = FEATURES_BY_KIND[profile.kind].filter(
    (name) => terms.features.has(name) && (city.coastal || !COASTAL_FEATURES.includes(name)),
  );
  const [min, max] = FEATURE_COUNT[profile.kind];
  return shuffle(available, random).slice(0, integerBetween(random, min, max));
}

function labelsFor(rental: boolean, byAgency: boolean, publishedAt: string | null, now: Date): string[] {
  const recent = publishedAt !== null && now.getTime() - Date.parse(publishedAt) < 30 * DAY_MS;
  return [
    'Hot Offer',
    ...(rental ? [] : ['Open House', 'Price Reduced']),
    ...(byAgency ? ['Exclusive'] : []),
    ...(recent ? ['New Listing'] : []),
  ];
}

/** Farmland in hectares or acres, building plots in the city's unit. */
function plotSize(profile: TypeProfile, city: CityProfile, landM2: number): string {
  if (profile.name === FARMLAND)
    return city.sizeUnit === 'sqft' ? `${(landM2 / M2_PER_ACRE).toFixed(1)}-Acre` : `${(landM2 / 10_000).toFixed(1)} ha`;
  return city.sizeUnit === 'sqft'
    ? `${Math.round(landM2 * SQFT_PER_M2).toLocaleString('en-US')} sq ft`
    : `${landM2.toLocaleString('en-US')} m²`;
}

function titleOf(
  random: Random,
  profile: TypeProfile,
  bedrooms: number | null,
  area: AreaProfile,
  city: CityProfile,
  plot: string,
): string {
  if (profile.kind === 'land')
    return profile.name === FARMLAND ? `${plot} ${profile.titleNoun} near ${city.city}` : `${plot} ${profile.titleNoun} in ${area.name}`;
  if (profile.kind === 'commercial') return `${pick(COMMERCIAL_ADJECTIVES, random)} ${profile.titleNoun} in ${area.name}`;
  const adjective = pick(RESIDENTIAL_ADJECTIVES, random);
  return bedrooms === 0
    ? `${adjective} ${profile.titleNoun} in ${area.name}`
    : `${adjective} ${bedrooms}-Bedroom ${profile.titleNoun} in ${area.name}`;
}

interface DescriptionFacts {
  profile: TypeProfile;
  rooms: Rooms;
  area: AreaProfile;
  city: CityProfile;
  yearBuilt: number | null;
  newConstruction: boolean;
  rental: boolean;
  featureNames: string[];
  seller: Seller['kind'];
  size: string;
}

/** Two or three short paragraphs of the allowed rich text (docs/api.md 0.4). */
function descriptionOf(random: Random, facts: DescriptionFacts): string {
  const { profile, rooms, area, city } = facts;
  const where = `${area.name}, ${city.city}`;
  const noun = profile.titleNoun.toLowerCase();
  const intro =
    profile.kind === 'land'
      ? `${profile.name === FARMLAND ? 'Farmland' : 'A building plot'} of ${facts.size} near ${where}, ready for your project.`
      : profile.kind === 'commercial'
        ? `This ${noun} offers ${facts.size} of space with ${rooms.rooms} room${rooms.rooms === 1 ? '' : 's'} in ${where}.`
        : `This ${noun} offers ${facts.size} of living space with ${rooms.bedrooms === 0 ? 'an open-plan layout' : `${rooms.bedrooms} bedroom${rooms.bedrooms === 1 ? '' : 's'}`} and ${rooms.bathrooms} bathroom${rooms.bathrooms === 1 ? '' : 's'} in ${where}.`;
  const age =
    facts.yearBuilt === null
      ? ''
      : facts.newConstruction
        ? ` Completion is planned for ${facts.yearBuilt}.`
        : ` Built in ${facts.yearBuilt}, it ${pick(CONDITIONS, random)}.`;
  const highlights = facts.featureNames.slice(0, 4).map((name) => name.toLowerCase());
  const features =
    highlights.length > 0
      ? `<p>Highlights include ${highlights.slice(0, -1).join(', ')}${highlights.length > 1 ? ' and ' : ''}${highlights.at(-1)}. ${pick(SURROUNDINGS, random)}</p>`
      : '';
  const contact = facts.seller === 'agency' ? 'Contact our agents to arrange a viewing.' : 'Contact the owner to arrange a viewing.';
  const offer = facts.rental ? `<p>Available for long-term rent. ${contact}</p>` : `<p>${contact}</p>`;
  return `<p>${intro}${age}</p>${features}${offer}`;
}

function addressOf(random: Random, city: CityProfile, area: AreaProfile): string {
  const street = pick(area.streets, random);
  switch (city.addressStyle) {
    case 'number-first':
      return `${integerBetween(random, 1, city.currency === 'USD' ? 2_400 : 180)} ${street}`;
    case 'street-first':
      return `${street}, ${integerBetween(random, 1, 180)}`;
    case 'building':
      return `${street}, Building ${integerBetween(random, 1, 60)}`;
  }
}

/** A point drawn uniformly from the area's disc (six decimals: about 10 cm). */
function pointIn(random: Random, area: AreaProfile): { latitude: number; longitude: number } {
  const distance = area.radiusKm * Math.sqrt(random());
  const bearing = 2 * Math.PI * random();
  const latitude = area.latitude + (distance * Math.cos(bearing)) / 110.574;
  const longitude = area.longitude + (distance * Math.sin(bearing)) / (111.32 * Math.cos((area.latitude * Math.PI) / 180));
  return { latitude: Number(latitude.toFixed(6)), longitude: Number(longitude.toFixed(6)) };
}

function additionalFeaturesOf(random: Random, profile: TypeProfile, rental: boolean): { title: string; value: string }[] {
  const candidates =
    profile.kind === 'land'
      ? [
          { title: 'Zoning', value: profile.name === 'Agricultural Land' ? 'Agricultural' : 'Residential' },
          { title: 'Utilities', value: pick(['Water and power at the boundary', 'Water, power and sewer connected'], random) },
        ]
      : profile.kind === 'commercial'
        ? [
            { title: 'Ceiling height', value: `${between(random, 2.7, 6).toFixed(1)} m` },
            { title: 'Air conditioning', value: pick(['Central', 'Split units'], random) },
            { title: 'Access', value: pick(['Street level', 'Lift', 'Loading dock'], random) },
          ]
        : [
            { title: 'Heating', value: pick(['Gas', 'Electric', 'Heat pump', 'District heating'], random) },
            { title: 'Orientation', value: pick(['South', 'South-west', 'East', 'West'], random) },
            ...(rental ? [{ title: 'Furnished', value: pick(['Yes', 'No', 'Partly'], random) }] : []),
          ];
  return candidates.slice(0, integerBetween(random, 1, candidates.length));
}

function floorPlansOf(
  random: Random,
  profile: TypeProfile,
  rooms: Rooms,
  floorM2: number | null,
  toUnit: (m2: number) => number,
  unit: string,
) {
  if (profile.kind !== 'residential' || floorM2 === null || random() >= 0.25) return [];
  const names = profile.storeys > 1 ? ['Ground Floor', 'First Floor'] : ['Floor Plan'];
  return names.map((title, index) => ({
    title,
    rooms: profile.storeys > 1 ? (index === 0 ? 0 : rooms.bedrooms) : rooms.bedrooms,
    bathrooms: profile.storeys > 1 ? (index === 0 ? 1 : Math.max(1, (rooms.bathrooms ?? 1) - 1)) : rooms.bathrooms,
    price: null,
    price_postfix: '',
    size: toUnit(Math.round(floorM2 / names.length)),
    size_postfix: unit,
    description: '',
    image_url: '',
  }));
}

/** One to four pictures that suit the type, in a shuffled order (land has one picture of its kind). */
function galleryOf(random: Random, profile: TypeProfile, images: readonly DemoImage[]): DemoImage[] {
  const suitable = images.filter((image) => image.uses.includes(profile.kind));
  return shuffle(suitable, random).slice(0, integerBetween(random, 1, Math.min(4, suitable.length)));
}

function roundTo(value: number, step: number): number {
  return Math.round(value / step) * step;
}
