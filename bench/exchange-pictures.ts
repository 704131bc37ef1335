import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { type Kysely, sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.js';
import type { DB } from '../src/db/schema/index.js';
import { freePort, residentMemoryMb, stopChild, waitForOk } from './children.js';
import { databaseUrlOf, highWaterKb, MAIN, runCli } from './exchange-cli.js';
import { writeFeed } from './exchange-feed.js';
import { type Cleanups, progress, startChild } from './harness.js';
import type { PictureServer } from './picture-server.js';
import { withDatabase } from './search-data.js';
import { median, percentile } from './stats.js';

/** Pictures fetched at once by the job (AT_ONCE in src/modules/exchange/pictures/feed-pictures.service.ts): the baseline's concurrency. */
export const JOB_CONCURRENCY = 4;
/** Pictures a listing of the pictures feed names: a modest gallery (feeds give 5 to 30). */
export const PICTURES_PER_LISTING = 8;
const DEFAULT_PICTURES = 300;
/** Pictures of the second baseline (download and re-encode, no storage): the first ones, enough for a steady rate. */
const PROCESS_SAMPLE = 100;
const SOURCE = 'bench-pictures';
/** The time the queue may go without a picture stored before the scenario gives up. */
const STALL_MS = 120_000;
const POLL_MS = 100;
/** Generous: `serve` starts on a database of 110,000 listings, on a machine other work may share. */
const READY_TIMEOUT_MS = 180_000;

export interface PictureRound {
  pictures: number;
  listings: number;
  /** Bytes the server sent for the pictures, once (the job's fetch and the baseline's are the same bytes). */
  bytes: number;
  /**
   * From the end of the import's process to the job's first claim of a picture (negative when the job claimed
   * before the process ended): the idle job's 5 s interval, not counted in `seconds`.
   */
  waitSeconds: number;
  /** From the job's first claim to the moment every picture is stored and in its place in its gallery. */
  seconds: number;
  picturesPerSecond: number;
  /** The baseline: the same pictures downloaded by a bare client at the job's concurrency. */
  bareSeconds: number;
  barePicturesPerSecond: number;
  /** The bare client's peak resident memory (VmHWM), MB: a Node process and the pictures in flight. */
  barePeakMb: number;
  /** picturesPerSecond / barePicturesPerSecond. */
  ratio: number;
  /**
   * The second baseline: the first PROCESS_SAMPLE pictures downloaded and put through the compiled
   * processUpload at the job's concurrency, nothing stored: the job's picture work without the rest.
   */
  processPictures: number;
  processPicturesPerSecond: number;
  /** That baseline's CPU time per picture, ms: to set beside the serve process's. */
  processCpuMsPerPicture: number;
  /** That baseline process's peak resident memory (VmHWM), MB: what sharp takes for four pictures at once. */
  processPeakMb: number;
  /** The job's claims that stored the pictures (eight pictures each, the last fewer), from the claims' times. */
  jobRuns: number;
  /**
   * Mean time from one claim to the next: what eight pictures cost in the end. A run of the job claims eight more
   * as the ones in hand run out, for up to 20 s; the next run starts at the scheduler's next tick (every second).
   */
  runPeriodSeconds: number;
  /** Median and 90th percentile of the time from a claim to its last picture's media row (the slowest of eight). */
  runSeconds: number;
  runSecondsP90: number;
  /** CPU time of the `serve` process over `seconds` (user + system), per picture, ms. */
  serveCpuMsPerPicture: number;
  /** CPU time of the `serve` process over `seconds` / `seconds`: cores kept busy (the machine has 2). */
  serveCores: number;
  /** The `serve` process's resident memory once ready, and its peak (VmHWM) then and after the pictures, MB. */
  serveReadyRssMb: number;
  serveReadyPeakMb: number;
  servePeakMb: number;
}

/** BENCH_EXCHANGE_PICTURES: pictures of the pictures scenario (default 300); 0 leaves the scenario out. */
export function pictureCount(): number {
  const raw = process.env.BENCH_EXCHANGE_PICTURES;
  if (raw === undefined || raw === '') return DEFAULT_PICTURES;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`BENCH_EXCHANGE_PICTURES must be a whole number, 0 to leave pictures out (got "${raw}")`);
  return value;
}

/**
 * The pictures scenario, on a database the exchange suite has filled: `realty-api serve` runs as in production
 * (its scheduler runs the `feed-pictures` job: four pictures at a time, claimed eight at a time as they are
 * needed, for up to 20 s a run, the next run at the scheduler's next tick while there are more); a CSV feed of listings naming `pictures` picture URLs on the
 * local picture server is imported with `realty-api import` while it runs, and the bench polls the database
 * until every picture is stored and in its place. The rate counts from the job's first claim, so that the
 * job's 5 s interval (the wait of an idle job) is reported apart; it includes everything the job does: the
 * guarded download, sniffing, decoding and re-encoding four sizes, storing the files, the media rows and the
 * gallery updates, and the scheduler's ticks between runs.
 *
 * NOTE: the job is run by a real `serve` process rather than by calling FeedPictures.runOnce in a loop here:
 * the loop would leave out the scheduler's claim, release and tick between runs (up to a second each) and the work a serving process does beside it (the search engine following the galleries'
 * changes), which are part of the rate a site sees.
 *
 * Before it, the baselines (bench/picture-client.ts, in a child process, at the job's concurrency): the same
 * pictures from the same server downloaded by a bare client, and the first PROCESS_SAMPLE of them downloaded
 * and put through processUpload (nothing stored). Afterwards the end state is checked: every picture stored
 * (none failed), every listing's gallery of its feed's size, four files per picture in the storage; and the
 * job's claims are read back from the pictures (how long eight pictures took, how often a claim was made).
 */
export async function measurePictures(
  scope: Cleanups,
  options: { config: DatabaseConfig; tmp: string; server: PictureServer; pictures: number; label: string },
): Promise<PictureRound> {
  const { config, tmp, server, pictures, label } = options;
  const listings = Math.ceil(pictures / PICTURES_PER_LISTING);
  const galleryOf = (listing: number) =>
    Array.from({ length: Math.min(PICTURES_PER_LISTING, pictures - listing * PICTURES_PER_LISTING) }, (_, position) =>
      server.url(listing * PICTURES_PER_LISTING + position),
    );
  let bytes = 0;
  for (let n = 0; n < pictures; n++) bytes += server.size(n);

  const { seconds: bare, peakMb: barePeakMb } = await baseline('download', server.base, pictures, tmp);
  const processPictures = Math.min(pictures, PROCESS_SAMPLE);
  const {
    seconds: processed,
    cpuSeconds: processCpu,
    peakMb: processPeakMb,
  } = await baseline('process', server.base, processPictures, tmp);
  progress(
    `${label}: baselines at ${JOB_CONCURRENCY} at a time: download ${(pictures / bare).toFixed(1)} pictures/s, ` +
      `download and re-encode ${(processPictures / processed).toFixed(1)} pictures/s`,
  );

  const feed = path.join(tmp, 'pictures.csv');
  writeFeed(feed, listings, { keyPrefix: 'PIC', images: galleryOf });
  const uploads = path.join(tmp, 'picture-uploads');
  const port = await freePort();
  const serve = startChild(scope, [MAIN, 'serve'], tmp, {
    HOME: tmp,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrlOf(config),
    UPLOAD_DIR: uploads,
    DATA_DIR: tmp,
    SEED_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    // The picture server is on the loopback address, which the outbound guard refuses unless allowed.
    IMPORT_ALLOWED_HOSTS: '127.0.0.1',
  });
  await waitForOk(serve, `http://127.0.0.1:${port}/ready`, READY_TIMEOUT_MS);
  const pid = serve.pid!;
  const serveReadyRssMb = residentMemoryMb(pid);
  const serveReadyPeakMb = highWaterKb(pid) / 1024;

  return withDatabase(config, async ({ db }) => {
    // A claim moves a picture's not_before five minutes on; a minute on tells a claimed picture from a new one.
    const claimedAfter = new Date(Date.now() + 60_000).toISOString();
    // Polled from the import's start: the job may claim the first pictures before the import's process has ended.
    let importEnd: number | undefined;
    let importFailed = false;
    const importing = runCli(config, tmp, ['import', feed, '--format', 'csv', '--source', SOURCE]).then(
      (run) => ((importEnd = performance.now()), run),
      (error: unknown) => {
        importFailed = true;
        throw error;
      },
    );
    importing.catch(() => {}); // awaited below; a failure ends the polling first
    let first: { at: number; cpu: number } | undefined;
    let lastStored = -1;
    let lastProgress = performance.now();
    for (;;) {
      if (importFailed) await importing;
      const state = await queueState(db, claimedAfter);
      const now = performance.now();
      if (state.tried > 0) throw new Error(`${label}: a picture failed: ${await firstError(db)}`);
      if (!first && state.stored + state.claimed > 0) first = { at: now, cpu: cpuSeconds(pid) };
      if (state.stored === pictures && state.placed === pictures) break;
      if (state.stored !== lastStored) [lastStored, lastProgress] = [state.stored, now];
      if (now - lastProgress > STALL_MS) throw new Error(`${label}: no picture stored for ${STALL_MS / 1000} s (${JSON.stringify(state)})`);
      await sleep(POLL_MS);
    }
    const end = performance.now();
    const cpu = cpuSeconds(pid) - first!.cpu;
    const servePeakMb = highWaterKb(pid) / 1024;
    const imported = await importing;
    if (!imported.output.includes(`${listings} created`))
      throw new Error(`the pictures feed did not create every listing: ${imported.output}`);
    await stopChild(serve);
    await checkEndState(db, { pictures, listings, uploads, label });
    const runs = await jobRuns(db);
    const seconds = (end - first!.at) / 1000;
    return {
      pictures,
      listings,
      bytes,
      waitSeconds: (first!.at - importEnd!) / 1000,
      seconds,
      picturesPerSecond: pictures / seconds,
      bareSeconds: bare,
      barePicturesPerSecond: pictures / bare,
      barePeakMb,
      ratio: pictures / seconds / (pictures / bare),
      processPictures,
      processPicturesPerSecond: processPictures / processed,
      processCpuMsPerPicture: (processCpu * 1000) / processPictures,
      processPeakMb,
      ...runs,
      serveCpuMsPerPicture: (cpu * 1000) / pictures,
      serveCores: cpu / seconds,
      serveReadyRssMb,
      serveReadyPeakMb,
      servePeakMb,
    };
  });
}

/** The feed pictures' state: how many stored, how many of those in their place, claimed, and tried and failed. */
async function queueState(db: Kysely<DB>, claimedAfter: string) {
  const { rows } = await sql<{ stored: unknown; placed: unknown; claimed: unknown; tried: unknown }>`
    select
      sum(case when fp.state = 'stored' then 1 else 0 end) as stored,
      sum(case when fp.state = 'stored' and m.listing_id = fp.listing_id and m.position = fp.position then 1 else 0 end) as placed,
      sum(case when fp.state = 'pending' and fp.not_before > ${claimedAfter} then 1 else 0 end) as claimed,
      sum(case when fp.attempts > 0 then 1 else 0 end) as tried
    from feed_pictures fp left join media m on m.id = fp.media_id`.execute(db);
  const row = rows[0];
  return {
    stored: Number(row?.stored ?? 0),
    placed: Number(row?.placed ?? 0),
    claimed: Number(row?.claimed ?? 0),
    tried: Number(row?.tried ?? 0),
  };
}

async function firstError(db: Kysely<DB>): Promise<string> {
  const row = await db.selectFrom('feed_pictures').select(['url', 'attempts', 'last_error']).where('attempts', '>', 0).executeTakeFirst();
  return row ? `${row.url} (try ${row.attempts}): ${row.last_error}` : 'unknown';
}

/** Throws unless every picture is stored, every listing's gallery has its feed's pictures, and the files are there. */
async function checkEndState(
  db: Kysely<DB>,
  expected: { pictures: number; listings: number; uploads: string; label: string },
): Promise<void> {
  const states = await db
    .selectFrom('feed_pictures')
    .select(['state', (eb) => eb.fn.countAll().as('n')])
    .groupBy('state')
    .execute();
  const counts = Object.fromEntries(states.map((row) => [row.state, Number(row.n)]));
  if (counts.stored !== expected.pictures || Object.keys(counts).length !== 1) {
    throw new Error(`${expected.label}: pictures should all be stored, found ${JSON.stringify(counts)}`);
  }
  const galleries = await db
    .selectFrom('listing_sources')
    .leftJoin('media', 'media.listing_id', 'listing_sources.listing_id')
    .select(['listing_sources.source_key', (eb) => eb.fn.count('media.id').as('n')])
    .where('listing_sources.source', '=', SOURCE)
    .groupBy('listing_sources.source_key')
    .execute();
  const wrong = galleries.filter((row) => {
    const listing = Number(row.source_key.replace('PIC-', ''));
    return Number(row.n) !== Math.min(PICTURES_PER_LISTING, expected.pictures - listing * PICTURES_PER_LISTING);
  });
  if (galleries.length !== expected.listings || wrong.length > 0) {
    throw new Error(
      `${expected.label}: ${galleries.length} galleries of ${expected.listings}, ${wrong.length} of the wrong size (${JSON.stringify(wrong.slice(0, 3))})`,
    );
  }
  // The original and its three sizes (thumbnail, medium, large: a 1600×1200 picture is larger than each).
  const files = (fs.readdirSync(expected.uploads, { recursive: true, withFileTypes: true }) as fs.Dirent[]).filter((entry) =>
    entry.isFile(),
  );
  if (files.length !== 4 * expected.pictures) {
    throw new Error(`${expected.label}: ${files.length} files stored for ${expected.pictures} pictures (4 each expected)`);
  }
}

/**
 * The job's claims, read back from the pictures: a claim sets its pictures' not_before to the claim's time
 * plus CLAIM_MS (five minutes, feed-pictures.service.ts), which a stored picture keeps; its last
 * media row's created_at is when its slowest picture was stored.
 */
async function jobRuns(db: Kysely<DB>): Promise<Pick<PictureRound, 'jobRuns' | 'runPeriodSeconds' | 'runSeconds' | 'runSecondsP90'>> {
  const CLAIM_MS = 5 * 60_000;
  const rows = await db
    .selectFrom('feed_pictures')
    .innerJoin('media', 'media.id', 'feed_pictures.media_id')
    .select(['feed_pictures.not_before', (eb) => eb.fn.max('media.created_at').as('last')])
    .groupBy('feed_pictures.not_before')
    .orderBy('feed_pictures.not_before')
    .execute();
  const starts = rows.map((row) => Date.parse(row.not_before) - CLAIM_MS);
  const durations = Float64Array.from(rows, (row, n) => (Date.parse(String(row.last)) - starts[n]!) / 1000).sort();
  return {
    jobRuns: rows.length,
    runPeriodSeconds: rows.length > 1 ? (starts.at(-1)! - starts[0]!) / 1000 / (rows.length - 1) : 0,
    runSeconds: durations.length > 0 ? median([...durations]) : 0,
    runSecondsP90: durations.length > 0 ? percentile(durations, 90) : 0,
  };
}

/** A baseline's seconds and peak resident memory (MB): bench/picture-client.ts in a child process. */
async function baseline(
  mode: 'download' | 'process',
  base: string,
  count: number,
  cwd: string,
): Promise<{ seconds: number; cpuSeconds: number; peakMb: number }> {
  const client = spawn(
    process.execPath,
    [
      '--import',
      import.meta.resolve('tsx'),
      path.join(import.meta.dirname, 'picture-client.ts'),
      mode,
      base,
      String(count),
      String(JOB_CONCURRENCY),
    ],
    { cwd, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  let peakKb = 0;
  client.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const poll = setInterval(() => (peakKb = Math.max(peakKb, highWaterKb(client.pid))), 50);
  const code = await new Promise<number | null>((resolve) => client.on('exit', resolve));
  clearInterval(poll);
  if (code !== 0) throw new Error(`the picture client (${mode}) exited with ${code}: ${output}`);
  const { seconds, cpuSeconds } = JSON.parse(output) as { seconds: number; cpuSeconds: number };
  return { seconds, cpuSeconds, peakMb: peakKb / 1024 };
}

let clockTicks: number | undefined;

/** User + system CPU time of a process so far, seconds (/proc/<pid>/stat, Linux). */
function cpuSeconds(pid: number): number {
  clockTicks ??= Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name (which may hold spaces), from the third: utime and stime are 14th and 15th.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks;
}

/**
 * The pictures scenario's rows of the suite's table (medians of the rounds): no target (the issue sets none for
 * the picture rate), so neither a target nor a verdict.
 */
export function pictureRows(dialect: string, rounds: readonly { pictures?: PictureRound }[]): string[][] {
  const measured = rounds.flatMap((round) => (round.pictures ? [round.pictures] : []));
  if (measured.length === 0) return [];
  const middle = (field: keyof PictureRound) => median(measured.map((round) => round[field]));
  const line = (name: string, value: string) => [`${dialect} pictures: ${name}`, value, '—', '—'];
  return [
    line('feed-pictures job', `${middle('picturesPerSecond').toFixed(2)} pictures/s`),
    line(`bare download, ${JOB_CONCURRENCY} at a time`, `${middle('barePicturesPerSecond').toFixed(1)} pictures/s`),
    line('job / bare', middle('ratio').toFixed(3)),
    line(`download and re-encode, ${JOB_CONCURRENCY} at a time`, `${middle('processPicturesPerSecond').toFixed(1)} pictures/s`),
    line(
      'claims of 8',
      `${middle('runSeconds').toFixed(2)} s each (p90 ${middle('runSecondsP90').toFixed(2)} s), one every ${middle('runPeriodSeconds').toFixed(2)} s`,
    ),
    line('serve CPU', `${middle('serveCpuMsPerPicture').toFixed(0)} ms a picture, ${middle('serveCores').toFixed(2)} cores`),
    line('download and re-encode CPU', `${middle('processCpuMsPerPicture').toFixed(0)} ms a picture`),
    line('serve peak', `${Math.round(middle('servePeakMb'))} MB (${Math.round(middle('serveReadyPeakMb'))} MB when ready)`),
    line(
      'download and re-encode process peak',
      `${Math.round(middle('processPeakMb'))} MB (download alone: ${Math.round(middle('barePeakMb'))} MB)`,
    ),
    line('first claim after the import', `${middle('waitSeconds').toFixed(1)} s`),
  ];
}
