import type { Executor } from '../../db/executor.js';
import { type BlockRecord, blockPage, blockSummary, newestPerBlock } from '../../db/sitemap-blocks.js';

/** Visible agents, or agencies, by blocks of ids, for the website's sitemap (db/sitemap-blocks.ts, migration 0027). */
export type DirectoryTable = 'agents' | 'agencies';

export const newestPublicPerBlock = (db: Executor, table: DirectoryTable, size: number) => newestPerBlock(db, table, size);

export const publicBlockSummary = (db: Executor, table: DirectoryTable, size: number, block: number) =>
  blockSummary(db, table, size, block);

export const publicBlockPage = (
  db: Executor,
  table: DirectoryTable,
  size: number,
  block: number,
  after: number,
  limit: number,
): Promise<BlockRecord[]> => blockPage(db, table, size, block, after, limit);
