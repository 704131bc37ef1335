import { PROPERTY_FEATURES } from './demo-terms.js';

/**
 * What each demo property type looks like: sizes, rooms and price level (a factor on the city's typical
 * price per square metre, demo-places.ts). Names match the property types of demo-terms.ts.
 */

export type TypeKind = 'residential' | 'commercial' | 'land';

export type Range = readonly [min: number, max: number];

export interface TypeProfile {
  /** The property type term's name. */
  name: string;
  kind: TypeKind;
  /** Relative share of the demo listings. */
  weight: number;
  /** Floor space in m² (null for land). */
  floorM2: Range | null;
  /** Plot size in m², for houses and land. */
  landM2: Range | null;
  bedrooms: Range | null;
  /**
   * Price against the city's apartment price per m² of floor space (land: per m² of plot), and the same
   * against its rent per m² for rentals.
   */
  priceFactor: number;
  rentable: boolean;
  /** How the title names it: "Bright 2-Bedroom Apartment in …", "Prime Office Space in …". */
  titleNoun: string;
  /** Houses get floor plans per storey ("Ground Floor", "First Floor"), flats one plan. */
  storeys: number;
}

export const DEMO_TYPES: readonly TypeProfile[] = [
  {
    name: 'Apartment',
    kind: 'residential',
    weight: 26,
    floorM2: [45, 140],
    landM2: null,
    bedrooms: [1, 3],
    priceFactor: 1,
    rentable: true,
    titleNoun: 'Apartment',
    storeys: 1,
  },
  {
    name: 'Condo',
    kind: 'residential',
    weight: 10,
    floorM2: [50, 150],
    landM2: null,
    bedrooms: [1, 3],
    priceFactor: 1.05,
    rentable: true,
    titleNoun: 'Condo',
    storeys: 1,
  },
  {
    name: 'Studio',
    kind: 'residential',
    weight: 7,
    floorM2: [22, 45],
    landM2: null,
    bedrooms: [0, 0],
    priceFactor: 1.1,
    rentable: true,
    titleNoun: 'Studio',
    storeys: 1,
  },
  {
    name: 'Penthouse',
    kind: 'residential',
    weight: 3,
    floorM2: [120, 400],
    landM2: null,
    bedrooms: [2, 5],
    priceFactor: 1.6,
    rentable: true,
    titleNoun: 'Penthouse',
    storeys: 1,
  },
  {
    name: 'Duplex',
    kind: 'residential',
    weight: 4,
    floorM2: [100, 220],
    landM2: null,
    bedrooms: [2, 4],
    priceFactor: 1,
    rentable: true,
    titleNoun: 'Duplex',
    storeys: 2,
  },
  {
    name: 'Townhouse',
    kind: 'residential',
    weight: 7,
    floorM2: [110, 240],
    landM2: [80, 300],
    bedrooms: [2, 4],
    priceFactor: 0.95,
    rentable: true,
    titleNoun: 'Townhouse',
    storeys: 2,
  },
  {
    name: 'Single Family Home',
    kind: 'residential',
    weight: 10,
    floorM2: [120, 350],
    landM2: [250, 1200],
    bedrooms: [3, 5],
    priceFactor: 0.85,
    rentable: true,
    titleNoun: 'Family Home',
    storeys: 2,
  },
  {
    name: 'Villa',
    kind: 'residential',
    weight: 7,
    floorM2: [180, 600],
    landM2: [400, 2500],
    bedrooms: [3, 7],
    priceFactor: 1.35,
    rentable: true,
    titleNoun: 'Villa',
    storeys: 2,
  },
  {
    name: 'Office',
    kind: 'commercial',
    weight: 5,
    floorM2: [50, 1200],
    landM2: null,
    bedrooms: null,
    priceFactor: 0.9,
    rentable: true,
    titleNoun: 'Office Space',
    storeys: 1,
  },
  {
    name: 'Shop',
    kind: 'commercial',
    weight: 3,
    floorM2: [30, 300],
    landM2: null,
    bedrooms: null,
    priceFactor: 1,
    rentable: true,
    titleNoun: 'Retail Shop',
    storeys: 1,
  },
  {
    name: 'Restaurant',
    kind: 'commercial',
    weight: 2,
    floorM2: [80, 400],
    landM2: null,
    bedrooms: null,
    priceFactor: 0.9,
    rentable: true,
    titleNoun: 'Restaurant',
    storeys: 1,
  },
  {
    name: 'Warehouse',
    kind: 'commercial',
    weight: 2,
    floorM2: [400, 5000],
    landM2: null,
    bedrooms: null,
    priceFactor: 0.25,
    rentable: true,
    titleNoun: 'Warehouse',
    storeys: 1,
  },
  {
    name: 'Industrial Building',
    kind: 'commercial',
    weight: 1,
    floorM2: [600, 8000],
    landM2: null,
    bedrooms: null,
    priceFactor: 0.2,
    rentable: true,
    titleNoun: 'Industrial Building',
    storeys: 1,
  },
  {
    name: 'Residential Land',
    kind: 'land',
    weight: 3,
    floorM2: null,
    landM2: [300, 3000],
    bedrooms: null,
    priceFactor: 0.15,
    rentable: false,
    titleNoun: 'Building Plot',
    storeys: 0,
  },
  {
    name: 'Agricultural Land',
    kind: 'land',
    weight: 1,
    floorM2: null,
    landM2: [10_000, 200_000],
    bedrooms: null,
    priceFactor: 0.001,
    rentable: false,
    titleNoun: 'Farmland',
    storeys: 0,
  },
];

/** Listings vary around the typical price by at most this share either way. */
export const PRICE_SPREAD = 0.2;

/**
 * Demo features (demo-terms.ts) that suit each kind of property; features added to the database later are
 * left alone.
 */
export const FEATURES_BY_KIND: Record<TypeKind, readonly string[]> = {
  residential: PROPERTY_FEATURES,
  commercial: [
    'Air Conditioning',
    'Central Heating',
    'Concierge',
    'Elevator',
    'Garage',
    'Laundry Room',
    'Parking',
    'Security System',
    'Solar Panels',
    'Storage Room',
    'Wheelchair Access',
    'WiFi',
    'Window Coverings',
    'Doorman',
    'Terrace',
  ],
  land: ['Garden', 'Lawn', 'Sea View', 'Solar Panels', 'Parking', 'Pet Friendly'],
};

/** How many features a listing has: 3 to 10, land fewer (its list is short). */
export const FEATURE_COUNT: Record<TypeKind, Range> = { residential: [3, 10], commercial: [3, 8], land: [3, 5] };
