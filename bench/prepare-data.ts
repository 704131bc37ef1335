import type { Kysely } from 'kysely';
import { CacheStamps } from '../src/db/cache-versions.js';
import { createDatabase, migrateToLatest } from '../src/db/database.js';
import type { DB, ListingState, Taxonomy } from '../src/db/schema.js';
import { nowIso } from '../src/lib/time.js';
import { insertListing } from '../src/modules/properties/properties.repository.js';
import { TaxonomiesService } from '../src/modules/taxonomies/taxonomies.service.js';
import { seedDemoTerms } from '../src/seed/seed-demo.js';

/** GET /property-types returns this many terms: the demo ones plus generated ones. */
const PROPERTY_TYPE_COUNT = 200;
const LISTING_COUNT = 2000;
const PUBLISHED_SHARE = 0.9;
/** Listings use only this share of the features, so that hide_empty has terms to hide. */
const FEATURES_IN_USE_SHARE = 0.75;
const FEATURES_PER_LISTING = { min: 2, max: 8 };

const STYLES = ['Coastal', 'Urban', 'Rural', 'Modern', 'Colonial', 'Garden', 'Lakeside', 'Mountain', 'Historic', 'Eco'];
const KINDS = ['Cottage', 'Loft', 'Bungalow', 'Chalet', 'Ranch', 'Mansion', 'Cabin', 'Farmhouse', 'Mews', 'Retail Unit'];

export interface DataSummary {
  propertyTypes: number;
  features: number;
  featuresInUse: number;
  listings: number;
  published: number;
}

/**
 * Fills a fresh SQLite file with the benchmark data: the demo taxonomy, extra property types (some nested)
 * and listings with features. The same seed gives the same data, so runs compare like with like.
 */
export async function prepareData(sqlitePath: string, seed = 1): Promise<DataSummary> {
  const random = mulberry32(seed);
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

    const featureIds = shuffle(await termIds(db, 'property_feature'), random);
    const usable = featureIds.slice(0, Math.round(featureIds.length * FEATURES_IN_USE_SHARE));
    let published = 0;
    await db.transaction().execute(async (trx) => {
      for (let n = 1; n <= LISTING_COUNT; n++) {
        const status: ListingState = random() < PUBLISHED_SHARE ? 'publish' : 'draft';
        if (status === 'publish') published++;
        const count = FEATURES_PER_LISTING.min + Math.floor(random() * (FEATURES_PER_LISTING.max - FEATURES_PER_LISTING.min + 1));
        const features = shuffle(usable, random).slice(0, count);
        const now = nowIso();
        await insertListing(
          trx,
          {
            slug: `bench-listing-${n}`,
            title: `Bench listing ${n}`,
            status,
            currency: 'USD',
            price: 50_000 + Math.floor(random() * 950_000),
            created_at: now,
            updated_at: now,
            published_at: status === 'publish' ? now : null,
          },
          features.map((termId) => ({ termId, taxonomy: 'property_feature' })),
        );
      }
    });

    const inUse = await db
      .selectFrom('terms')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('taxonomy', '=', 'property_feature')
      .where('count', '>', 0)
      .executeTakeFirstOrThrow();
    return {
      propertyTypes: typeIds.length,
      features: featureIds.length,
      featuresInUse: Number(inUse.n),
      listings: LISTING_COUNT,
      published,
    };
  } finally {
    await database.destroy();
  }
}

async function termIds(db: Kysely<DB>, taxonomy: Taxonomy): Promise<number[]> {
  const rows = await db.selectFrom('terms').select('id').where('taxonomy', '=', taxonomy).orderBy('id').execute();
  return rows.map((row) => row.id);
}

/** A small seeded PRNG (mulberry32): uniform floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick<T>(items: readonly T[], random: () => number): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** A shuffled copy (Fisher–Yates). */
function shuffle<T>(items: readonly T[], random: () => number): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}
