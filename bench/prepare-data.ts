import type { Kysely } from 'kysely';
import { DiskStorage } from '../src/adapters/storage/disk-storage.js';
import { CacheStamps } from '../src/db/cache-versions.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import type { DB, Taxonomy } from '../src/db/schema/index.js';
import { pick, seededRandom } from '../src/lib/random.js';
import { PasswordHasher } from '../src/modules/accounts/password-hasher.service.js';
import { AccountRecords } from '../src/modules/directory/account-records.service.js';
import { TaxonomiesService } from '../src/modules/taxonomies/taxonomies.service.js';
import { AccountsService } from '../src/modules/accounts/accounts.service.js';
import { seedDemoListings } from '../src/seed/demo-listings.js';
import { seedDemoTerms } from '../src/seed/seed-demo.js';

/** GET /property-types returns this many terms: the demo ones plus generated ones. */
const PROPERTY_TYPE_COUNT = 200;
const LISTING_COUNT = 100_000;
/** Features no listing uses, so that hide_empty has terms to hide. */
const UNUSED_FEATURES = [
  'Boat Dock',
  'Bowling Alley',
  'EV Charger',
  'Guest House',
  'Helipad',
  'Observatory',
  'Private Elevator',
  'Rooftop Deck',
  'Smart Home',
  'Squash Court',
  'Wine Cellar',
];

const STYLES = ['Coastal', 'Urban', 'Rural', 'Modern', 'Colonial', 'Garden', 'Lakeside', 'Mountain', 'Historic', 'Eco'];
const KINDS = ['Cottage', 'Loft', 'Bungalow', 'Chalet', 'Ranch', 'Mansion', 'Cabin', 'Farmhouse', 'Mews', 'Retail Unit'];

export interface DataSummary {
  propertyTypes: number;
  features: number;
  featuresInUse: number;
  listings: number;
  published: number;
  /** A published listing: the one the single-listing scenario reads. */
  publishedListingId: number;
  /** The published listing with the most reviews: the one the reviews scenario reads. */
  reviewedListingId: number;
  /** Seconds the listings took to generate and write. */
  listingSeconds: number;
}

/**
 * Fills a fresh SQLite file with the benchmark data: the demo taxonomy, extra property types (some nested),
 * extra features that no listing uses, and 100,000 demo listings (seed/demo-listings.ts) whose pictures go
 * to `uploadDir`. The same seed gives the same data, so runs compare like with like.
 */
export async function prepareData(sqlitePath: string, uploadDir: string, seed = 1): Promise<DataSummary> {
  const random = seededRandom(seed);
  const database = createDatabase({ kind: 'sqlite', path: sqlitePath });
  try {
    const { db } = database;
    await migrateToLatest(db);
    const taxonomies = new TaxonomiesService(db, new CacheStamps(database.readCacheVersion, database.localWrites, 0));
    await seedDemoTerms(taxonomies);

    const typeIds = await termIds(db, 'property_type');
    for (let n = typeIds.length + 1; n <= PROPERTY_TYPE_COUNT; n++) {
      const parent = random() < 0.3 ? undefined : pick(typeIds, random);
      const name = `${pick(STYLES, random)} ${pick(KINDS, random)} ${n}`;
      const { id } = await taxonomies.createTerm('property_type', { name, ...(parent ? { parent } : {}) });
      typeIds.push(id);
    }
    for (const name of UNUSED_FEATURES) await taxonomies.createTerm('property_feature', { name });

    const started = performance.now();
    const users = new AccountsService(db, new PasswordHasher(), new AccountRecords());
    const storage = new DiskStorage(uploadDir, 'http://127.0.0.1');
    const { published } = await seedDemoListings(db, users, storage, { count: LISTING_COUNT, seed });
    const listingSeconds = (performance.now() - started) / 1000;

    const features = await db
      .selectFrom('terms')
      .select((eb) => [
        eb.fn.countAll<number>().as('all'),
        eb.fn.sum<number>(eb.case().when('count', '>', 0).then(1).else(0).end()).as('used'),
      ])
      .where('taxonomy', '=', 'property_feature')
      .executeTakeFirstOrThrow();
    const sample = await db.selectFrom('listings').select('id').where('status', '=', 'publish').orderBy('id').executeTakeFirstOrThrow();
    const reviewed = await db
      .selectFrom('listings')
      .select('id')
      .where('status', '=', 'publish')
      .orderBy('reviews_count', 'desc')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    return {
      propertyTypes: typeIds.length,
      features: Number(features.all),
      featuresInUse: Number(features.used),
      listings: LISTING_COUNT,
      published,
      publishedListingId: sample.id,
      reviewedListingId: reviewed.id,
      listingSeconds,
    };
  } finally {
    await database.destroy();
  }
}

async function termIds(db: Kysely<DB>, taxonomy: Taxonomy): Promise<number[]> {
  const rows = await db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).orderBy('id').execute();
  return rows.map((row) => row.id);
}
