import fs from 'node:fs';
import { stringify } from 'csv-stringify/sync';

const TYPES = ['Apartment', 'Villa', 'Townhouse', 'Studio', 'Penthouse', 'Duplex', 'Office', 'Land'];
/** The features and places the bench's feeds give their listings (the WordPress export's too: wxr-feed.ts). */
export const FEATURES = ['Pool', 'Garden', 'Lift', 'Terrace', 'Garage', 'Air Conditioning', 'Sea View', 'Fireplace', 'Gym', 'Storage'];
export const PLACES = [
  ['Spain', 'Andalusia', 'Málaga'],
  ['Spain', 'Catalonia', 'Barcelona'],
  ['Portugal', 'Lisbon', 'Lisbon'],
  ['France', 'Provence', 'Nice'],
  ['United States', 'Florida', 'Miami'],
] as const;

const COLUMNS =
  'key,title,status,description,reference,price,currency,bedrooms,bathrooms,size,size_unit,year_built,types,statuses,features,country,state,city,area,address,zipcode,latitude,longitude';

export interface FeedOptions {
  /** Keys are `<keyPrefix>-<n>` (default FEED). */
  keyPrefix?: string;
  /** The picture URLs of the n-th listing (the `images` column); without it the feed has no pictures. */
  images?: (n: number) => readonly string[];
  /** Words added to every title: a feed of the same keys with this changes every listing it names. */
  titleSuffix?: string;
}

/** A CSV feed as an agency's system writes one: every field filled, 40 areas, descriptions of a few sentences. */
export function writeFeed(file: string, count: number, options: FeedOptions = {}): void {
  const prefix = options.keyPrefix ?? 'FEED';
  const images = options.images;
  const titleSuffix = options.titleSuffix ?? '';
  const out = fs.openSync(file, 'w');
  try {
    fs.writeSync(out, `${COLUMNS}${images ? ',images' : ''}\n`);
    let chunk: unknown[][] = [];
    for (let n = 0; n < count; n++) {
      const [country, state, city] = PLACES[n % PLACES.length]!;
      const type = TYPES[n % TYPES.length]!;
      const bedrooms = 1 + (n % 5);
      const features = FEATURES.filter((_, f) => (n >> f) % 3 === 0).join('|');
      const record: unknown[] = [
        `${prefix}-${n}`,
        `${bedrooms}-bedroom ${type} in ${city} #${n}${titleSuffix}`,
        n % 10 === 0 ? 'sold' : 'publish',
        `<p>A bright ${type.toLowerCase()} of ${60 + (n % 200)} m² with ${bedrooms} bedrooms in ${city}.</p><p>Close to shops, schools and transport; renovated ${2000 + (n % 24)}.</p>`,
        `REF-${n}`,
        100_000 + ((n * 7919) % 900_000),
        'EUR',
        bedrooms,
        1 + (n % 3),
        60 + (n % 200),
        'm2',
        1950 + (n % 74),
        type,
        n % 10 === 0 ? 'For Rent' : 'For Sale',
        features,
        country,
        state,
        city,
        `District ${n % 8}`,
        `${1 + (n % 300)} Main Street`,
        String(10_000 + (n % 90_000)),
        (36 + (n % 1000) / 1000).toFixed(6),
        (-4 + (n % 1000) / 1000).toFixed(6),
      ];
      if (images) record.push(images(n).join('|'));
      chunk.push(record);
      if (chunk.length === 1000) {
        fs.writeSync(out, stringify(chunk));
        chunk = [];
      }
    }
    if (chunk.length > 0) fs.writeSync(out, stringify(chunk));
  } finally {
    fs.closeSync(out);
  }
}
