import { describe, expect, it } from 'vitest';
import { ProgressBar } from '../../src/lib/progress-bar.js';

/** A stream that records what is written, and a clock the test moves. */
function fixture(isTTY: boolean) {
  const writes: string[] = [];
  let now = 0;
  const stream = { isTTY, write: (text: string) => writes.push(text) };
  return { writes, stream, tick: (ms: number) => (now += ms), clock: () => now };
}

describe('ProgressBar', () => {
  it('writes a plain line per tenth of the work when stderr is not a terminal', () => {
    const f = fixture(false);
    const bar = new ProgressBar('listings', 1000, f.stream, f.clock);
    for (let i = 0; i < 40; i++) {
      f.tick(250);
      bar.advance(25);
    }
    bar.finish();
    expect(f.writes).toHaveLength(10);
    expect(f.writes[0]).toBe('listings 100/1,000  10 %  100/s  ETA 9.0 s\n');
    expect(f.writes[4]).toBe('listings 500/1,000  50 %  100/s  ETA 5.0 s\n');
    expect(f.writes[9]).toBe('listings 1,000/1,000  100 %  100/s  took 10 s\n');
  });

  it('writes one line per step larger than a tenth, and never more than the total', () => {
    const f = fixture(false);
    const bar = new ProgressBar('rows', 10, f.stream, f.clock);
    f.tick(1000);
    bar.advance(7);
    f.tick(1000);
    bar.advance(7);
    expect(f.writes).toEqual(['rows 7/10  70 %  7/s  ETA 0.4 s\n', 'rows 10/10  100 %  5/s  took 2.0 s\n']);
  });

  it('redraws one bar in place on a terminal, at most every 100 ms, and ends its line when finished', () => {
    const f = fixture(true);
    const bar = new ProgressBar('listings', 100, f.stream, f.clock);
    f.tick(200);
    bar.advance(10);
    f.tick(50);
    bar.advance(10); // too soon after the last drawing: skipped
    f.tick(50);
    bar.advance(30);
    f.tick(500);
    bar.advance(50);
    bar.finish();
    expect(f.writes).toEqual([
      '\rlistings [###...........................] 10/100  10 %  50/s  ETA 1.8 s\x1b[K',
      '\rlistings [###############...............] 50/100  50 %  167/s  ETA 0.3 s\x1b[K',
      '\rlistings [##############################] 100/100  100 %  125/s  took 0.8 s\x1b[K',
      '\rlistings [##############################] 100/100  100 %  125/s  took 0.8 s\x1b[K\n',
    ]);
  });
});
