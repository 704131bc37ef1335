import { describe, expect, it } from 'vitest';
import { defaultLeaseMs, errorText, nextDelayMs } from '../../src/jobs/scheduler.js';

const MINUTE = 60_000;

describe('scheduler timing', () => {
  it('leases a job for five minutes, or two intervals when that is longer', () => {
    expect(defaultLeaseMs(1000)).toBe(5 * MINUTE);
    expect(defaultLeaseMs(2.5 * MINUTE)).toBe(5 * MINUTE);
    expect(defaultLeaseMs(10 * MINUTE)).toBe(20 * MINUTE);
  });

  it('waits the delay a task returns, its interval when it returns none', () => {
    expect(nextDelayMs(undefined, MINUTE)).toBe(MINUTE);
    expect(nextDelayMs(0, MINUTE)).toBe(0);
    expect(nextDelayMs(2500, MINUTE)).toBe(2500);
    expect(nextDelayMs(-5, MINUTE)).toBe(0);
    expect(nextDelayMs(Number.NaN, MINUTE)).toBe(MINUTE);
    const far = nextDelayMs(Number.POSITIVE_INFINITY, MINUTE);
    expect(Number.isFinite(new Date(Date.now() + far).getTime())).toBe(true);
  });
});

describe('scheduler errorText', () => {
  it('keeps the message only, cut to 1000 characters', () => {
    expect(errorText(new Error('boom'))).toBe('boom');
    expect(errorText(new TypeError(''))).toBe('TypeError');
    expect(errorText('plain')).toBe('plain');
    expect(errorText(new Error('y'.repeat(2000)))).toBe('y'.repeat(1000));
  });
});
