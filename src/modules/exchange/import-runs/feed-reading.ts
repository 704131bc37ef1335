import { FeedSyntaxError } from '../../../adapters/feeds/feed-records.js';
import { pagesFromWorker, startModuleWorker } from '../../../lib/worker-thread.js';
import type { FeedFormat } from '../feed-formats.js';

/** What the reading thread reads: a run's file in its format; a WordPress export sets its properties aside in `spoolFile`. */
export type ReadingJob = { file: string; format: FeedFormat } | { file: string; format: 'wxr'; spoolFile: string };

/** A page of records as the reading thread hands it over; `refusal` ends the pages when the file is not of its format. */
export interface ReadingPage<R> {
  records: R[];
  refusal?: { at: string; reason: string };
}

/** Pages the thread reads ahead of the import: with PAGE records each, a few hundred records wait at most. */
const AHEAD = 2;

/**
 * The records of a run's file, read on a thread of their own (feed-reading-worker.ts): parsing a feed is all
 * computation, and a file shaped to make it slow (deeply nested, one enormous cell) must not keep the serving
 * thread from answering while it runs. The records come over as plain data (FeedRecord, or WxrRecord for `wxr`);
 * the reader's refusal comes as the `FeedSyntaxError` it was. `cancel` stops the thread at once, and its reason
 * is thrown here.
 */
export async function* recordsReadOnThread<R>(job: ReadingJob, cancel: AbortSignal): AsyncGenerator<R> {
  const worker = startModuleWorker(new URL('./feed-reading-worker.js', import.meta.url), job);
  try {
    for await (const page of pagesFromWorker<ReadingPage<R>>(worker, AHEAD, cancel)) {
      yield* page.records;
      if (page.refusal) throw new FeedSyntaxError(page.refusal.at, page.refusal.reason);
    }
  } catch (error) {
    throw cancel.aborted ? cancel.reason : error;
  }
}
