import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { compilePrograms, removePrograms } from '../helpers/global-setup.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Once per browser-test run: the console built as `npm start` builds it (console/dist, skipped when its sources
 * are unchanged), and the server compiled to plain JavaScript, so that each test file's server starts in a
 * second or two.
 */
export default async function setup(project: TestProject): Promise<() => void> {
  execFileSync(process.execPath, ['console/build-if-stale.mjs'], { cwd: ROOT, stdio: 'inherit' });
  const programs = await compilePrograms();
  project.provide('programsDir', programs);
  return () => removePrograms(programs);
}
