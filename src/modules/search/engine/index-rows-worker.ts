/**
 * The reading thread of a large build of the search index (index-feed.service.ts): each request of
 * lib/worker-thread.ts `pagesFromWorker` gets the next page of the searchable listings as one JSON text,
 * read through a connection of this thread's own (db/database.ts `openReader`). The database's work and the
 * driver's then run beside the building thread, which only parses each page and fills the index.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseConfig } from '../../../config.js';
import { openReader } from '../../../db/database.js';
import { servePages } from '../../../lib/worker-thread.js';
import { searchableListingTexts } from './index-rows.repository.js';

export interface ListingTextsJob {
  database: DatabaseConfig;
  pageSize: number;
}

async function* listingTexts({ database, pageSize }: ListingTextsJob): AsyncGenerator<string> {
  const db = openReader(database);
  try {
    yield* searchableListingTexts(db, pageSize);
  } finally {
    await db.destroy();
  }
}

if (parentPort) servePages(parentPort, listingTexts(workerData as ListingTextsJob));
