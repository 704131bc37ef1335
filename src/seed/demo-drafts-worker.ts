/**
 * The drafting thread of demo-draft-batches.ts `draftBatchesOnWorker`: each 'more' message asks for the next
 * batch of the job given as workerData; an empty batch says the job is done.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type DraftJob, draftBatch, draftStreams } from './demo-draft-batches.js';

if (parentPort) {
  const port = parentPort;
  const job = workerData as DraftJob;
  const streams = draftStreams(job);
  port.on('message', () => port.postMessage(draftBatch(job, streams)));
}
