import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './exchange-cli.js';
import { type Cleanups, positiveInteger, progress, withCleanups } from './harness.js';
import { datasetDatabase } from './search-data.js';
import { formatTable, median } from './stats.js';
import { writeWxrSite, type WxrNumbers } from './wxr-feed.js';

interface WxrRound {
  seconds: number;
  /** Peak resident memory of the import less that of the same command on an export of no properties, MB. */
  growthMb: number;
  /** The CLI's summary line and its migration report, as printed. */
  output: string;
}

/**
 * The WordPress suite (`BENCH_SUITE=wxr`): `realty-api import site.xml --format wxr` of a Houzez site's export of
 * BENCH_WXR_LISTINGS properties (default 100,000; wxr-feed.ts says what each holds; BENCH_WXR_NUMBERS=plain writes
 * its numbers as bare digits, which builds before the free-text parser also read) into a fresh SQLite database,
 * as a user runs the command (`node dist/main.js`, start-up included), BENCH_WXR_ROUNDS times (default 3), a
 * fresh database each round; the median is reported. Memory growth is the command's peak resident memory
 * (VmHWM) less that of the same command on an export with the same directory and no properties. Pictures and
 * brochures are queued for the `feed-pictures` job, which the CLI does not run: this measures the reading,
 * checking and writing of the site. No target: the issue asks that the import keep its speed, so the figure is
 * compared with the same scenario run on an older build (bench/README.md, "WordPress suite").
 */
export async function runWxrSuite(outer: Cleanups): Promise<void> {
  const listings = positiveInteger('BENCH_WXR_LISTINGS', 100_000);
  const rounds = positiveInteger('BENCH_WXR_ROUNDS', 3);
  const numbers = wxrNumbers();
  const loadAtStart = os.loadavg()[0]!;
  const results: WxrRound[] = [];
  await withCleanups(outer, async (suite) => {
    const files = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-bench-wxr-feed-'));
    suite.add(() => fs.rmSync(files, { recursive: true, force: true }));
    const feed = path.join(files, 'site.xml');
    const empty = path.join(files, 'empty.xml');
    progress(`wxr: writing a Houzez export of ${listings.toLocaleString('en-US')} properties (${numbers} numbers)`);
    writeWxrSite(feed, listings, numbers);
    writeWxrSite(empty, 0);
    progress(`wxr: ${(fs.statSync(feed).size / 1e6).toFixed(0)} MB`);
    for (let round = 1; round <= rounds; round++) {
      const result = await withCleanups(suite, async (scope) => {
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-bench-wxr-'));
        scope.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
        const config = await datasetDatabase(scope, tmp, 'sqlite', 'none');
        if ('skipped' in config) throw new Error(config.skipped);
        const run = (args: string[]) => runCli(config, tmp, args);
        await run(['migrate']);
        await run(['create-admin', '--email', 'bench-admin@example.test', '--password', 'bench-password']);
        const idle = await run(['import', empty, '--format', 'wxr', '--source', 'bench-empty']);
        const imported = await run(['import', feed, '--format', 'wxr', '--source', 'bench-site']);
        if (!imported.output.includes(`${listings} created`))
          throw new Error(`the import did not create every listing: ${imported.output}`);
        progress(`wxr round ${round}: ${imported.seconds.toFixed(1)} s, peak ${Math.round(imported.peakMb)} MB`);
        return { seconds: imported.seconds, growthMb: imported.peakMb - idle.peakMb, output: summaryOf(imported.output) };
      });
      results.push(result);
    }
  });
  const seconds = median(results.map((round) => round.seconds));
  const rows = [
    ['import time', `${seconds.toFixed(1)} s`, results.map((round) => round.seconds.toFixed(1)).join(' / ')],
    ['listings per second', (listings / seconds).toFixed(0), ''],
    [
      'memory growth',
      `${median(results.map((round) => round.growthMb)).toFixed(0)} MB`,
      results.map((round) => round.growthMb.toFixed(0)).join(' / '),
    ],
  ];
  console.log(
    [
      '',
      `WordPress import: a Houzez export of ${listings.toLocaleString('en-US')} properties (${numbers} numbers) into a fresh SQLite database, ` +
        `median of ${rounds} round(s); load average ${loadAtStart.toFixed(2)} at the start, ${os.loadavg()[0]!.toFixed(2)} at the end`,
      formatTable(['measure', 'median', 'rounds'], rows),
      '',
      'the last round printed:',
      results.at(-1)?.output ?? '',
    ].join('\n'),
  );
  const file = process.env.BENCH_WXR_JSON || path.join(import.meta.dirname, 'results', 'wxr-latest.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    `${JSON.stringify({ listings, numbers, rounds, loadAverage: { start: loadAtStart, end: os.loadavg()[0]! }, results }, null, 2)}\n`,
  );
}

/** BENCH_WXR_NUMBERS: how the export writes its numbers (wxr-feed.ts), `houzez` unless told. */
function wxrNumbers(): WxrNumbers {
  const raw = process.env.BENCH_WXR_NUMBERS || 'houzez';
  if (raw !== 'houzez' && raw !== 'plain') throw new Error(`BENCH_WXR_NUMBERS must be houzez or plain (got "${raw}")`);
  return raw;
}

/** The CLI's output without its progress lines (`bytes read …`). */
function summaryOf(output: string): string {
  return output
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('bytes read'))
    .join('\n');
}
