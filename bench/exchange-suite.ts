import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runCli } from './exchange-cli.js';
import { writeFeed } from './exchange-feed.js';
import {
  JOB_CONCURRENCY,
  measurePictures,
  type PictureRound,
  PICTURES_PER_LISTING,
  pictureCount,
  pictureRows,
} from './exchange-pictures.js';
import { type Cleanups, positiveInteger, progress, withCleanups } from './harness.js';
import { HEALTH_MAX_TARGET_MS, measureReimport, type ReimportRound, reimportSize } from './exchange-reimport.js';
import { type PictureServer, startPictureServer } from './picture-server.js';
import { datasetDatabase, seedDataset } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';
import { formatTable, median } from './stats.js';

/** The targets: seconds for the import (per database), MB of growth of the importing or exporting process. */
const TARGETS = { importSeconds: { sqlite: 60, postgres: 120 }, importGrowthMb: 200, exportGrowthMb: 100 } as const;

interface ExchangeRound {
  importSeconds: number;
  importGrowthMb: number;
  csvExportSeconds: number;
  csvExportGrowthMb: number;
  kyeroExportSeconds: number;
  kyeroExportGrowthMb: number;
  /** The re-import scenario on the same database (exchange-reimport.ts), unless BENCH_EXCHANGE_REIMPORT=0. */
  reimport?: ReimportRound;
  /** The pictures scenario on the same database (exchange-pictures.ts), unless BENCH_EXCHANGE_PICTURES=0. */
  pictures?: PictureRound;
}

/**
 * The exchange suite (`BENCH_SUITE=exchange`): `realty-api import` of a CSV feed of BENCH_EXCHANGE_LISTINGS
 * listings (default 100,000; no pictures) into a live database (BENCH_EXCHANGE_BASE demo listings already there,
 * default 10,000), then `realty-api export` of the whole database as CSV and as a Kyero feed, each run as the CLI
 * runs (`node dist/main.js`). Time is the command's wall time, start-up included; memory growth is the
 * command's peak resident memory less that of the same command on an empty feed (the application loaded, no
 * records). Then, on the same database, the re-import scenario (exchange-reimport.ts): the feed's first
 * BENCH_EXCHANGE_REIMPORT listings (default 20,000; 0 leaves it out) with changed titles, uploaded to `POST /imports`
 * of a `realty-api serve` while a client polls its `/health`; then the pictures scenario (exchange-pictures.ts): a feed naming
 * BENCH_EXCHANGE_PICTURES pictures (default 300; 0 leaves it out) on a local picture server, fetched by the
 * `feed-pictures` job of a `realty-api serve`, beside a bare download of the same pictures. BENCH_EXCHANGE_ROUNDS
 * rounds (default 1) on SQLite and, unless BENCH_DATABASE_URL=none, PostgreSQL; results in
 * bench/results/exchange-latest.json (BENCH_EXCHANGE_JSON).
 */
export async function runExchangeSuite(outer: Cleanups): Promise<void> {
  const listings = positiveInteger('BENCH_EXCHANGE_LISTINGS', 100_000);
  const base = positiveInteger('BENCH_EXCHANGE_BASE', 10_000);
  const rounds = positiveInteger('BENCH_EXCHANGE_ROUNDS', 1);
  const reimport = reimportSize(listings);
  const pictures = pictureCount();
  const adminUrl = benchDatabaseUrl();
  const loadAtStart = os.loadavg()[0]!;
  let server: PictureServer | undefined;
  if (pictures > 0) {
    progress('exchange: making the pictures and starting their server');
    server = await startPictureServer(outer);
  }
  const datasets: { dialect: 'sqlite' | 'postgres'; rounds: ExchangeRound[] }[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && adminUrl === 'none') continue;
    const dataset = { dialect, rounds: [] as ExchangeRound[] };
    for (let round = 1; round <= rounds; round++) {
      const result = await withCleanups(outer, async (scope) => {
        const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-bench-exchange-'));
        scope.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
        const config = await datasetDatabase(scope, tmp, dialect, adminUrl);
        if ('skipped' in config) return config;
        progress(
          `exchange ${dialect} round ${round}: ${base.toLocaleString('en-US')} demo listings, then a feed of ${listings.toLocaleString('en-US')}`,
        );
        await seedDataset(config, path.join(tmp, 'uploads'), { count: base });
        const feed = path.join(tmp, 'feed.csv');
        writeFeed(feed, listings);
        const empty = path.join(tmp, 'empty.csv');
        fs.writeFileSync(empty, 'key,title\n');
        const run = (args: string[]) => runCli(config, tmp, args);
        await run(['create-admin', '--email', 'bench-admin@example.test', '--password', 'bench-password']);
        const idle = await run(['import', empty, '--format', 'csv', '--source', 'empty']);
        const imported = await run(['import', feed, '--format', 'csv', '--source', 'bench']);
        if (!imported.output.includes(`${listings} created`))
          throw new Error(`the import did not create every listing: ${imported.output}`);
        progress(`exchange ${dialect} round ${round}: import ${imported.seconds.toFixed(1)} s, peak ${Math.round(imported.peakMb)} MB`);
        const csv = await run(['export', '--format', 'csv', '--output', path.join(tmp, 'out.csv')]);
        const kyero = await run(['export', '--format', 'kyero', '--output', path.join(tmp, 'out.xml')]);
        progress(`exchange ${dialect} round ${round}: exports ${csv.seconds.toFixed(1)} s (CSV), ${kyero.seconds.toFixed(1)} s (Kyero)`);
        const updated = reimport > 0 ? await measureReimport(scope, { config, tmp, rows: reimport }) : undefined;
        if (updated) {
          progress(
            `exchange ${dialect} round ${round}: re-import of ${reimport.toLocaleString('en-US')} changed listings ` +
              `${updated.importSeconds.toFixed(1)} s, /health median ${updated.healthMedianMs.toFixed(1)} ms, ` +
              `max ${updated.healthMaxMs.toFixed(1)} ms (idle: ${updated.idleHealthMedianMs.toFixed(1)} / ${updated.idleHealthMaxMs.toFixed(1)} ms)`,
          );
        }
        const label = `exchange ${dialect} round ${round}: pictures`;
        const fetched = server ? await measurePictures(scope, { config, tmp, server, pictures, label }) : undefined;
        if (fetched) {
          progress(
            `${label}: ${fetched.picturesPerSecond.toFixed(2)} pictures/s (${fetched.seconds.toFixed(1)} s from the first claim), ` +
              `bare download ${fetched.barePicturesPerSecond.toFixed(1)} pictures/s, serve peak ${Math.round(fetched.servePeakMb)} MB`,
          );
        }
        return {
          importSeconds: imported.seconds,
          importGrowthMb: imported.peakMb - idle.peakMb,
          csvExportSeconds: csv.seconds,
          csvExportGrowthMb: csv.peakMb - idle.peakMb,
          kyeroExportSeconds: kyero.seconds,
          kyeroExportGrowthMb: kyero.peakMb - idle.peakMb,
          ...(updated ? { reimport: updated } : {}),
          ...(fetched ? { pictures: fetched } : {}),
        };
      });
      if ('skipped' in result) {
        progress(result.skipped);
        break;
      }
      dataset.rounds.push(result);
    }
    if (dataset.rounds.length > 0) datasets.push(dataset);
  }
  report({
    listings,
    base,
    rounds,
    pictures: { count: pictures, perListing: PICTURES_PER_LISTING, concurrency: JOB_CONCURRENCY },
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    datasets,
  });
}

function report(results: {
  listings: number;
  base: number;
  rounds: number;
  /** The pictures scenario's size: pictures in all, per listing, and the job's (and baseline's) concurrency. */
  pictures: { count: number; perListing: number; concurrency: number };
  loadAverage: { start: number; end: number };
  datasets: { dialect: 'sqlite' | 'postgres'; rounds: ExchangeRound[] }[];
}): void {
  const rows = results.datasets.flatMap(({ dialect, rounds }) => {
    const middle = (field: Exclude<keyof ExchangeRound, 'pictures' | 'reimport'>) => median(rounds.map((round) => round[field]));
    const line = (name: string, value: number, unit: string, target: number) => [
      `${dialect} ${name}`,
      `${value.toFixed(1)} ${unit}`,
      `${target} ${unit}`,
      value <= target ? 'yes' : 'NO',
    ];
    return [
      line('import time', middle('importSeconds'), 's', TARGETS.importSeconds[dialect]),
      line('import growth', middle('importGrowthMb'), 'MB', TARGETS.importGrowthMb),
      line('CSV export time', middle('csvExportSeconds'), 's', Infinity),
      line('CSV export growth', middle('csvExportGrowthMb'), 'MB', TARGETS.exportGrowthMb),
      line('Kyero export time', middle('kyeroExportSeconds'), 's', Infinity),
      line('Kyero export growth', middle('kyeroExportGrowthMb'), 'MB', TARGETS.exportGrowthMb),
      ...reimportRows(dialect, rounds),
      ...pictureRows(dialect, rounds),
    ];
  });
  console.log(
    [
      '',
      `Feed import and export: a CSV feed of ${results.listings.toLocaleString('en-US')} listings into a database of ` +
        `${results.base.toLocaleString('en-US')}, median of ${results.rounds} round(s); load average ` +
        `${results.loadAverage.start.toFixed(2)} at the start, ${results.loadAverage.end.toFixed(2)} at the end` +
        (results.pictures.count > 0
          ? `; then ${results.pictures.count.toLocaleString('en-US')} pictures (${results.pictures.perListing} a listing) fetched by ` +
            `the feed-pictures job of \`serve\`, beside a bare download of the same pictures ${results.pictures.concurrency} at a time`
          : ''),
      formatTable(['measure', 'median', 'target', 'met'], rows),
    ].join('\n'),
  );
  const file = process.env.BENCH_EXCHANGE_JSON || path.join(import.meta.dirname, 'results', 'exchange-latest.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

/** The re-import scenario's rows: its time, and `/health` while it ran beside the same client's idle figures. */
function reimportRows(dialect: string, rounds: readonly ExchangeRound[]): string[][] {
  const measured = rounds.flatMap((round) => (round.reimport ? [round.reimport] : []));
  if (measured.length === 0) return [];
  const middle = (field: Exclude<keyof ReimportRound, 'rows'>) => median(measured.map((round) => round[field]));
  const ms = (value: number) => `${value.toFixed(1)} ms`;
  const name = `${dialect} re-import of ${measured[0]!.rows.toLocaleString('en-US')}`;
  return [
    [`${name}: time`, `${middle('importSeconds').toFixed(1)} s`, '', ''],
    [`${name}: /health median (idle)`, `${ms(middle('healthMedianMs'))} (${ms(middle('idleHealthMedianMs'))})`, '', ''],
    [`${name}: /health p99`, ms(middle('healthP99Ms')), '', ''],
    [
      `${name}: /health max (idle)`,
      `${ms(middle('healthMaxMs'))} (${ms(middle('idleHealthMaxMs'))})`,
      `${HEALTH_MAX_TARGET_MS} ms`,
      middle('healthMaxMs') < HEALTH_MAX_TARGET_MS ? 'yes' : 'NO',
    ],
  ];
}
