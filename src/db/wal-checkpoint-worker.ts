/**
 * The thread that checkpoints an SQLite database's write-ahead log for the serving thread (wal-checkpoints.ts):
 * a passive checkpoint every `everyMs` through a connection of its own, which copies the log's committed pages
 * into the database file and waits for the disk there, beside the serving thread. It reports each checkpoint
 * that copied pages.
 */
import SQLite from 'better-sqlite3';
import { parentPort, workerData } from 'node:worker_threads';

export interface CheckpointJob {
  file: string;
  everyMs: number;
}

/** What `PRAGMA wal_checkpoint` answers: frames in the log, and frames of it now in the database file. */
export interface CheckpointReport {
  log: number;
  checkpointed: number;
}

function checkpointEvery({ file, everyMs }: CheckpointJob, port: NonNullable<typeof parentPort>): void {
  const connection = new SQLite(file, { fileMustExist: true });
  let reported = 0;
  const timer = setInterval(() => {
    // PASSIVE never waits for a lock and never holds up the writer: what a reader still needs waits for the next one.
    const [{ log, checkpointed }] = connection.pragma('wal_checkpoint(PASSIVE)') as [CheckpointReport & { busy: number }];
    if (checkpointed > 0 && checkpointed !== reported) port.postMessage({ log, checkpointed } satisfies CheckpointReport);
    reported = checkpointed;
  }, everyMs);
  port.on('message', () => {
    clearInterval(timer);
    connection.close();
    port.close();
  });
}

if (parentPort) checkpointEvery(workerData as CheckpointJob, parentPort);
