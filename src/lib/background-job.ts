/**
 * A job the scheduler runs once per period however many processes serve the API (jobs/scheduler.ts).
 * Modules declare their jobs; the scheduler runs them and records nothing of its own.
 */
export interface BackgroundJob {
  /** Its row in `scheduled_jobs`: unique across the application. */
  readonly name: string;
  readonly intervalMs: number;
  /** How long a claim holds the job against other processes; default from the interval (scheduler.ts). */
  readonly leaseMs?: number;
  /**
   * One period's work at the tick's time `now`. It may return how many milliseconds to wait before its next
   * run (0: it has more to do at once); nothing means its interval. Throwing records the error and retries
   * it an interval later.
   */
  run(now: Date): Promise<number | void>;
}

/**
 * The lease of the frequent jobs that bound their own runs to seconds: a process of another host that dies
 * holding one delays it this long (one of the same host is replaced at once, jobs/scheduler.ts).
 */
export const SHORT_LEASE_MS = 60_000;
