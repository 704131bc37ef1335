import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { compactGeoCells } from '../db/dialect/geo-cell-compaction.js';
import type { DB } from '../db/schema.js';
import { Repeater } from './repeater.js';

export interface GeoCellsCompactionOptions {
  /** GEO_CELLS_COMPACT_SECONDS: time between runs; the first run is at start. */
  intervalMs: number;
}

/**
 * Folds the deltas that listing changes append to `geo_cell_changes` into `geo_cells` (migration 0008), so
 * that the readers of the geo cell aggregates add few change rows to the cells. Answers are exact whether it
 * has run or not; it only keeps them fast. Several processes may run it at once (geo-cell-compaction.ts).
 */
export class GeoCellsCompactionJob {
  private readonly repeater = new Repeater(() => this.runLogged());

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    private readonly options: GeoCellsCompactionOptions,
  ) {}

  start(): void {
    this.repeater.start();
  }

  /** Stops the timer and waits for the run in progress. */
  stop(): Promise<void> {
    return this.repeater.stop();
  }

  /** Folds every change present; returns how many change rows it folded. */
  runOnce(): Promise<number> {
    return compactGeoCells(this.db);
  }

  private async runLogged(): Promise<number> {
    try {
      const folded = await this.runOnce();
      if (folded > 0) this.log.debug({ folded }, 'geo cell changes compacted');
    } catch (error) {
      this.log.error({ err: error }, 'geo cell compaction failed');
    }
    return this.options.intervalMs;
  }
}
