/**
 * The drafting thread of demo-draft-batches.ts `draftBatchesOnWorker`: the first message is the job; each
 * 'more' message after it asks for the job's next batch; an empty batch says the job is done.
 */
import { parentPort } from 'node:worker_threads';
import { type DraftJob, draftBatch, draftStreams } from './demo-draft-batches.js';

if (parentPort) {
  const port = parentPort;
  port.once('message', (job: DraftJob) => {
    const streams = draftStreams(job);
    port.on('message', () => port.postMessage(draftBatch(job, streams)));
  });
}
