import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { connections } from './connections.js';
import { killWrites } from './kill-writes.js';
import { Cleanups, type Check, findTargets, message, ROOT, tempDir, type Verdict } from './lib.js';
import { resetTiming } from './reset-timing.js';
import { sharedRedis } from './shared-redis.js';
import { slowClients } from './slow-clients.js';
import { timeToReady } from './time-to-ready.js';
import { webhookKill } from './webhook-kill.js';

/**
 * `npm run chaos [-- name …]`: runs the chaos checks (all, or those named) on SQLite and, when reachable,
 * PostgreSQL; prints each one's figures and a PASS/FAIL/SKIP line, then a summary; exits 1 on any FAIL.
 * See chaos/README.md.
 */

const CHECKS: readonly Check[] = [killWrites, connections, slowClients, sharedRedis, resetTiming, timeToReady, webhookKill];

async function main(): Promise<number> {
  const names = process.argv.slice(2);
  const unknown = names.filter((name) => !CHECKS.some((check) => check.name === name || check.title.startsWith(`${name}.`)));
  if (unknown.length > 0) {
    console.error(`unknown check ${unknown.join(', ')}; the checks: ${CHECKS.map((check) => check.name).join(', ')} (or their numbers)`);
    return 2;
  }
  const selected =
    names.length === 0 ? CHECKS : CHECKS.filter((check) => names.some((name) => check.name === name || check.title.startsWith(`${name}.`)));

  const outer = new Cleanups();
  let interrupted = false;
  const interrupt = (signal: NodeJS.Signals) => {
    if (interrupted) return;
    interrupted = true;
    console.error(`\nchaos: ${signal}: cleaning up (servers, scratch databases, temp dirs)…`);
    void outer.run().finally(() => process.exit(130));
  };
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);

  // The checks run the compiled server, as `npm start` does: build it from the sources as they are now.
  await promisify(execFile)('npm', ['run', 'build', '--silent'], { cwd: ROOT });
  const { targets, notes } = await findTargets();
  for (const note of notes) console.log(`chaos: ${note}`);
  console.log(
    `chaos: targets ${targets.map((target) => target.kind).join(', ')}; checks ${selected.map((check) => check.name).join(', ')}`,
  );

  const results: { check: Check; target: string; verdict: Verdict; seconds: number }[] = [];
  for (const check of selected) {
    for (const target of targets) {
      if (interrupted) break;
      console.log(`\n== ${check.title} [${target.kind}]`);
      const started = performance.now();
      const cleanups = new Cleanups();
      outer.add(() => cleanups.run());
      let verdict: Verdict;
      try {
        verdict = await check.run({ target, dir: tempDir(cleanups, check.name), cleanups });
      } catch (error) {
        verdict = { status: 'FAIL', summary: `error: ${message(error)}` };
      } finally {
        await cleanups.run();
      }
      const seconds = (performance.now() - started) / 1000;
      results.push({ check, target: target.kind, verdict, seconds });
      console.log(`${verdict.status} ${check.name} [${target.kind}]: ${verdict.summary} (${seconds.toFixed(0)} s)`);
    }
  }

  console.log('\n== summary');
  for (const { check, target, verdict } of results)
    console.log(`${verdict.status.padEnd(4)} ${`${check.name} [${target}]`.padEnd(28)} ${verdict.summary}`);
  const failed = results.filter((result) => result.verdict.status === 'FAIL').length;
  console.log(failed === 0 ? `\nchaos: PASS (${results.length} runs)` : `\nchaos: FAIL (${failed} of ${results.length} runs failed)`);
  return failed === 0 && !interrupted ? 0 : 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error('chaos:', error);
    process.exitCode = 1;
  },
);
