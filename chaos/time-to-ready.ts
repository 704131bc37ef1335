import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  API,
  type Check,
  type CheckContext,
  count,
  expectData,
  figure,
  median,
  ms,
  positiveInteger,
  register,
  ROOT,
  scratchDatabase,
  ServerProcess,
  uniqueName,
  verdict,
} from './lib.js';
import { analyseStartup, mainThreadProfile } from './startup-profile.js';

/**
 * Check 6: how long a restart takes on a database of 100,000 demo listings, from spawning the process to
 * the first 200 from GET /ready, after a clean stop (SIGTERM) and after kill -9. Target: 5 s (median).
 * One more start runs with --cpu-prof and its profile is broken down, to say where the seconds go.
 *
 * The SQLite dataset is built once and kept in CHAOS_CACHE_DIR (default <tmp>/realty-chaos-cache), named by
 * a hash of the migrations, DDL and seed sources, so that a schema or seed change builds it again; each run
 * measures a copy. It is built by the bulk write path of `seed --properties N` (modules/properties/bulk/,
 * through bench/search-data.ts). PostgreSQL gets a database of its own, filled the same way and dropped
 * afterwards.
 */

const TARGET_MS = 5_000;

export const timeToReady: Check = {
  name: 'time-to-ready',
  title: '6. time to ready with 100,000 listings',
  async run(context) {
    const listings = positiveInteger('CHAOS_READY_LISTINGS', 100_000);
    const samples = positiveInteger('CHAOS_READY_SAMPLES', 3);
    const databaseUrl = await dataset(context, listings);

    const startOptions = { databaseUrl, dir: context.dir };
    const first = await ServerProcess.start(context.cleanups, { ...startOptions, name: 'ready-0' });
    const firstMs = await first.waitReady();
    figure(`first start on this database (not counted): ${ms(firstMs)}`);

    // After a clean stop: stop the running server with SIGTERM, start a new one, time it.
    const clean: Sample[] = [];
    let running = first;
    for (let i = 1; i <= samples; i++) {
      await running.stop();
      running = await ServerProcess.start(context.cleanups, { ...startOptions, name: `ready-clean-${i}` });
      clean.push(await timeStart(running));
    }
    figure(`after a clean stop (SIGTERM): ${describe(clean)}`);

    // After kill -9: a write or two first (so that the WAL has something to recover), SIGKILL, start, time it.
    const killed: Sample[] = [];
    for (let i = 1; i <= samples; i++) {
      const user = await register(running.port, `ready_${uniqueName()}`);
      await expectData(
        { port: running.port, method: 'POST', path: `${API}/properties`, token: user.token, body: { title: 'Chaos ready' } },
        201,
      );
      await running.kill();
      running = await ServerProcess.start(context.cleanups, { ...startOptions, name: `ready-kill-${i}` });
      killed.push(await timeStart(running));
    }
    figure(`after kill -9 (SIGKILL):      ${describe(killed)}`);
    await running.stop();

    if (process.env.CHAOS_READY_PROFILE !== '0') await profileOneStart(context, databaseUrl);

    const cleanMs = median(clean.map((sample) => sample.ms));
    const killedMs = median(killed.map((sample) => sample.ms));
    const problems: string[] = [];
    if (cleanMs > TARGET_MS) problems.push(`after a clean stop ${ms(cleanMs)} > ${ms(TARGET_MS)}`);
    if (killedMs > TARGET_MS) problems.push(`after kill -9 ${ms(killedMs)} > ${ms(TARGET_MS)}`);
    return verdict(
      `${count(listings)} listings, median time to ready ${ms(cleanMs)} after a clean stop, ${ms(killedMs)} after kill -9 (target ${ms(TARGET_MS)})`,
      problems,
    );
  },
};

/** One timed start: spawn to the first 200 from /ready, and the CPU time the server had used by then. */
interface Sample {
  ms: number;
  cpuMs: number | undefined;
}

async function timeStart(server: ServerProcess): Promise<Sample> {
  const readyMs = await server.waitReady();
  return { ms: readyMs, cpuMs: server.cpuMs() };
}

/**
 * The samples' times and median, then their CPU times: on the shared 2-core machine the wall-clock time grows
 * with the other work on it, the CPU time much less, so that the two together say whether a slow start was
 * this server's doing.
 */
function describe(samples: readonly Sample[]): string {
  const line = (values: number[]) => `${values.map(ms).join(', ')} → median ${ms(median(values))}`;
  const cpu = samples.map((sample) => sample.cpuMs).filter((value) => value !== undefined);
  return `${line(samples.map((sample) => sample.ms))}${cpu.length === samples.length ? `; CPU ${line(cpu)}` : ''}`;
}

/** One more start with --cpu-prof (not counted above: profiling slows it), broken down by startup-profile.ts. */
async function profileOneStart(context: CheckContext, databaseUrl: string): Promise<void> {
  const dir = path.join(context.dir, 'cpu-profile');
  const server = await ServerProcess.start(context.cleanups, {
    databaseUrl,
    dir: context.dir,
    name: 'ready-profiled',
    nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`],
  });
  const readyMs = await server.waitReady();
  const cpuMs = server.cpuMs();
  await server.stop(); // the profile is written as the process exits
  const file = fs.existsSync(dir) ? mainThreadProfile(dir) : undefined;
  if (!file) {
    figure('startup profile: no profile was written');
    return;
  }
  const profile = analyseStartup(file, readyMs);
  const cpu = cpuMs === undefined ? '' : `, CPU ${ms(cpuMs)} in all threads`;
  figure(`startup profile (one more start with --cpu-prof, ready after ${ms(readyMs)}${cpu}; main thread):`);
  const at = (value: number | undefined) => (value === undefined ? '?' : ms(value));
  figure(`  0 → ${at(profile.serveAtMs)}: node starts and imports dist/main.js and everything it imports`);
  figure(
    `  ${at(profile.serveAtMs)} → ${at(profile.bootAtMs)}: serve(): migrate, services, bootstrap, the index build begun, buildApp() registering routes`,
  );
  figure(
    `  ${at(profile.bootAtMs)} → ${at(profile.bootEndMs)}: app.listen() → Fastify ready (schemas compile at each route's first request), the index building`,
  );
  figure(`  ${at(profile.bootEndMs)} → ${ms(readyMs)}: listening, the index built, first /ready answered`);
  figure('  where the main thread spent it:');
  for (const [bucket, spent] of profile.buckets) figure(`    ${ms(spent).padStart(9)}  ${bucket}`);
  figure('  most self time:');
  for (const [name, spent] of profile.topSelf) figure(`    ${ms(spent).padStart(9)}  ${name}`);
  figure(`  profile: ${file}${process.env.CHAOS_KEEP === '1' ? '' : ' (removed with the temp dir; CHAOS_KEEP=1 keeps it)'}`);
}

/** The DATABASE_URL of a database holding `listings` demo listings: a copy of the cached SQLite file, or a new PostgreSQL database. */
async function dataset(context: CheckContext, listings: number): Promise<string> {
  if (context.target.kind === 'postgres') {
    const url = await scratchDatabase(context.target, context.dir, context.cleanups);
    const seconds = await fill({ kind: 'postgres', url }, path.join(context.dir, 'uploads'), listings);
    figure(`PostgreSQL database of ${count(listings)} demo listings filled in ${seconds}`);
    return url;
  }
  const cacheDir = process.env.CHAOS_CACHE_DIR || path.join(os.tmpdir(), 'realty-chaos-cache');
  fs.mkdirSync(cacheDir, { recursive: true });
  const cached = path.join(cacheDir, `sqlite-${listings}-${sourceHash()}.db`);
  if (fs.existsSync(cached)) {
    figure(`cached SQLite dataset: ${cached}`);
  } else {
    // Older datasets (another schema or seed) are of no use any more: 600 MB each.
    for (const name of fs.readdirSync(cacheDir)) {
      if (name.startsWith(`sqlite-${listings}-`)) fs.rmSync(path.join(cacheDir, name), { recursive: true, force: true });
    }
    const building = `${cached}.${process.pid}.building`;
    const seconds = await fill({ kind: 'sqlite', path: building }, `${cached}.uploads`, listings);
    fs.renameSync(building, cached);
    figure(`built the SQLite dataset of ${count(listings)} demo listings in ${seconds}: ${cached}`);
  }
  const copy = path.join(context.dir, 'ready.db');
  fs.copyFileSync(cached, copy);
  return `sqlite:${copy}`;
}

/**
 * Fills an empty database with the demo taxonomy and `listings` demo listings, through the bulk write path of
 * `seed --properties N` (fresh mode: a new database). Returns how long it took, as text.
 */
async function fill(config: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string }, uploadDir: string, listings: number) {
  const started = performance.now();
  const { seedDataset } = await import('../bench/search-data.js');
  const { mode } = await seedDataset(config, uploadDir, { count: listings });
  return `${((performance.now() - started) / 1000).toFixed(1)} s (bulk write path, ${mode} mode)`;
}

/** A short hash of what decides the dataset's rows and schema: migrations, DDL snapshots, the seed. */
function sourceHash(): string {
  const hash = createHash('sha256');
  for (const dir of ['src/db/migrations', 'src/db/dialect/ddl', 'src/seed']) {
    for (const name of fs.readdirSync(path.join(ROOT, dir)).sort()) {
      const file = path.join(ROOT, dir, name);
      if (!fs.statSync(file).isFile()) continue;
      hash.update(`${dir}/${name}\0`);
      hash.update(fs.readFileSync(file));
    }
  }
  return hash.digest('hex').slice(0, 12);
}
