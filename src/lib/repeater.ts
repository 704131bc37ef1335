/**
 * Runs a background task now and again after each run, until stopped: the task says how long to wait before
 * its next run (0 when it has more to do at once). Runs never overlap, the timer does not keep the process
 * alive, and `stop()` waits for the run in progress. The task handles its own errors.
 */
export class Repeater {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;

  constructor(private readonly task: () => Promise<number>) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.task().then((nextDelayMs) => this.schedule(nextDelayMs));
    }, delayMs);
    this.timer.unref();
  }
}
