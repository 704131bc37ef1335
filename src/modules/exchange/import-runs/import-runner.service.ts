import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { nowIso } from '../../../lib/time.js';
import type { FeedSources } from './feed-sources.service.js';
import { type ExecutionDeps, ImportExecution } from './import-execution.service.js';
import * as repository from './import-runs.repository.js';

/** A run whose heartbeat (written every second) is older than this lost its process: it is queued again. */
const STALE_AFTER_MS = 2 * 60_000;
/** Starts of one run before a stale one fails instead of being queued again: a feed that kills its process must not loop. */
export const MAX_ATTEMPTS = 3;
/**
 * How long one run of the job waits for the import it started: a small import ends within it, and the job runs
 * again at once for the next one. A longer import goes on beside the next ticks under its own heartbeat, so the
 * job never holds its lease (SHORT_LEASE_MS) past its limit, and a shutdown (which waits for the job's run, then
 * stops the import) stays well inside SHUTDOWN_TIMEOUT_MS.
 */
const TICK_WAIT_MS = 2_000;
/** Queued runs read per query while looking for one this process can run. */
const CANDIDATES = 50;

/**
 * The `feed-imports` job (docs/data-exchange.md, "Imports over HTTP"). Each run: queues again the runs whose
 * process died (their heartbeat is stale), queues an import for each feed source that is due, then claims ONE
 * queued run and runs it. At most one import runs at a time across processes: a run is claimed by a conditional
 * update (still queued, and no run running), so two processes never run one import and never two at once.
 * Running an import again after a crash is safe: imports are syncs, and what was written is found unchanged.
 */
export class ImportRunner {
  private active: { execution: ImportExecution; done: Promise<void> } | undefined;
  /** Set while this process claims, so that two overlapping calls (the tests') claim once. */
  private claiming = false;

  constructor(
    private readonly deps: ExecutionDeps,
    private readonly sources: FeedSources,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The job's run at the tick's time `now`: 0 when it finished an import (look again at once), else nothing. */
  async runOnce(now = new Date()): Promise<number | void> {
    await this.recoverStale(now);
    const queued = await this.sources.queueDue(now);
    if (queued > 0) this.log.info({ queued }, 'feed sources due: imports queued');
    if (this.active !== undefined || this.claiming) return;
    this.claiming = true;
    let execution: ImportExecution | undefined;
    try {
      execution = await this.claimNext();
    } finally {
      this.claiming = false;
    }
    if (execution === undefined) return;
    const done = execution
      .runToEnd()
      .catch((error: unknown) => this.log.error({ importRun: execution.runId, reason: String(error) }, 'import run not recorded'))
      .finally(() => (this.active = undefined));
    this.active = { execution, done };
    return (await finishedWithin(done, TICK_WAIT_MS)) ? 0 : undefined;
  }

  /** Whether this process runs an import now. */
  get busy(): boolean {
    return this.active !== undefined;
  }

  /** Waits for the import this process runs, if any (tests, shutdown). */
  async idle(): Promise<void> {
    await this.active?.done;
  }

  /** Shutdown: the running import stops reading and waits in the queue again, to be run from the start. */
  async stop(): Promise<void> {
    this.active?.execution.stop('shutdown');
    await this.idle();
  }

  private async recoverStale(now: Date): Promise<void> {
    const { db, files } = this.deps;
    const staleBefore = nowIso(new Date(now.getTime() - STALE_AFTER_MS));
    const { failedFiles, requeued } = await repository.recoverStaleRuns(db, staleBefore, MAX_ATTEMPTS, {
      error: `its process stopped during each of ${MAX_ATTEMPTS} attempts`,
      at: nowIso(now),
    });
    for (const key of failedFiles) await files.remove(key);
    if (requeued > 0) this.log.warn({ requeued }, 'import runs of a stopped process queued again');
  }

  /**
   * The oldest queued run this process can run, claimed; none while another runs. An upload is run only where
   * its file is: by a process of the machine that received it, or any process when DATA_DIR is shared.
   */
  private async claimNext(): Promise<ImportExecution | undefined> {
    const { db, files } = this.deps;
    if (await repository.anyRunning(db)) return undefined;
    // Page by page: uploads waiting for another machine must not hide the runs behind them.
    for (let after = 0; ;) {
      const page = await repository.findQueued(db, after, CANDIDATES);
      for (const candidate of page) {
        if (candidate.file_key !== null && !files.exists(candidate.file_key)) continue;
        const claim = randomBytes(12).toString('hex');
        // The wall clock, not the tick's: the heartbeats that follow are written by it.
        const run = await repository.claimRun(db, candidate.id, claim, nowIso());
        if (run === undefined) return undefined; // another process was first: it runs an import now
        // A run taken again starts its report afresh; its counts were reset by the claim.
        await repository.deleteReports(db, run.id);
        this.log.info({ importRun: run.id, attempt: run.attempts }, 'import run started');
        return new ImportExecution(this.deps, run);
      }
      if (page.length < CANDIDATES) return undefined;
      after = page[page.length - 1]!.id;
    }
  }
}

/** Whether the promise settles within `ms`; the timer does not outlive it. */
async function finishedWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([promise.then(() => true as const), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
