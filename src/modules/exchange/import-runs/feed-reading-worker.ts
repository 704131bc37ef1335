/**
 * The reading thread of an import run (feed-reading.ts): reads the run's file with its format's reader and hands
 * the records over in pages, one page per request of lib/worker-thread.ts `pagesFromWorker`. A file that is not
 * of its format ends the pages with the reader's refusal, which the serving thread throws as it was thrown here.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { FeedSyntaxError } from '../../../adapters/feeds/feed-records.js';
import { readWxrSite } from '../../../adapters/feeds/wxr/wxr-reader.js';
import { servePages } from '../../../lib/worker-thread.js';
import { FEED_FORMATS } from '../feed-formats.js';
import type { ReadingJob, ReadingPage } from './feed-reading.js';

/** Records per page: few enough to be handed over in well under a millisecond, enough to pay for a message. */
const PAGE = 100;

async function* pages(job: ReadingJob): AsyncGenerator<ReadingPage<unknown>> {
  const input = fs.createReadStream(job.file);
  const records: AsyncIterable<unknown> = job.format === 'wxr' ? readWxrSite(input, job.spoolFile) : FEED_FORMATS[job.format].read(input);
  let page: unknown[] = [];
  try {
    for await (const record of records) {
      page.push(record);
      if (page.length === PAGE) {
        yield { records: page };
        page = [];
      }
    }
  } catch (error) {
    if (!(error instanceof FeedSyntaxError)) throw error;
    yield { records: page, refusal: { at: error.at, reason: error.reason } };
    return;
  }
  if (page.length > 0) yield { records: page };
}

if (parentPort) servePages(parentPort, pages(workerData as ReadingJob));
