import type { AppModule, Platform } from '../module.js';
import { taxonomyRoutes } from './taxonomies.routes.js';
import { Term } from './taxonomies.schemas.js';
import { TaxonomiesService } from './taxonomies.service.js';

export interface TaxonomiesServices {
  taxonomies: TaxonomiesService;
}

/** Terms of the eight taxonomies (docs/api.md 1): listing, management, counts. */
export function createTaxonomiesModule({ database, stamps }: Platform): AppModule<TaxonomiesServices> {
  const taxonomies = new TaxonomiesService(database.db, stamps);
  return {
    services: { taxonomies },
    schemas: [Term],
    routes: async (api) => {
      await api.register(taxonomyRoutes, { taxonomies });
    },
  };
}

export type { TermRecord } from './taxonomies.schemas.js';
export type { TaxonomiesService } from './taxonomies.service.js';
