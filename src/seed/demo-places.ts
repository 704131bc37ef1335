/**
 * Where demo listings are, and what they cost there: one profile per demo city (the names match the
 * location terms of demo-terms.ts), with each area's centre and radius inside the city's, local streets and
 * postcodes, and typical prices. Prices are rough 2020s market levels in the local currency, per square metre
 * of floor space: enough for listings that look plausible side by side, not market data.
 */

type AddressStyle = 'number-first' | 'street-first' | 'building';

export interface AreaProfile {
  name: string;
  latitude: number;
  longitude: number;
  /** Listings of the area lie within this distance of its centre; the disc lies inside the city's. */
  radiusKm: number;
  /** Price level of the area against the city's (1 = the city's typical price). */
  priceFactor: number;
  zipcodes: readonly string[];
  streets: readonly string[];
}

export interface CityProfile {
  country: string;
  state: string;
  city: string;
  latitude: number;
  longitude: number;
  radiusKm: number;
  currency: 'USD' | 'EUR' | 'AED';
  /** The unit sizes are shown in locally (stored sizes are converted from square metres). */
  sizeUnit: 'sqft' | 'm2';
  /** Typical asking price per square metre of an apartment for sale. */
  salePerM2: number;
  /** Typical monthly rent per square metre of an apartment. */
  rentPerM2: number;
  /** Relative share of the demo listings. */
  weight: number;
  /** By the sea: listings may have a sea view. */
  coastal: boolean;
  /** Year of the oldest buildings commonly on the market. */
  builtSince: number;
  addressStyle: AddressStyle;
  areas: readonly AreaProfile[];
}

export const SQFT_PER_M2 = 10.7639;

export const DEMO_CITIES: readonly CityProfile[] = [
  {
    country: 'United States',
    state: 'Florida',
    city: 'Miami',
    latitude: 25.7617,
    longitude: -80.1918,
    radiusKm: 15,
    currency: 'USD',
    sizeUnit: 'sqft',
    salePerM2: 6_000,
    rentPerM2: 32,
    weight: 12,
    coastal: true,
    builtSince: 1925,
    addressStyle: 'number-first',
    areas: [
      {
        name: 'Brickell',
        latitude: 25.7601,
        longitude: -80.1937,
        radiusKm: 1.5,
        priceFactor: 1.25,
        zipcodes: ['33129', '33130', '33131'],
        streets: ['Brickell Avenue', 'SW 8th Street', 'Brickell Bay Drive'],
      },
      {
        name: 'Wynwood',
        latitude: 25.8005,
        longitude: -80.199,
        radiusKm: 1.5,
        priceFactor: 0.95,
        zipcodes: ['33127'],
        streets: ['NW 2nd Avenue', 'NW 26th Street', 'North Miami Avenue'],
      },
      {
        name: 'Coconut Grove',
        latitude: 25.728,
        longitude: -80.243,
        radiusKm: 2,
        priceFactor: 1.15,
        zipcodes: ['33133'],
        streets: ['Main Highway', 'South Bayshore Drive', 'Grand Avenue'],
      },
    ],
  },
  {
    country: 'United States',
    state: 'Florida',
    city: 'Orlando',
    latitude: 28.5384,
    longitude: -81.3789,
    radiusKm: 25,
    currency: 'USD',
    sizeUnit: 'sqft',
    salePerM2: 3_300,
    rentPerM2: 18,
    weight: 7,
    coastal: false,
    builtSince: 1950,
    addressStyle: 'number-first',
    areas: [
      {
        name: 'Lake Nona',
        latitude: 28.396,
        longitude: -81.249,
        radiusKm: 4,
        priceFactor: 1.1,
        zipcodes: ['32827', '32832'],
        streets: ['Lake Nona Boulevard', 'Tavistock Lakes Boulevard', 'Laureate Boulevard'],
      },
      {
        name: 'Winter Park',
        latitude: 28.5999,
        longitude: -81.3392,
        radiusKm: 3,
        priceFactor: 1.3,
        zipcodes: ['32789', '32792'],
        streets: ['Park Avenue', 'Aloma Avenue', 'Fairbanks Avenue'],
      },
    ],
  },
  {
    country: 'United States',
    state: 'New York',
    city: 'New York City',
    latitude: 40.7128,
    longitude: -74.006,
    radiusKm: 30,
    currency: 'USD',
    sizeUnit: 'sqft',
    salePerM2: 12_500,
    rentPerM2: 55,
    weight: 14,
    coastal: true,
    builtSince: 1900,
    addressStyle: 'number-first',
    areas: [
      {
        name: 'Manhattan',
        latitude: 40.7831,
        longitude: -73.9712,
        radiusKm: 3.5,
        priceFactor: 1.4,
        zipcodes: ['10011', '10016', '10021', '10024', '10028'],
        streets: ['Park Avenue', 'West 72nd Street', 'Lexington Avenue', 'Columbus Avenue'],
      },
      {
        name: 'Brooklyn',
        latitude: 40.6782,
        longitude: -73.9442,
        radiusKm: 5,
        priceFactor: 0.85,
        zipcodes: ['11201', '11215', '11216', '11238'],
        streets: ['Atlantic Avenue', 'Bedford Avenue', 'Prospect Park West', 'Court Street'],
      },
      {
        name: 'Queens',
        latitude: 40.7282,
        longitude: -73.7949,
        radiusKm: 6,
        priceFactor: 0.65,
        zipcodes: ['11354', '11375', '11432'],
        streets: ['Queens Boulevard', 'Austin Street', 'Hillside Avenue'],
      },
    ],
  },
  {
    country: 'United States',
    state: 'California',
    city: 'Los Angeles',
    latitude: 34.0522,
    longitude: -118.2437,
    radiusKm: 30,
    currency: 'USD',
    sizeUnit: 'sqft',
    salePerM2: 8_500,
    rentPerM2: 38,
    weight: 11,
    coastal: true,
    builtSince: 1920,
    addressStyle: 'number-first',
    areas: [
      {
        name: 'Hollywood',
        latitude: 34.0928,
        longitude: -118.3287,
        radiusKm: 3,
        priceFactor: 1,
        zipcodes: ['90028', '90038', '90068'],
        streets: ['Franklin Avenue', 'Sunset Boulevard', 'Vine Street'],
      },
      {
        name: 'Venice',
        latitude: 33.985,
        longitude: -118.4695,
        radiusKm: 2,
        priceFactor: 1.3,
        zipcodes: ['90291'],
        streets: ['Abbot Kinney Boulevard', 'Ocean Front Walk', 'Rose Avenue'],
      },
      {
        name: 'Santa Monica',
        latitude: 34.0195,
        longitude: -118.4912,
        radiusKm: 3,
        priceFactor: 1.45,
        zipcodes: ['90401', '90402', '90403', '90405'],
        streets: ['Ocean Avenue', 'Montana Avenue', 'Wilshire Boulevard'],
      },
    ],
  },
  {
    country: 'United States',
    state: 'California',
    city: 'San Francisco',
    latitude: 37.7749,
    longitude: -122.4194,
    radiusKm: 8,
    currency: 'USD',
    sizeUnit: 'sqft',
    salePerM2: 11_000,
    rentPerM2: 45,
    weight: 8,
    coastal: true,
    builtSince: 1906,
    addressStyle: 'number-first',
    areas: [
      {
        name: 'Mission District',
        latitude: 37.7599,
        longitude: -122.4148,
        radiusKm: 1.5,
        priceFactor: 0.95,
        zipcodes: ['94110'],
        streets: ['Valencia Street', 'Mission Street', 'Dolores Street'],
      },
      {
        name: 'SoMa',
        latitude: 37.7785,
        longitude: -122.4056,
        radiusKm: 1.2,
        priceFactor: 1.05,
        zipcodes: ['94103', '94107'],
        streets: ['Folsom Street', 'Howard Street', 'Townsend Street'],
      },
    ],
  },
  {
    country: 'Spain',
    state: 'Madrid',
    city: 'Madrid',
    latitude: 40.4168,
    longitude: -3.7038,
    radiusKm: 12,
    currency: 'EUR',
    sizeUnit: 'm2',
    salePerM2: 5_200,
    rentPerM2: 21,
    weight: 10,
    coastal: false,
    builtSince: 1880,
    addressStyle: 'street-first',
    areas: [
      {
        name: 'Salamanca',
        latitude: 40.43,
        longitude: -3.678,
        radiusKm: 1.5,
        priceFactor: 1.45,
        zipcodes: ['28001', '28006', '28009'],
        streets: ['Calle de Serrano', 'Calle de Velázquez', 'Calle de Goya'],
      },
      {
        name: 'Chamberí',
        latitude: 40.434,
        longitude: -3.704,
        radiusKm: 1.5,
        priceFactor: 1.2,
        zipcodes: ['28003', '28010', '28015'],
        streets: ['Calle de Almagro', 'Calle de Fuencarral', 'Calle de Santa Engracia'],
      },
      {
        name: 'Malasaña',
        latitude: 40.426,
        longitude: -3.705,
        radiusKm: 0.8,
        priceFactor: 1.05,
        zipcodes: ['28004'],
        streets: ['Calle del Espíritu Santo', 'Calle de San Vicente Ferrer', 'Calle del Pez'],
      },
    ],
  },
  {
    country: 'Spain',
    state: 'Catalonia',
    city: 'Barcelona',
    latitude: 41.3874,
    longitude: 2.1686,
    radiusKm: 10,
    currency: 'EUR',
    sizeUnit: 'm2',
    salePerM2: 4_900,
    rentPerM2: 21,
    weight: 9,
    coastal: true,
    builtSince: 1880,
    addressStyle: 'street-first',
    areas: [
      {
        name: 'Eixample',
        latitude: 41.391,
        longitude: 2.165,
        radiusKm: 1.5,
        priceFactor: 1.2,
        zipcodes: ['08007', '08008', '08009', '08011', '08013'],
        streets: ['Passeig de Gràcia', 'Carrer de Mallorca', 'Carrer del Consell de Cent'],
      },
      {
        name: 'Gràcia',
        latitude: 41.4036,
        longitude: 2.1567,
        radiusKm: 1.2,
        priceFactor: 1.05,
        zipcodes: ['08012', '08024'],
        streets: ['Carrer Gran de Gràcia', 'Carrer de Verdi', 'Travessera de Gràcia'],
      },
      {
        name: 'El Born',
        latitude: 41.385,
        longitude: 2.183,
        radiusKm: 0.6,
        priceFactor: 1.15,
        zipcodes: ['08003'],
        streets: ['Passeig del Born', 'Carrer de la Princesa', 'Carrer de Montcada'],
      },
    ],
  },
  {
    country: 'France',
    state: 'Île-de-France',
    city: 'Paris',
    latitude: 48.8566,
    longitude: 2.3522,
    radiusKm: 10,
    currency: 'EUR',
    sizeUnit: 'm2',
    salePerM2: 10_500,
    rentPerM2: 32,
    weight: 12,
    coastal: false,
    builtSince: 1850,
    addressStyle: 'number-first',
    areas: [
      {
        name: 'Le Marais',
        latitude: 48.859,
        longitude: 2.362,
        radiusKm: 1,
        priceFactor: 1.15,
        zipcodes: ['75003', '75004'],
        streets: ['Rue des Francs-Bourgeois', 'Rue de Turenne', 'Rue Vieille du Temple'],
      },
      {
        name: 'Montmartre',
        latitude: 48.8867,
        longitude: 2.3431,
        radiusKm: 1,
        priceFactor: 0.95,
        zipcodes: ['75018'],
        streets: ['Rue Lepic', 'Rue des Abbesses', 'Rue Caulaincourt'],
      },
      {
        name: 'Saint-Germain-des-Prés',
        latitude: 48.854,
        longitude: 2.333,
        radiusKm: 0.8,
        priceFactor: 1.35,
        zipcodes: ['75006'],
        streets: ['Boulevard Saint-Germain', 'Rue Bonaparte', 'Rue du Bac'],
      },
    ],
  },
  {
    country: 'France',
    state: "Provence-Alpes-Côte d'Azur",
    city: 'Nice',
    latitude: 43.7102,
    longitude: 7.262,
    radiusKm: 8,
    currency: 'EUR',
    sizeUnit: 'm2',
    salePerM2: 5_500,
    rentPerM2: 20,
    weight: 6,
    coastal: true,
    builtSince: 1880,
    addressStyle: 'number-first',
    areas: [
      {
        name: 'Vieux Nice',
        latitude: 43.697,
        longitude: 7.276,
        radiusKm: 0.6,
        priceFactor: 1.05,
        zipcodes: ['06300'],
        streets: ['Rue de la Préfecture', 'Cours Saleya', 'Rue Droite'],
      },
      {
        name: 'Cimiez',
        latitude: 43.722,
        longitude: 7.275,
        radiusKm: 1.2,
        priceFactor: 1.2,
        zipcodes: ['06000'],
        streets: ['Boulevard de Cimiez', 'Avenue Reine Victoria', 'Avenue des Arènes de Cimiez'],
      },
    ],
  },
  {
    country: 'United Arab Emirates',
    state: 'Dubai',
    city: 'Dubai',
    latitude: 25.2048,
    longitude: 55.2708,
    radiusKm: 30,
    currency: 'AED',
    sizeUnit: 'sqft',
    salePerM2: 17_000,
    rentPerM2: 95,
    weight: 8,
    coastal: true,
    builtSince: 1995,
    addressStyle: 'building',
    areas: [
      {
        name: 'Downtown Dubai',
        latitude: 25.1972,
        longitude: 55.2744,
        radiusKm: 1.5,
        priceFactor: 1.3,
        zipcodes: [],
        streets: ['Sheikh Mohammed bin Rashid Boulevard', 'Burj Khalifa Boulevard', 'Emaar Boulevard'],
      },
      {
        name: 'Dubai Marina',
        latitude: 25.08,
        longitude: 55.14,
        radiusKm: 1.5,
        priceFactor: 1.1,
        zipcodes: [],
        streets: ['Marina Walk', 'Al Marsa Street', 'King Salman bin Abdulaziz Al Saud Street'],
      },
      {
        name: 'Palm Jumeirah',
        latitude: 25.1124,
        longitude: 55.139,
        radiusKm: 2.5,
        priceFactor: 1.7,
        zipcodes: [],
        streets: ['Crescent Road', 'Palm Jumeirah Road', 'Frond G Street'],
      },
    ],
  },
  {
    country: 'United Arab Emirates',
    state: 'Abu Dhabi',
    city: 'Abu Dhabi',
    latitude: 24.4539,
    longitude: 54.3773,
    radiusKm: 20,
    currency: 'AED',
    sizeUnit: 'sqft',
    salePerM2: 12_000,
    rentPerM2: 70,
    weight: 5,
    coastal: true,
    builtSince: 1990,
    addressStyle: 'building',
    areas: [
      {
        name: 'Al Reem Island',
        latitude: 24.499,
        longitude: 54.406,
        radiusKm: 2,
        priceFactor: 1,
        zipcodes: [],
        streets: ['Tamouh Street', 'Najmat Street', 'Shams Boutik Street'],
      },
      {
        name: 'Saadiyat Island',
        latitude: 24.545,
        longitude: 54.435,
        radiusKm: 3,
        priceFactor: 1.4,
        zipcodes: [],
        streets: ['Saadiyat Cultural District Street', 'Jacques Chirac Street', 'Saadiyat Beach Road'],
      },
    ],
  },
];

/** Great-circle distance in kilometres (haversine). */
export function distanceKm(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const toRadians = (degrees: number) => (degrees * Math.PI) / 180;
  const dLat = toRadians(b.latitude - a.latitude);
  const dLng = toRadians(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(toRadians(a.latitude)) * Math.cos(toRadians(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(h)));
}
