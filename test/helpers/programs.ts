import { type ChildProcessByStdio, spawn, type SpawnOptions } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { inject } from 'vitest';
import type { PROGRAMS } from './global-setup.js';

/**
 * Starts one of the programs global-setup.ts compiled once for the run (`PROGRAMS`: the CLI from src/main.ts, run as
 * `npm start` runs the built one), with stdout and stderr piped. Plain JavaScript: a start costs loading
 * the application, not compiling it too.
 */
export function startProgram(
  program: keyof typeof PROGRAMS,
  args: string[],
  options: Omit<SpawnOptions, 'stdio'> = {},
): ChildProcessByStdio<null, Readable, Readable> {
  const file = path.join(inject('programsDir'), program);
  if (existsSync(`${file}.error`)) throw new Error(`${program} did not compile: ${readFileSync(`${file}.error`, 'utf8')}`);
  return spawn(process.execPath, ['--enable-source-maps', file, ...args], {
    ...options,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}
