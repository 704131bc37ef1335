import type { Kysely } from 'kysely';
import type { FileStorage } from '../adapters/storage/storage.js';
import { compactGeoCells } from '../db/dialect/geo-cell-compaction.js';
import type { DB, Taxonomy } from '../db/schema/index.js';
import type { TaxonomiesService } from '../modules/taxonomies/index.js';
import type { AccountsService } from '../modules/accounts/index.js';
import { type DemoListingsOptions, type DemoListingsSummary, seedDemoListings } from './demo-listings.js';
import { seedDemoPackages } from './demo-packages.js';
import {
  AGENT_CATEGORIES,
  AGENT_CITIES,
  type DemoTerm,
  LOCATIONS,
  PROPERTY_FEATURES,
  PROPERTY_LABELS,
  PROPERTY_STATUSES,
  PROPERTY_TYPES,
} from './demo-terms.js';

/**
 * Fills an empty database with the demo taxonomy, through the same service the API uses (so the demo
 * data obeys every rule). Does nothing when terms exist already. Returns how many terms it created.
 */
export async function seedDemoTerms(taxonomies: TaxonomiesService): Promise<number> {
  if (await taxonomies.hasTerms()) return 0;
  let created = 0;
  const create = async (taxonomy: Taxonomy, input: Parameters<TaxonomiesService['createTerm']>[1]) => {
    created++;
    return taxonomies.createTerm(taxonomy, input);
  };
  const tree = async (taxonomy: Taxonomy, terms: DemoTerm[], parent?: number): Promise<void> => {
    for (const term of terms) {
      const { id } = await create(taxonomy, {
        name: term.name,
        ...(term.description ? { description: term.description } : {}),
        ...(term.color ? { color: term.color } : {}),
        ...(parent ? { parent } : {}),
      });
      if (term.children) await tree(taxonomy, term.children, id);
    }
  };

  await tree('property_type', PROPERTY_TYPES);
  await tree('property_status', PROPERTY_STATUSES);
  await tree('property_label', PROPERTY_LABELS);
  await tree(
    'property_feature',
    PROPERTY_FEATURES.map((name) => ({ name })),
  );
  await tree(
    'agent_category',
    AGENT_CATEGORIES.map((name) => ({ name })),
  );
  await tree(
    'agent_city',
    AGENT_CITIES.map((name) => ({ name })),
  );

  for (const [country, states] of Object.entries(LOCATIONS)) {
    const { id: countryId } = await create('property_country', { name: country });
    for (const [state, cities] of Object.entries(states)) {
      const { id: stateId } = await create('property_state', { name: state, country_id: countryId });
      for (const [city, areas] of Object.entries(cities)) {
        const { id: cityId } = await create('property_city', { name: city, state_id: stateId });
        for (const area of areas) await create('property_area', { name: area, city_id: cityId });
      }
    }
  }
  return created;
}

export interface DemoSeedTargets {
  db: Kysely<DB>;
  taxonomies: TaxonomiesService;
  users: AccountsService;
  storage: FileStorage;
  /** The currency of the demo membership packages (DEFAULT_CURRENCY). */
  currency: string;
}

/**
 * The demo taxonomy when the database has no terms yet, the demo membership packages when it has none, then
 * `options.count` demo listings over them, with their map cell counts folded (a bulk seed leaves eight pending
 * cell changes per listing, which answers would otherwise sum until the server's compaction job runs).
 */
export async function seedDemoData(
  targets: DemoSeedTargets,
  options: DemoListingsOptions,
): Promise<{ terms: number; listings: DemoListingsSummary }> {
  const terms = await seedDemoTerms(targets.taxonomies);
  await seedDemoPackages(targets.db, targets.currency);
  const listings = await seedDemoListings(targets.db, targets.users, targets.storage, options);
  await compactGeoCells(targets.db);
  return { terms, listings };
}
