import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'csv-stringify/sync';
import type { DatabaseConfig } from '../src/config.js';
import { type Cleanups, positiveInteger, progress, withCleanups } from './harness.js';
import { datasetDatabase, seedDataset } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';
import { formatTable, median } from './stats.js';

/** The targets: seconds for the import (per database), MB of growth of the importing or exporting process. */
const TARGETS = { importSeconds: { sqlite: 60, postgres: 120 }, importGrowthMb: 200, exportGrowthMb: 100 } as const;

const MAIN = path.join(import.meta.dirname, '..', 'dist', 'main.js');

interface CommandRun {
  seconds: number;
  /** Peak resident memory of the process (VmHWM), MB. */
  peakMb: number;
  output: string;
}

interface ExchangeRound {
  importSeconds: number;
  importGrowthMb: number;
  csvExportSeconds: number;
  csvExportGrowthMb: number;
  kyeroExportSeconds: number;
  kyeroExportGrowthMb: number;
}

/**
 * The exchange suite (`BENCH_SUITE=exchange`): `realty-api import` of a CSV feed of BENCH_EXCHANGE_LISTINGS
 * listings (default 100,000; no pictures) into a live database (BENCH_EXCHANGE_BASE demo listings already there,
 * default 10,000), then `realty-api export` of the whole database as CSV and as a Kyero feed, each run as the CLI
 * runs (`node dist/main.js`). Time is the command's wall time, start-up included; memory growth is the
 * command's peak resident memory less that of the same command on an empty feed (the application loaded, no
 * records). BENCH_EXCHANGE_ROUNDS rounds (default 1) on SQLite and, unless BENCH_DATABASE_URL=none, PostgreSQL;
 * results in bench/results/exchange-latest.json (BENCH_EXCHANGE_JSON).
 */
export async function runExchangeSuite(outer: Cleanups): Promise<void> {
  const listings = positiveInteger('BENCH_EXCHANGE_LISTINGS', 100_000);
  const base = positiveInteger('BENCH_EXCHANGE_BASE', 10_000);
  const rounds = positiveInteger('BENCH_EXCHANGE_ROUNDS', 1);
  const adminUrl = benchDatabaseUrl();
  const loadAtStart = os.loadavg()[0]!;
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
        return {
          importSeconds: imported.seconds,
          importGrowthMb: imported.peakMb - idle.peakMb,
          csvExportSeconds: csv.seconds,
          csvExportGrowthMb: csv.peakMb - idle.peakMb,
          kyeroExportSeconds: kyero.seconds,
          kyeroExportGrowthMb: kyero.peakMb - idle.peakMb,
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
  report({ listings, base, rounds, loadAverage: { start: loadAtStart, end: os.loadavg()[0]! }, datasets });
}

function report(results: {
  listings: number;
  base: number;
  rounds: number;
  loadAverage: { start: number; end: number };
  datasets: { dialect: 'sqlite' | 'postgres'; rounds: ExchangeRound[] }[];
}): void {
  const rows = results.datasets.flatMap(({ dialect, rounds }) => {
    const middle = (field: keyof ExchangeRound) => median(rounds.map((round) => round[field]));
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
    ];
  });
  console.log(
    [
      '',
      `Feed import and export: a CSV feed of ${results.listings.toLocaleString('en-US')} listings into a database of ` +
        `${results.base.toLocaleString('en-US')}, median of ${results.rounds} round(s); load average ` +
        `${results.loadAverage.start.toFixed(2)} at the start, ${results.loadAverage.end.toFixed(2)} at the end`,
      formatTable(['measure', 'median', 'target', 'met'], rows),
    ].join('\n'),
  );
  const file = process.env.BENCH_EXCHANGE_JSON || path.join(import.meta.dirname, 'results', 'exchange-latest.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

const TYPES = ['Apartment', 'Villa', 'Townhouse', 'Studio', 'Penthouse', 'Duplex', 'Office', 'Land'];
const FEATURES = ['Pool', 'Garden', 'Lift', 'Terrace', 'Garage', 'Air Conditioning', 'Sea View', 'Fireplace', 'Gym', 'Storage'];
const PLACES = [
  ['Spain', 'Andalusia', 'Málaga'],
  ['Spain', 'Catalonia', 'Barcelona'],
  ['Portugal', 'Lisbon', 'Lisbon'],
  ['France', 'Provence', 'Nice'],
  ['United States', 'Florida', 'Miami'],
] as const;

/** A CSV feed as an agency's system writes one: every field filled, 40 areas, descriptions of a few sentences. */
function writeFeed(file: string, count: number): void {
  const out = fs.openSync(file, 'w');
  try {
    const header =
      'key,title,status,description,reference,price,currency,bedrooms,bathrooms,size,size_unit,year_built,types,statuses,features,country,state,city,area,address,zipcode,latitude,longitude';
    fs.writeSync(out, `${header}\n`);
    let chunk: unknown[][] = [];
    for (let n = 0; n < count; n++) {
      const [country, state, city] = PLACES[n % PLACES.length]!;
      const type = TYPES[n % TYPES.length]!;
      const bedrooms = 1 + (n % 5);
      const features = FEATURES.filter((_, f) => (n >> f) % 3 === 0).join('|');
      chunk.push([
        `FEED-${n}`,
        `${bedrooms}-bedroom ${type} in ${city} #${n}`,
        n % 10 === 0 ? 'sold' : 'publish',
        `<p>A bright ${type.toLowerCase()} of ${60 + (n % 200)} m² with ${bedrooms} bedrooms in ${city}.</p><p>Close to shops, schools and transport; renovated ${2000 + (n % 24)}.</p>`,
        `REF-${n}`,
        100_000 + ((n * 7919) % 900_000),
        'EUR',
        bedrooms,
        1 + (n % 3),
        60 + (n % 200),
        'm2',
        1950 + (n % 74),
        type,
        n % 10 === 0 ? 'For Rent' : 'For Sale',
        features,
        country,
        state,
        city,
        `District ${n % 8}`,
        `${1 + (n % 300)} Main Street`,
        String(10_000 + (n % 90_000)),
        (36 + (n % 1000) / 1000).toFixed(6),
        (-4 + (n % 1000) / 1000).toFixed(6),
      ]);
      if (chunk.length === 1000) {
        fs.writeSync(out, stringify(chunk));
        chunk = [];
      }
    }
    if (chunk.length > 0) fs.writeSync(out, stringify(chunk));
  } finally {
    fs.closeSync(out);
  }
}

/** Runs the built CLI on the dataset's database, with its wall time and its peak resident memory. */
async function runCli(config: DatabaseConfig, cwd: string, args: string[]): Promise<CommandRun> {
  const url = config.kind === 'sqlite' ? `sqlite:${config.path}` : config.url;
  const started = performance.now();
  const child = spawn(process.execPath, [MAIN, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOME: cwd, LOG_LEVEL: 'warn', DATABASE_URL: url, DATA_DIR: cwd, SEED_DEMO: 'false' },
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

function highWaterKb(pid: number | undefined): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
  } catch {
    return 0; // the process has ended
  }
}
