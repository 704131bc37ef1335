/** Where a progress bar writes: a TTY gets a bar redrawn in place, anything else plain lines. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

const REDRAW_EVERY_MS = 100;
const BAR_WIDTH = 30;
/** Without a TTY (CI logs, files), one line per tenth of the work. */
const PLAIN_LINES = 10;

/**
 * Progress of a long job on stderr: count, percent, rate and time left. On a terminal it is one line redrawn
 * at most every 100 ms; elsewhere a plain line every 10 %, so that logs stay readable.
 */
export class ProgressBar {
  private done = 0;
  private readonly startedAt: number;
  private lastDrawAt = 0;
  private plainLinesWritten = 0;

  constructor(
    private readonly label: string,
    private readonly total: number,
    private readonly stream: ProgressStream = process.stderr,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.startedAt = now();
  }

  /** `count` more units are done. */
  advance(count: number): void {
    this.done = Math.min(this.total, this.done + count);
    const share = this.total === 0 ? 1 : this.done / this.total;
    if (this.stream.isTTY) {
      const at = this.now();
      if (at - this.lastDrawAt >= REDRAW_EVERY_MS || this.done === this.total) {
        this.lastDrawAt = at;
        this.stream.write(`\r${this.line(true)}\x1b[K`);
      }
    } else if (Math.floor(share * PLAIN_LINES) > this.plainLinesWritten) {
      this.plainLinesWritten = Math.floor(share * PLAIN_LINES);
      this.stream.write(`${this.line(false)}\n`);
    }
  }

  /** Draws the final state and ends the bar's line on a terminal (plain output has written its last line). */
  finish(): void {
    if (this.stream.isTTY) this.stream.write(`\r${this.line(true)}\x1b[K\n`);
  }

  /** e.g. `listings [#########.....] 61,000/100,000  61 %  2,950/s  ETA 13 s` */
  private line(withBar: boolean): string {
    const share = this.total === 0 ? 1 : this.done / this.total;
    const seconds = Math.max((this.now() - this.startedAt) / 1000, 1e-3);
    const rate = this.done / seconds;
    const eta =
      this.done === this.total
        ? `took ${formatSeconds(seconds)}`
        : rate > 0
          ? `ETA ${formatSeconds((this.total - this.done) / rate)}`
          : 'ETA …';
    const filled = Math.round(share * BAR_WIDTH);
    const bar = withBar ? ` [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]` : '';
    const count = `${this.done.toLocaleString('en-US')}/${this.total.toLocaleString('en-US')}`;
    return `${this.label}${bar} ${count}  ${Math.floor(share * 100)} %  ${Math.round(rate).toLocaleString('en-US')}/s  ${eta}`;
  }
}

function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${seconds < 10 ? seconds.toFixed(1) : Math.round(seconds)} s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes} min ${Math.round(seconds - minutes * 60)} s`;
}
