import type { AppModule, Platform } from '../module.js';
import { statsRoutes } from './stats.routes.js';
import { StatsService } from './stats.service.js';

export interface StatsServices {
  /** Figures for the dashboards: listings per state, daily activity, revenue. */
  stats: StatsService;
}

/** Statistics for the console's dashboards (docs/api.md 13): read-only aggregates over other modules' tables. */
export function createStatsModule({ database }: Platform): AppModule<StatsServices> {
  const stats = new StatsService(database.db);
  return {
    services: { stats },
    routes: async (api) => {
      await api.register(statsRoutes, { stats });
    },
  };
}
