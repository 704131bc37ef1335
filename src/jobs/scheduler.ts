import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema/index.js';
import { nowIso } from '../lib/time.js';
import { Repeater } from '../lib/repeater.js';
import * as repository from './scheduler.repository.js';

/**
 * A scheduled job's work for one period. `now` is the tick's time. It may return how many milliseconds after
 * this run's start its next run is due (0: it has more to do at once); nothing means its interval. Throwing
 * records the error and retries it an interval after this run's start.
 */
export type ScheduledTask = (now: Date) => Promise<number | void>;

export interface SchedulerOptions {
  /** How often the process looks for due jobs; a job runs at most this late. Default 1 s. */
  tickMs?: number;
  /** Written to `locked_by` while this process runs a job; default a random id per instance. */
  owner?: string;
}

export interface ScheduledJobOptions {
  /** How long a claim holds the job against other processes; default `defaultLeaseMs(interval)`. */
  leaseMs?: number;
}

interface Job {
  name: string;
  intervalMs: number;
  leaseMs: number;
  task: ScheduledTask;
}

const MINUTE_MS = 60_000;
const MAX_ERROR_LENGTH = 1000;
/** The owners of the schedulers of this process not stopped yet: a lease of this pid under another owner is a dead one's. */
const liveOwnersOfThisProcess = new Set<string>();
/** About 100 years: keeps an absurd delay (Infinity) inside what a Date can hold. */
const MAX_DELAY_MS = 100 * 365 * 24 * 60 * MINUTE_MS;

/**
 * Runs registered jobs once per period however many processes run a scheduler on one database. Each job has a
 * row in `scheduled_jobs` (migration 0010): a process runs a job only after a conditional update moved the
 * job's lease to it, so exactly one process wins each period; after the run it sets the next run and
 * releases the lease. A process that dies mid-run keeps the job until the lease runs out, then another
 * process takes over; but a process on the same host sees at once that the holder is gone (its pid is not
 * running, or is its own: a restarted container's process has the pid its predecessor had) and takes the job
 * over without waiting, so that a restart after a crash does not hold up notifications and mail for a lease.
 * That relies on processes of different machines having different host names (they do under Docker and
 * Kubernetes unless `hostname` is set to one value for several replicas). Within a process a job never
 * overlaps itself; different jobs run concurrently.
 *
 * Periods count from the start of a run, so that a job whose interval is the tick runs at every tick rather
 * than every other one (counted from its end, a 1 s job ticked every 1 s ran every 2 s).
 */
export class Scheduler {
  private readonly tickMs: number;
  /** Who holds a lease, as written to `locked_by`. */
  readonly owner: string;
  private readonly jobs = new Map<string, Job>();
  /** Jobs this process is claiming or running, each with its run (resolves true when it ran the task). */
  private readonly running = new Map<string, Promise<boolean>>();
  private readonly repeater = new Repeater(() => this.tick());
  /** Between start() and stop(): a tick whose read of the jobs returns after stop() was called starts nothing. */
  private ticking = false;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly log: FastifyBaseLogger,
    options: SchedulerOptions = {},
  ) {
    this.tickMs = options.tickMs ?? 1000;
    this.owner = options.owner ?? `${hostname()}:${process.pid}:${randomBytes(6).toString('hex')}`;
    liveOwnersOfThisProcess.add(this.owner);
  }

  /** Registers a job to run every `intervalMs`; its first run is as soon as it has no row or its row is due. */
  every(name: string, intervalMs: number, task: ScheduledTask, options: ScheduledJobOptions = {}): this {
    if (this.jobs.has(name)) throw new Error(`scheduled job ${name} is registered twice`);
    if (!(intervalMs > 0) || !Number.isFinite(intervalMs))
      throw new Error(`scheduled job ${name}: interval must be a positive number of ms`);
    const leaseMs = options.leaseMs ?? defaultLeaseMs(intervalMs);
    if (!(leaseMs > 0) || !Number.isFinite(leaseMs)) throw new Error(`scheduled job ${name}: lease must be a positive number of ms`);
    this.jobs.set(name, { name, intervalMs, leaseMs, task });
    return this;
  }

  /** Starts ticking now and every `tickMs`; the timer does not keep the process alive. */
  start(): void {
    this.ticking = true;
    this.repeater.start();
  }

  /** Stops ticking and waits for the jobs this process is running; none starts after this is called. */
  async stop(): Promise<void> {
    this.ticking = false;
    await this.repeater.stop();
    await Promise.all(this.running.values());
    liveOwnersOfThisProcess.delete(this.owner);
  }

  /**
   * One tick: claims every registered job that is due at `now` and not held by anyone, runs them concurrently
   * and waits for them; returns the names of the jobs it ran. Task failures are recorded, not thrown.
   */
  async runDue(now = new Date()): Promise<string[]> {
    const runs = await this.launchDue(now);
    const ran = await Promise.all(runs.map(async ([name, run]) => ((await run) ? name : undefined)));
    return ran.filter((name): name is string => name !== undefined);
  }

  /** The timer's tick: starts due jobs without waiting for them, so that a long job delays no other. */
  private async tick(): Promise<number> {
    try {
      await this.launchDue(new Date(), () => this.ticking);
    } catch (error) {
      this.log.error({ reason: errorText(error) }, 'scheduler tick failed');
    }
    return this.tickMs;
  }

  /**
   * Reads every job's row in one query (the cheap common case: nothing is due) and starts a claim for each
   * job that looks due; the claim itself is what decides.
   */
  private async launchDue(now: Date, goOn: () => boolean = () => true): Promise<[string, Promise<boolean>][]> {
    const names = [...this.jobs.keys()];
    if (names.length === 0) return [];
    const at = nowIso(now);
    const rows = await repository.findJobRows(this.db, names);
    // A tick in flight when stop() is called would otherwise start a job that stop() has to wait for.
    if (!goOn()) return [];
    const rowsByName = new Map(rows.map((row) => [row.name, row]));
    const runs: [string, Promise<boolean>][] = [];
    for (const job of this.jobs.values()) {
      if (this.running.has(job.name)) continue;
      const row = rowsByName.get(job.name);
      let deadHolder: string | undefined;
      if (row && !isClaimable(row, at)) {
        const fromDeadProcess = row.next_run_at <= at && row.locked_by !== null && isDeadProcessOfThisHost(row.locked_by);
        if (!fromDeadProcess) continue;
        deadHolder = row.locked_by!;
        this.log.warn({ job: job.name, holder: deadHolder }, 'scheduled job taken over from a process of this host that is gone');
      }
      // Registered before any await, so that an overlapping tick of this process skips the job.
      const run = this.claimAndRun(job, now, !row, deadHolder).finally(() => this.running.delete(job.name));
      this.running.set(job.name, run);
      runs.push([job.name, run]);
    }
    return runs;
  }

  /** Never rejects: resolves true when this process won the job and ran it. */
  private async claimAndRun(job: Job, now: Date, missing: boolean, deadHolder: string | undefined): Promise<boolean> {
    try {
      if (!(await this.claim(job, now, missing, deadHolder))) return false;
    } catch (error) {
      this.log.error({ job: job.name, reason: errorText(error) }, 'scheduled job claim failed');
      return false;
    }
    const startedMs = Date.now();
    let delayMs = job.intervalMs;
    let failure: string | null = null;
    try {
      delayMs = nextDelayMs(await job.task(now), job.intervalMs);
    } catch (error) {
      failure = errorText(error);
      this.log.error({ job: job.name, reason: failure }, 'scheduled job failed');
    }
    // The run's end on the caller's clock: the wall clock when ticking, a test's fake time plus the real duration.
    const finished = new Date(now.getTime() + (Date.now() - startedMs));
    try {
      await this.release(job, { nextRunAt: new Date(now.getTime() + delayMs), finished }, failure);
    } catch (error) {
      // The lease stays: another process (or this one) runs the job again once it runs out.
      this.log.error({ job: job.name, reason: errorText(error) }, 'scheduled job release failed');
    }
    return true;
  }

  /**
   * Moves the job's lease to this process when it is due and free, or still held by `deadHolder` (a process of
   * this host that is gone); true when this process won it.
   */
  private async claim(job: Job, now: Date, missing: boolean, deadHolder: string | undefined): Promise<boolean> {
    const at = nowIso(now);
    if (missing) await repository.insertJobRow(this.db, job.name, at);
    const claim = { at, leaseUntil: nowIso(new Date(now.getTime() + job.leaseMs)), owner: this.owner };
    return deadHolder === undefined
      ? repository.claimJob(this.db, job.name, claim)
      : repository.takeOverJob(this.db, job.name, deadHolder, claim);
  }

  /** Sets the next run and frees the lease, unless the lease ran out and another process has taken the job. */
  private async release(job: Job, run: { nextRunAt: Date; finished: Date }, failure: string | null): Promise<void> {
    const released = await repository.releaseJob(this.db, job.name, this.owner, {
      nextRunAt: nowIso(run.nextRunAt),
      finishedAt: nowIso(run.finished),
      error: failure,
    });
    if (!released) {
      this.log.warn({ job: job.name, leaseMs: job.leaseMs }, 'scheduled job outlived its lease; another process took it over');
    }
  }
}

/**
 * Whether `lockedBy` names a process of this host that no longer runs: an owner written as `host:pid:random`
 * (the default) whose pid is this process's own but that is none of this process's schedulers (a restarted
 * process reusing the pid, as pid 1 in a container does), or whose pid runs no process at all. Owners in any
 * other form are never judged dead.
 */
function isDeadProcessOfThisHost(lockedBy: string): boolean {
  const match = /^(.*):(\d+):[0-9a-f]+$/.exec(lockedBy);
  if (!match || match[1] !== hostname()) return false;
  const pid = Number(match[2]);
  if (pid === process.pid) return !liveOwnersOfThisProcess.has(lockedBy);
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // EPERM: the pid runs, under another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Long enough for a slow run, and two periods so that a short job is not taken over between its ticks. */
export function defaultLeaseMs(intervalMs: number): number {
  return Math.max(5 * MINUTE_MS, 2 * intervalMs);
}

/** The delay a task asked for: a number of ms (negative counts as 0), or its interval when it gave none. */
export function nextDelayMs(returned: number | void, intervalMs: number): number {
  if (typeof returned !== 'number' || Number.isNaN(returned)) return intervalMs;
  return Math.min(Math.max(0, returned), MAX_DELAY_MS);
}

/** What is stored in `last_error` and logged: the message only, cut to 1000 characters. */
export function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}

/** A row is free to claim when it is due and nobody holds a lease on it. ISO timestamps compare as time. */
function isClaimable(row: { next_run_at: string; locked_until: string | null }, at: string): boolean {
  return row.next_run_at <= at && (row.locked_until === null || row.locked_until < at);
}
