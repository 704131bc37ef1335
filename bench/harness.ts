import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startNode, stopChild } from './children.js';
import { measure, type MeasureOptions, type RequestShape, type Sample } from './measure.js';
import { median } from './stats.js';

/** What both suites share: clean-ups, child servers, the real body of a route, and bare/real rounds. */

/** Undone last-in first-out on success, failure and interruption alike; running them twice undoes nothing twice. */
export class Cleanups {
  private readonly undos: (() => unknown)[] = [];

  /** `label` starts the line that reports a failed clean-up (`bench`, `chaos`). */
  constructor(private readonly label = 'bench') {}

  add(undo: () => unknown): void {
    this.undos.push(undo);
  }

  async run(): Promise<void> {
    for (let undo = this.undos.pop(); undo; undo = this.undos.pop()) {
      try {
        await undo();
      } catch (error) {
        console.error(`${this.label}: clean-up failed:`, error);
      }
    }
  }
}

/** Runs `use` with clean-ups of its own, undone when it ends (and by `outer` if the run is interrupted first). */
export async function withCleanups<T>(outer: Cleanups, use: (cleanups: Cleanups) => Promise<T>): Promise<T> {
  const inner = new Cleanups();
  outer.add(() => inner.run());
  try {
    return await use(inner);
  } finally {
    await inner.run();
  }
}

/** `node <args>` in `cwd` (children.ts startNode), stopped by `cleanups`. */
export function startChild(cleanups: Cleanups, args: readonly string[], cwd: string, env: Record<string, string>): ChildProcess {
  const child = startNode(args, cwd, env);
  cleanups.add(() => stopChild(child));
  return child;
}

export interface RoundSettings extends MeasureOptions {
  durationSeconds: number;
  rounds: number;
}

/** The real response, once: it must be a 200 with `success: true`, or the scenario measures an error. */
export async function realBody(url: string, shape: RequestShape): Promise<string> {
  const response = await fetch(url, { method: shape.method, headers: shape.headers });
  const body = await response.text();
  const success = response.ok && (JSON.parse(body) as { success?: unknown }).success === true;
  if (!success) throw new Error(`${url} answered ${response.status} ${body.slice(0, 200)}`);
  return body;
}

/** Bare then real, `rounds` times, so that drift of the machine touches both alike. */
export async function measureRounds(
  settings: RoundSettings,
  name: string,
  bareUrl: string,
  realUrl: string,
  shape: RequestShape,
): Promise<{ bare: Sample[]; real: Sample[] }> {
  const bare: Sample[] = [];
  const real: Sample[] = [];
  for (let round = 1; round <= settings.rounds; round++) {
    bare.push(await measure(bareUrl, settings.durationSeconds, shape, settings));
    real.push(await measure(realUrl, settings.durationSeconds, shape, settings));
    progress(`${name}, round ${round}/${settings.rounds}: bare ${rps(bare)} req/s, real ${rps(real)} req/s`);
  }
  return { bare, real };
}

export function medianSample(samples: readonly Sample[]): Sample {
  return {
    requestsPerSecond: median(samples.map((s) => s.requestsPerSecond)),
    p50Ms: median(samples.map((s) => s.p50Ms)),
    p99Ms: median(samples.map((s) => s.p99Ms)),
  };
}

function rps(samples: readonly Sample[]): string {
  return Math.round(samples.at(-1)?.requestsPerSecond ?? 0).toLocaleString('en-US');
}

export function progress(message: string): void {
  console.error(`bench: ${message}`);
}

export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got "${raw}")`);
  return value;
}

/** A suite's results as JSON at `jsonPath`: the date, Node's version, the load average at its start and end, the datasets. */
export function writeDatasetsReport(jsonPath: string, loadAtStart: number, datasets: readonly unknown[]): void {
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    datasets,
  };
  fs.mkdirSync(path.dirname(jsonPath), { recursive: true });
  fs.writeFileSync(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
}
