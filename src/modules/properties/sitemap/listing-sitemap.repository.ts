import type { Executor } from '../../../db/executor.js';
import { type BlockRecord, blockPage, blockSummary, newestPerBlock } from '../../../db/sitemap-blocks.js';

/** The public listings by blocks of ids, for the website's sitemap (db/sitemap-blocks.ts, migration 0027). */
export const newestPublicPerBlock = (db: Executor, size: number) => newestPerBlock(db, 'listings', size);

export const publicBlockSummary = (db: Executor, size: number, block: number) => blockSummary(db, 'listings', size, block);

export const publicBlockPage = (db: Executor, size: number, block: number, after: number, limit: number): Promise<BlockRecord[]> =>
  blockPage(db, 'listings', size, block, after, limit);
