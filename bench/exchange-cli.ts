import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { DatabaseConfig } from '../src/config.js';

/** The built CLI, run as a user runs it. */
export const MAIN = path.join(import.meta.dirname, '..', 'dist', 'main.js');

export interface CommandRun {
  seconds: number;
  /** Peak resident memory of the process (VmHWM), MB. */
  peakMb: number;
  output: string;
}

/** The database as DATABASE_URL names it. */
export function databaseUrlOf(config: DatabaseConfig): string {
  return config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url;
}

/**
 * Runs the built CLI on the dataset's database, with its wall time and its peak resident memory. Only PATH and
 * the variables given here reach it (a .env file in `cwd` or the caller's shell must not change what is
 * measured); `env` adds settings.
 */
export async function runCli(config: DatabaseConfig, cwd: string, args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: cwd,
      LOG_LEVEL: 'warn',
      DATABASE_URL: databaseUrlOf(config),
      DATA_DIR: cwd,
      SEED_DEMO: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let peakKb = 0;
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)));
  // VmHWM is the kernel's own high-water mark: read until the process ends, the last reading is its peak.
  const poll = setInterval(() => (peakKb = Math.max(peakKb, highWaterKb(child.pid))), 50);
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`realty-api ${args.join(' ')} exited with ${code}: ${output}`);
  return { seconds: (performance.now() - started) / 1000, peakMb: peakKb / 1024, output };
}

/** The process's peak resident memory so far (VmHWM), kB; 0 once it has ended. */
export function highWaterKb(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0; // the process has ended
  }
}
