import { once } from 'node:events';
import type SQLite from 'better-sqlite3';
import { startModuleWorker } from '../lib/worker-thread.js';
import type { CheckpointJob, CheckpointReport } from './wal-checkpoint-worker.js';

/** How often the checkpointing thread looks: the log holds about this much of the writes between two looks. */
const DEFAULT_EVERY_MS = 1_000;

/**
 * Moves an SQLite file's checkpoints off the serving thread. By default the commit that takes the write-ahead log
 * past 1,000 pages checkpoints it there and then: it copies the pages into the database file and waits for the disk
 * (fsync), on the thread that serves (better-sqlite3 is synchronous). During a re-import of 20,000 listings that
 * was one commit every 3 s holding the thread 150–450 ms, off the processor, the slowest `/health` answers (issue
 * 38). Here the connection's automatic checkpoints are turned off, and a thread of its own (wal-checkpoint-worker.ts)
 * checkpoints every `everyMs` instead, passively: it never waits for the writer nor holds it up, and a commit is
 * as durable as before (synchronous = NORMAL: a commit is in the log, which a crash of the process never loses).
 * Should that thread end unasked, the connection's automatic checkpoints come back, so that the log never grows
 * without end.
 */
export class WalCheckpoints {
  private readonly worker;
  private readonly autocheckpoint: number;
  private readonly ended: Promise<unknown>;
  private stopping = false;
  /** Frames the thread copied into the database file so far. */
  framesCheckpointed = 0;

  constructor(
    private readonly connection: SQLite.Database,
    file: string,
    everyMs = DEFAULT_EVERY_MS,
  ) {
    this.autocheckpoint = connection.pragma('wal_autocheckpoint', { simple: true }) as number;
    connection.pragma('wal_autocheckpoint = 0');
    const job: CheckpointJob = { file, everyMs };
    this.worker = startModuleWorker(new URL('./wal-checkpoint-worker.js', import.meta.url), job);
    // It must not keep a process alive that has nothing else to do (a command that forgot to close its database).
    this.worker.unref();
    this.ended = once(this.worker, 'exit');
    let copied = 0;
    this.worker.on('message', ({ checkpointed }: CheckpointReport) => {
      // `checkpointed` counts from the start of the log, which starts again once wholly copied.
      this.framesCheckpointed += checkpointed >= copied ? checkpointed - copied : checkpointed;
      copied = checkpointed;
    });
    this.worker.on('error', () => undefined);
    this.worker.on('exit', () => {
      if (!this.stopping && this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${this.autocheckpoint}`);
    });
  }

  /** Stops the thread (before the connection closes, which checkpoints what is left itself). */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.worker.postMessage('stop');
    await this.ended;
  }
}
