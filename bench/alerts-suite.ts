import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Kysely, sql } from 'kysely';
import type { DatabaseConfig } from '../src/config.js';
import type { DB } from '../src/db/schema/index.js';
import type { SavedSearchIndex } from '../src/modules/saved-searches/alerts/saved-search-index.service.js';
import type { MatchableListing } from '../src/modules/search/matcher/search-matcher.js';
import { normalizeSavedSearchQuery } from '../src/modules/search/query/search-query.js';
import { type ResolvedSearch } from '../src/modules/search/query/search-terms.js';
import { resolveTerms } from '../src/modules/search/query/search-terms.repository.js';
import { seedSavedSearches } from './alerts-data.js';
import { printAlertsReport, type AlertsDataset, type AlertsReport, type Timing } from './alerts-report.js';
import { type Cleanups, positiveInteger, progress, withCleanups } from './harness.js';
import { datasetDatabase, seedDataset } from './search-data.js';
import { benchDatabaseUrl } from './search-settings.js';
import { median, percentile } from './stats.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const WARMUP_LISTINGS = 5;

/**
 * The measured code as `npm run build` compiles it into dist/ (`npm run bench` builds first), as the server
 * runs it. Through tsx, src/ carries esbuild's keepNames helper: every closure made in a call (matchesListing
 * makes two) also gets a defineProperty, which made the in-memory figures four to eight times slower.
 */
const COMPILED = {
  database: 'db/database.js',
  notifier: 'modules/notifications/delivery/notifier.service.js',
  alerts: 'modules/saved-searches/alerts/saved-search-alerts.service.js',
  index: 'modules/saved-searches/alerts/saved-search-index.service.js',
  matcher: 'modules/search/matcher/search-matcher.js',
  matcherRepository: 'modules/search/matcher/search-matcher.repository.js',
} as const;

interface Compiled {
  database: typeof import('../src/db/database.js');
  notifier: typeof import('../src/modules/notifications/delivery/notifier.service.js');
  alerts: typeof import('../src/modules/saved-searches/alerts/saved-search-alerts.service.js');
  index: typeof import('../src/modules/saved-searches/alerts/saved-search-index.service.js');
  matcher: typeof import('../src/modules/search/matcher/search-matcher.js');
  matcherRepository: typeof import('../src/modules/search/matcher/search-matcher.repository.js');
}

async function loadCompiled(): Promise<Compiled> {
  const modules: Record<string, unknown> = {};
  for (const [name, file] of Object.entries(COMPILED)) {
    const compiled = path.join(ROOT, 'dist', file);
    const source = path.join(ROOT, 'src', file.replace(/\.js$/, '.ts'));
    if (!fs.existsSync(compiled) || fs.statSync(compiled).mtimeMs < fs.statSync(source).mtimeMs) {
      throw new Error(`dist/${file} is missing or older than its source: run \`npm run build\` (npm run bench does)`);
    }
    modules[name] = await import(pathToFileURL(compiled).href);
  }
  return modules as unknown as Compiled;
}
/** The target: one newly published listing against every saved search. */
const TARGET_MS = 200;

/**
 * The alerts suite (`BENCH_SUITE=alerts`): saved-search alerts (src/modules/saved-searches/alerts/saved-search-alerts.service.ts)
 * on a SQLite file and, unless BENCH_DATABASE_URL=none, a PostgreSQL database of its own. Each dataset is the
 * demo taxonomy with BENCH_ALERTS_LISTINGS demo listings (default 20,000) and BENCH_ALERTS_SEARCHES saved
 * searches (default 100,000; bench/alerts-data.ts). Measured in this process, per listing, over
 * BENCH_ALERTS_SAMPLES listings (default 50) each moved to `publish` just before (so the terms stamp moves,
 * as in production): matchPublished in its own transaction, and with Notifier.announce; beside them, in the
 * same run and on the same listings, the floor (a transaction loading the listing for the matcher) and, in
 * memory, the index's lookup against matchesListing over every saved search. Also the cold index build and
 * the refreshes after a saved search is added or deleted and after a term's slug changes.
 * Results: bench/results/alerts-latest.json (BENCH_ALERTS_JSON).
 */
export async function runAlertsSuite(cleanups: Cleanups): Promise<void> {
  const settings = {
    searches: positiveInteger('BENCH_ALERTS_SEARCHES', 100_000),
    listings: positiveInteger('BENCH_ALERTS_LISTINGS', 20_000),
    samples: positiveInteger('BENCH_ALERTS_SAMPLES', 50),
    adminUrl: benchDatabaseUrl(),
    jsonPath: path.resolve(process.env.BENCH_ALERTS_JSON || path.join(ROOT, 'bench/results/alerts-latest.json')),
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-alerts-bench-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const loadAtStart = os.loadavg()[0]!;
  const compiled = await loadCompiled();
  const datasets: AlertsDataset[] = [];
  const skipped: string[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    if (dialect === 'postgres' && settings.adminUrl === 'none') {
      skipped.push('PostgreSQL: not measured (BENCH_DATABASE_URL=none)');
      continue;
    }
    const result = await withCleanups(cleanups, async (scope) => {
      const config = await datasetDatabase(scope, tmp, dialect, settings.adminUrl);
      return 'skipped' in config ? config : measureDataset(compiled, config, path.join(tmp, `uploads-${dialect}`), settings);
    });
    if ('skipped' in result) {
      progress(result.skipped);
      skipped.push(result.skipped);
    } else {
      datasets.push(result);
    }
  }
  const report: AlertsReport = {
    date: new Date().toISOString(),
    node: process.version,
    cpus: os.availableParallelism(),
    loadAverage: { start: loadAtStart, end: os.loadavg()[0]! },
    samples: settings.samples,
    targetMs: TARGET_MS,
    datasets,
    skipped,
  };
  fs.mkdirSync(path.dirname(settings.jsonPath), { recursive: true });
  fs.writeFileSync(settings.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  printAlertsReport(report, settings.jsonPath);
}

interface Settings {
  searches: number;
  listings: number;
  samples: number;
}

async function measureDataset(app: Compiled, config: DatabaseConfig, uploadDir: string, settings: Settings): Promise<AlertsDataset> {
  const { loadMatchableListings } = app.matcherRepository;
  // What SearchService gives the alerts (matchableListings, resolveTermsIn), from the compiled repositories.
  const searchReads = { matchableListings: loadMatchableListings, resolveTermsIn: resolveTerms };
  const label = `${config.kind}, ${settings.searches.toLocaleString('en-US')} saved searches`;
  progress(`${label}: seeding ${settings.listings.toLocaleString('en-US')} listings`);
  const seeding = await seedDataset(config, uploadDir, { count: settings.listings });
  const database = app.database.createDatabase(config);
  const { db } = database;
  try {
    progress(`${label}: seeding the saved searches`);
    const searches = await seedSavedSearches(db, settings.searches);
    // What autovacuum would have done a minute after such a load (as the bulk writer does for the listings):
    // planner statistics, and on PostgreSQL the visibility map that lets counts read an index alone.
    await sql.raw(config.kind === 'postgres' ? 'vacuum analyze saved_searches' : 'analyze saved_searches').execute(db);
    // Listings that will enter `publish` one at a time, as a publishing transaction would move them.
    const published = await db.selectFrom('listings').select('id').where('status', '=', 'publish').orderBy('id').execute();
    const wanted = WARMUP_LISTINGS + 2 * settings.samples;
    const step = Math.max(1, Math.floor(published.length / wanted));
    const chosen = published
      .filter((_, i) => i % step === 0)
      .slice(0, wanted)
      .map((row) => row.id);
    if (chosen.length < wanted) throw new Error(`only ${published.length} published listings: raise BENCH_ALERTS_LISTINGS`);
    await db.updateTable('listings').set({ status: 'pending' }).where('id', 'in', chosen).execute();

    const notifier = new app.notifier.Notifier({ push: false });
    const alerts = new app.alerts.SavedSearchAlerts(db, notifier, searchReads);
    const heapBefore = process.memoryUsage().heapUsed;
    progress(`${label}: building the index`);
    const coldBuildMs = await timed(() => alerts.warm());
    const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;

    const warmup = chosen.slice(0, WARMUP_LISTINGS);
    const alone = chosen.slice(WARMUP_LISTINGS, WARMUP_LISTINGS + settings.samples);
    const announced = chosen.slice(WARMUP_LISTINGS + settings.samples);
    const now = new Date();
    const publish = (id: number) => db.updateTable('listings').set({ status: 'publish' }).where('id', '=', id).execute();
    for (const id of warmup) {
      await publish(id);
      await db.transaction().execute((trx) => alerts.matchPublished(trx, [id], now));
    }

    progress(`${label}: matching ${settings.samples} listings, with the floor between`);
    const matchMs: number[] = [];
    const floorMs: number[] = [];
    for (const id of alone) {
      await publish(id);
      matchMs.push(await timed(() => db.transaction().execute((trx) => alerts.matchPublished(trx, [id], now))));
      floorMs.push(await timed(() => db.transaction().execute((trx) => loadMatchableListings(trx, [id]))));
    }
    const withAnnounceMs: number[] = [];
    let instantAnnouncements = 0;
    for (const id of announced) {
      await publish(id);
      withAnnounceMs.push(
        await timed(() =>
          db.transaction().execute(async (trx) => {
            const announcements = await alerts.matchPublished(trx, [id], now);
            instantAnnouncements += announcements.length;
            await notifier.announce(trx, announcements, now);
          }),
        ),
      );
    }
    const matched = await db
      .selectFrom('saved_search_matches')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('listing_id', 'in', [...alone, ...announced])
      .executeTakeFirstOrThrow();

    progress(`${label}: in-memory lookups against matchesListing over every saved search`);
    const listings = await loadMatchableListings(db, [...alone, ...announced]);
    const index = new app.index.SavedSearchIndex(searchReads);
    const secondBuildMs = await timed(() => db.transaction().execute((trx) => index.refresh(trx)));
    const everySearch = await resolvedSearches(db);
    index.matching(listings[0]!); // the first call compiles the lookup: not what is measured
    const lookupMs: number[] = [];
    const bruteMs: number[] = [];
    for (const listing of listings) {
      let fromIndex = 0;
      let fromAll = 0;
      lookupMs.push(await timed(async () => void (fromIndex = index.matching(listing).length)));
      bruteMs.push(await timed(async () => void (fromAll = countMatches(app.matcher.matchesListing, listing, everySearch))));
      if (fromIndex !== fromAll)
        throw new Error(`listing ${listing.id}: the index found ${fromIndex} saved searches, matchesListing over all of them ${fromAll}`);
    }
    const unchangedMs: number[] = [];
    for (let i = 0; i < settings.samples; i++) unchangedMs.push(await timed(() => db.transaction().execute((trx) => index.refresh(trx))));
    const changes = await changeTimings(db, index);
    return {
      dialect: config.kind,
      listings: settings.listings,
      publishedListings: seeding.published,
      searches,
      index: { ...alerts.indexSize, coldBuildMs, secondBuildMs, heapMb },
      matchedPerListing: Number(matched.n) / (alone.length + announced.length),
      instantPerListing: instantAnnouncements / announced.length,
      timings: {
        matchPublished: timing(matchMs),
        matchPublishedAndAnnounce: timing(withAnnounceMs),
        floor: timing(floorMs),
        indexLookup: timing(lookupMs),
        everySearch: timing(bruteMs),
        refreshUnchanged: timing(unchangedMs),
      },
      changes,
    };
  } finally {
    await database.destroy();
  }
}

/** Refreshes after one saved search is added, one deleted, and a searched city's slug changes (and back). */
async function changeTimings(db: Kysely<DB>, index: SavedSearchIndex): Promise<AlertsDataset['changes']> {
  const refresh = () => timed(() => db.transaction().execute((trx) => index.refresh(trx)));
  const template = await db.selectFrom('saved_searches').selectAll().orderBy('id').limit(1).executeTakeFirstOrThrow();
  const { id: _id, ...copy } = template;
  const added = await db.insertInto('saved_searches').values(copy).returning('id').executeTakeFirstOrThrow();
  const addedMs = await refresh();
  await db.deleteFrom('saved_searches').where('id', '=', added.id).execute();
  const deletedMs = await refresh();
  const city = await db
    .selectFrom('terms')
    .select(['id', 'slug'])
    .where('taxonomy', '=', 'property_city')
    .where('slug', '=', 'miami')
    .executeTakeFirstOrThrow();
  await db.updateTable('terms').set({ slug: 'miami-renamed' }).where('id', '=', city.id).execute();
  const renamedMs = await refresh();
  await db.updateTable('terms').set({ slug: city.slug }).where('id', '=', city.id).execute();
  await refresh();
  return { addedMs, deletedMs, renamedMs };
}

/** Every saved search resolved, as the index resolves it but without it: the naive way to match. */
async function resolvedSearches(db: Kysely<DB>): Promise<ResolvedSearch[]> {
  const rows = await db.selectFrom('saved_searches').select('query_string').execute();
  const byText = new Map<string, ResolvedSearch>();
  const byTerms = new Map<string, ResolvedSearch['termIds']>();
  const all: ResolvedSearch[] = [];
  for (const { query_string: text } of rows) {
    let resolved = byText.get(text);
    if (!resolved) {
      const query = normalizeSavedSearchQuery(text);
      const key = JSON.stringify(query.terms ?? {});
      let termIds = byTerms.get(key);
      if (!termIds) byTerms.set(key, (termIds = (await resolveTerms(db, query)).termIds));
      byText.set(text, (resolved = { query, termIds }));
    }
    all.push(resolved);
  }
  return all;
}

function countMatches(
  matches: Compiled['matcher']['matchesListing'],
  listing: MatchableListing,
  searches: readonly ResolvedSearch[],
): number {
  let count = 0;
  for (const search of searches) if (matches(listing, search)) count++;
  return count;
}

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return performance.now() - started;
}

function timing(values: readonly number[]): Timing {
  const sorted = Float64Array.from(values).sort();
  return {
    p50Ms: median(values),
    p99Ms: percentile(sorted, 99),
    maxMs: sorted[sorted.length - 1]!,
    count: values.length,
    values: [...values],
  };
}
