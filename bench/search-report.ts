import type { Sample } from './measure.js';
import type { ExplainedStatement } from './query-plans.js';
import type { SeedSummary } from './search-data.js';
import type { EngineFigures, FreshnessResult } from './search-engine-figures.js';
import type { ScenarioRound } from './search-measure.js';
import { GROWTH_TARGET, type ScenarioKey, type SearchScenario, targetRatioAt } from './search-scenarios.js';
import { formatTable } from './stats.js';

export type Dialect = 'sqlite' | 'postgres';

export interface SearchScenarioResult {
  key: ScenarioKey;
  name: string;
  /** The fixed request (the first of the rotation). */
  path: string;
  distinctRequests: number;
  /** Listings the fixed request's answer says match (its pagination total, or the map's total). */
  matches: number;
  /** Matches of the requests answered before measuring (spread over the rotation): their median, how many found none. */
  sampledMatches: { median: number; none: number; of: number };
  /** The fixed request's answer, and the bare twin's body (the sampled answer of median size). */
  bodyBytes: number;
  bareBodyBytes: number;
  /** Medians over the rounds at 10 connections; absent when the scenario could not be measured (`failure` says why). */
  bare?: Sample;
  real?: Sample;
  /** Real over bare median throughput at 10 connections. */
  ratio?: number;
  /** Median p50 at 1 connection. */
  bareOneP50Ms?: number;
  realOneP50Ms?: number;
  rounds?: ScenarioRound[];
  failure?: string;
}

/** One start of the API server: from spawn until /ready answered 200. */
export interface ServerStart {
  readyMs: number;
}

export interface DatasetResult {
  dialect: Dialect;
  listings: number;
  seeding: SeedSummary;
  scenarios: SearchScenarioResult[];
  /** The statements of one warm request of each explained scenario, with their plans. */
  plans: Partial<Record<ScenarioKey, ExplainedStatement[]>>;
  /** The API server's resident memory after the dataset's scenarios. */
  rssMb: number;
  /** The measured server's start, then the second process's (started after the scenarios). */
  starts: ServerStart[];
  /** The engine's gauges: once /ready answered, after the scenarios, and on the second process after the writes. */
  engine: { atStart: EngineFigures; afterLoad: EngineFigures; secondProcess: EngineFigures };
  freshness: FreshnessResult;
}

export interface GrowthResult {
  key: ScenarioKey;
  name: string;
  dialect: Dialect;
  /** Null where the scenario could not be measured. */
  from: { listings: number; p50Ms: number | null };
  to: { listings: number; p50Ms: number | null };
  growth: number | null;
  target: number;
  met: boolean;
}

export interface RatioResult {
  key: ScenarioKey;
  name: string;
  dialect: Dialect;
  listings: number;
  /** Null where the scenario could not be measured. */
  ratio: number | null;
  target: number;
  met: boolean;
}

/** Everything one run of the search suite measured; written as JSON as it is. */
export interface SearchReport {
  date: string;
  node: string;
  cpus: number;
  /** 1-minute load average of the machine when the suite started and ended (other work skews the figures). */
  loadAverage: { start: number; end: number };
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
  requestsPerScenario: number;
  /** SEARCH_ENGINE given to the servers (BENCH_SEARCH_ENGINE), or `default`. */
  searchEngine: string;
  datasets: DatasetResult[];
  /** Datasets not measured, with the reason (PostgreSQL unreachable). */
  skipped: string[];
  growth: GrowthResult[];
  ratios: RatioResult[];
}

/** The growth of each growth-target scenario's median latency from the smallest to the largest dataset of each database. */
export function growthResults(datasets: readonly DatasetResult[], scenarios: readonly SearchScenario[]): GrowthResult[] {
  return (['sqlite', 'postgres'] as const).flatMap((dialect) => {
    const sized = datasets.filter((d) => d.dialect === dialect).sort((a, b) => a.listings - b.listings);
    const [smallest, largest] = [sized[0], sized.at(-1)];
    if (!smallest || !largest || smallest === largest) return [];
    return scenarios
      .filter((scenario) => scenario.growthTarget)
      .map((scenario) => {
        const from = smallest.scenarios.find((s) => s.key === scenario.key)?.real?.p50Ms ?? null;
        const to = largest.scenarios.find((s) => s.key === scenario.key)?.real?.p50Ms ?? null;
        const growth = from === null || to === null ? null : to / from;
        return {
          key: scenario.key,
          name: scenario.name,
          dialect,
          from: { listings: smallest.listings, p50Ms: from },
          to: { listings: largest.listings, p50Ms: to },
          growth,
          target: GROWTH_TARGET,
          met: growth !== null && growth < GROWTH_TARGET,
        };
      });
  });
}

/** The throughput ratio of every scenario on every dataset against the issue's table (search-scenarios.ts targetRatioAt). */
export function ratioResults(datasets: readonly DatasetResult[], scenarios: readonly SearchScenario[]): RatioResult[] {
  return datasets.flatMap((dataset) =>
    scenarios.map((scenario) => {
      const ratio = dataset.scenarios.find((s) => s.key === scenario.key)?.ratio ?? null;
      const target = targetRatioAt(scenario, dataset.listings);
      return {
        key: scenario.key,
        name: scenario.name,
        dialect: dataset.dialect,
        listings: dataset.listings,
        ratio,
        target,
        met: ratio !== null && ratio >= target,
      };
    }),
  );
}

/** The engine's own targets (issue 18), each judged on one dataset; `value` null when the figure is missing. */
interface EngineTarget {
  name: string;
  dataset: string;
  measured: string;
  target: string;
  /** Null: not judged (figure absent, n/a). */
  met: boolean | null;
}

const MB = 1024 * 1024;
/** Columns and postings per 1,000,000 listings, the whole engine at 1,000,000 listings. */
const COLUMNS_POSTINGS_MB_PER_MILLION = 150;
const ENGINE_MB_AT_MILLION = 400;
/** Memory scaled to 1,000,000 listings is judged from this size up. */
const LEAST_LISTINGS_FOR_MEMORY = 100_000;
/** Build at start: 2 s at 100,000 listings, 20 s at 1,000,000 (20 µs a listing), never less than 2 s. */
const BUILD_SECONDS_PER_LISTING = 20e-6;
const LEAST_BUILD_TARGET_SECONDS = 2;
const FRESHNESS_TARGET_MS = 1_000;

function buildTargetSeconds(listings: number): number {
  return Math.max(LEAST_BUILD_TARGET_SECONDS, listings * BUILD_SECONDS_PER_LISTING);
}

/** Memory figures of an engine scaled to 1,000,000 of the listings it holds. */
function memoryPerMillion(engine: EngineFigures): { columnsPostingsMb: number | null; totalMb: number | null } {
  const listings = engine.listings;
  if (!engine.available || !listings) return { columnsPostingsMb: null, totalMb: null };
  const { columns, postings } = engine.memoryBytes;
  const scale = 1_000_000 / listings / MB;
  return {
    columnsPostingsMb: columns === undefined || postings === undefined ? null : (columns + postings) * scale,
    totalMb: engine.memoryTotalBytes === null ? null : engine.memoryTotalBytes * scale,
  };
}

function engineTargets(datasets: readonly DatasetResult[]): EngineTarget[] {
  return datasets.flatMap((dataset) => {
    const name = datasetName(dataset);
    const engine = dataset.engine.atStart;
    const perMillion = memoryPerMillion(engine);
    const build = engine.buildSeconds;
    const buildTarget = buildTargetSeconds(dataset.listings);
    // Below 100,000 listings the index's fixed part (arrays grown ahead, the word list) outweighs the listings' own.
    const judgedMemory = dataset.listings >= LEAST_LISTINGS_FOR_MEMORY;
    const targets: EngineTarget[] = [
      {
        name: 'engine columns + postings per 1,000,000 listings',
        dataset: name,
        measured: mb(perMillion.columnsPostingsMb) + (judgedMemory ? '' : ' (not judged below 100,000)'),
        target: `≤ ${COLUMNS_POSTINGS_MB_PER_MILLION} MB`,
        met:
          perMillion.columnsPostingsMb === null || !judgedMemory ? null : perMillion.columnsPostingsMb <= COLUMNS_POSTINGS_MB_PER_MILLION,
      },
      {
        name: 'engine build at start',
        dataset: name,
        measured: build === null ? 'n/a' : `${build.toFixed(2)} s`,
        target: `≤ ${buildTarget.toFixed(buildTarget < 10 ? 1 : 0)} s`,
        met: build === null ? null : build <= buildTarget,
      },
      {
        name: 'a write on one process found by a search on another (median)',
        dataset: name,
        measured:
          dataset.freshness.medianMs === null
            ? `${dataset.freshness.found}/${dataset.freshness.writes} found`
            : `${dataset.freshness.medianMs.toFixed(0)} ms (max ${dataset.freshness.maxMs!.toFixed(0)})`,
        target: `≤ ${FRESHNESS_TARGET_MS} ms`,
        met: dataset.freshness.medianMs !== null && dataset.freshness.medianMs <= FRESHNESS_TARGET_MS,
      },
    ];
    if (dataset.listings >= 1_000_000) {
      // Judged after the scenarios: the sort orders they used (made on use) are part of the engine then.
      const { afterLoad } = dataset.engine;
      const whole = afterLoad.memoryTotalBytes ?? engine.memoryTotalBytes;
      const total = whole === null ? null : whole / MB;
      targets.splice(1, 0, {
        name: 'whole engine at 1,000,000 listings, after the scenarios',
        dataset: name,
        measured: mb(total),
        target: `≤ ${ENGINE_MB_AT_MILLION} MB`,
        met: total === null ? null : total <= ENGINE_MB_AT_MILLION,
      });
    }
    return targets;
  });
}

const verdict = (met: boolean | null) => (met === null ? 'n/a' : met ? 'pass' : 'FAIL');
const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number | null | undefined) => (value === null || value === undefined ? '-' : value.toFixed(2));
const mb = (value: number | null | undefined) => (value === null || value === undefined ? 'n/a' : `${value.toFixed(1)} MB`);
const percent = (ratio: number | null | undefined) => (ratio === null || ratio === undefined ? '-' : `${(ratio * 100).toFixed(1)} %`);
const datasetName = (d: { dialect: Dialect; listings: number }) => `${d.dialect}, ${count(d.listings)} listings`;
const seconds = (msValue: number) => `${(msValue / 1000).toFixed(2)} s`;

/** The human summary, on stdout. */
export function printSearchReport(report: SearchReport, jsonPath: string): void {
  const header = [
    'scenario',
    'matches',
    'body',
    'bare req/s',
    'p50 ms',
    'p99 ms',
    'real req/s',
    'p50 ms',
    'p99 ms',
    '1-conn p50',
    'real/bare',
    'target',
    'result',
  ];
  const lines = [
    '',
    `realty-api search bench: node ${report.node}, ${report.cpus} CPUs, ${report.connections} connections (and 1), ` +
      `median of ${report.rounds} round(s) of ${report.durationSeconds} s (after ${report.warmupSeconds} s warm-up), ` +
      `${count(report.requestsPerScenario)} distinct requests per scenario, SEARCH_ENGINE ${report.searchEngine}; ` +
      `load average ${report.loadAverage.start.toFixed(2)} at the start, ${report.loadAverage.end.toFixed(2)} at the end`,
  ];
  for (const dataset of report.datasets) {
    const { seeding } = dataset;
    const ratioOf = (key: ScenarioKey) =>
      report.ratios.find((r) => r.key === key && r.dialect === dataset.dialect && r.listings === dataset.listings);
    lines.push(
      '',
      `${datasetName(dataset)} (${count(seeding.published)} published): seeded in ${seeding.seconds.toFixed(1)} s ` +
        `(${count(seeding.listingsPerSecond)} listings/s, ${seeding.mode} mode; rows written in ${seeding.writeSeconds.toFixed(1)} s); ` +
        `API server RSS ${dataset.rssMb.toFixed(1)} MB afterwards`,
      '',
      formatTable(
        header,
        dataset.scenarios.map((s) => {
          const target = ratioOf(s.key);
          return [
            s.name,
            `${count(s.matches)} (${count(s.sampledMatches.median)})`,
            `${(s.bareBodyBytes / 1024).toFixed(1)} kB`,
            s.bare ? count(s.bare.requestsPerSecond) : '-',
            ms(s.bare?.p50Ms),
            ms(s.bare?.p99Ms),
            s.real ? count(s.real.requestsPerSecond) : '-',
            ms(s.real?.p50Ms),
            ms(s.real?.p99Ms),
            ms(s.realOneP50Ms),
            percent(s.ratio),
            target ? `≥ ${percent(target.target)}` : '',
            target ? verdict(target.met) : '',
          ];
        }),
      ),
      ...dataset.scenarios.filter((s) => s.failure).map((s) => `${s.name}: NOT MEASURED, ${s.failure}`),
      ...dataset.scenarios
        .filter((s) => s.sampledMatches.none > 0)
        .map((s) => `${s.name}: ${s.sampledMatches.none} of ${s.sampledMatches.of} sampled requests match nothing`),
      '',
      ...engineLines(dataset),
    );
  }
  lines.push(
    '',
    "matches: of the fixed request (median of the sampled requests); body: the bare twin's (the sampled answer of median size)",
  );
  for (const skipped of report.skipped) lines.push('', `skipped: ${skipped}`);

  const engine = engineTargets(report.datasets);
  const targets = [
    ...report.growth.map((g) => [
      `${g.name}: median latency ${count(g.from.listings)} → ${count(g.to.listings)}`,
      g.dialect,
      `${ms(g.from.p50Ms)} → ${ms(g.to.p50Ms)} ms (× ${g.growth === null ? '-' : g.growth.toFixed(2)})`,
      `< × ${g.target}`,
      verdict(g.met),
    ]),
    ...engine.map((t) => [t.name, t.dataset, t.measured, t.target, verdict(t.met)]),
  ];
  lines.push('', formatTable(['target', 'dataset', 'measured', 'target', 'result'], targets));

  for (const dataset of report.datasets) {
    for (const [key, statements] of Object.entries(dataset.plans)) {
      lines.push('', `query plans of (${key}), ${datasetName(dataset)} (whole statements in the JSON):`);
      for (const statement of statements ?? []) {
        lines.push(
          `  ${shortened(statement.sql.replace(/\s+/g, ' ').trim())}`,
          `  -- parameters: ${shortened(JSON.stringify(statement.parameters))}`,
          ...withRepeatsFolded(statement.plan).map((line) => `    ${line}`),
        );
      }
    }
  }
  const judged = [...report.growth, ...report.ratios, ...engine.filter((t) => t.met !== null)] as { met: boolean | null }[];
  const missed = judged.filter((t) => !t.met).length;
  const notJudged = engine.filter((t) => t.met === null).length;
  lines.push(
    '',
    `${missed === 0 ? `all ${judged.length} targets met` : `FAILED ${missed} of ${judged.length} targets`}` +
      (notJudged > 0 ? ` (${notJudged} n/a: no engine gauges, or a dataset too small)` : ''),
    `results: ${jsonPath}`,
  );
  console.log(lines.join('\n'));
}

/** The engine's figures of a dataset, n/a where its gauges are absent, and the starts of both processes. */
function engineLines(dataset: DatasetResult): string[] {
  const { atStart, afterLoad, secondProcess } = dataset.engine;
  const [first, second] = dataset.starts;
  const starts = `spawn → /ready: ${first ? seconds(first.readyMs) : '-'} (second process ${second ? seconds(second.readyMs) : '-'})`;
  const { freshness } = dataset;
  const delays = freshness.delaysMs.map((d) => (d === null ? 'never' : d.toFixed(0))).join(', ');
  const written =
    `freshness: ${freshness.found}/${freshness.writes} writes found on the second process, median ` +
    `${freshness.medianMs === null ? 'n/a' : `${freshness.medianMs.toFixed(0)} ms`}, max ${freshness.maxMs === null ? 'n/a' : `${freshness.maxMs.toFixed(0)} ms`} ` +
    `(${freshness.foundAtOnceByWriter}/${freshness.writes} found at once on the writing process); delays ms: ${delays}`;
  if (!atStart.available) return [`engine: n/a (${atStart.reason}); ${starts}`, written];
  const perMillion = memoryPerMillion(atStart);
  const parts = Object.entries(atStart.memoryBytes)
    .map(([part, bytes]) => `${part} ${mb(bytes / MB)}`)
    .join(', ');
  const follow = (figures: EngineFigures, what: string) =>
    `${what}: position ${figures.changeLogPosition ?? 'n/a'} of head ${figures.changeLogHead ?? 'n/a'}, lag ${figures.changeLogLag ?? 'n/a'}`;
  return [
    `engine: ${atStart.listings === null ? 'n/a' : count(atStart.listings)} listings, built in ${atStart.buildSeconds === null ? 'n/a' : `${atStart.buildSeconds.toFixed(2)} s`}; ${starts}`,
    `engine memory: ${parts || 'n/a'}; per 1,000,000 listings: columns + postings ${mb(perMillion.columnsPostingsMb)}, whole ${mb(perMillion.totalMb)}` +
      (afterLoad.memoryTotalBytes === null ? '' : `; whole after the scenarios ${mb(afterLoad.memoryTotalBytes / MB)}`),
    `change log: ${follow(afterLoad, 'after the scenarios')}; ${follow(secondProcess, 'second process after the writes')}`,
    written,
  ];
}

const SHOWN_CHARACTERS = 600;

function shortened(text: string): string {
  return text.length <= SHOWN_CHARACTERS ? text : `${text.slice(0, SHOWN_CHARACTERS)}… (${text.length.toLocaleString('en-US')} characters)`;
}

/**
 * A plan with runs of the same one or two lines (numbers aside) shown once: an OR of 100 key ranges is 100
 * `INDEX n` / `SEARCH …` pairs that differ only in n.
 */
function withRepeatsFolded(plan: readonly string[]): string[] {
  const shape = plan.map((line) => line.replace(/\d+/g, '#'));
  const folded: string[] = [];
  for (let i = 0; i < plan.length;) {
    const period = [1, 2].find((p) => repeatsOf(shape, i, p) >= 3);
    if (period === undefined) {
      folded.push(plan[i++]!);
      continue;
    }
    const repeats = repeatsOf(shape, i, period);
    folded.push(...plan.slice(i, i + period), `${plan[i]!.match(/^\s*/)![0]}… the same ${repeats - 1} more time(s)`);
    i += repeats * period;
  }
  return folded;
}

/** How many times the `period` lines from `start` occur in a row. */
function repeatsOf(shape: readonly string[], start: number, period: number): number {
  let repeats = 1;
  const same = (offset: number) => shape.slice(start, start + period).every((line, k) => shape[offset + k] === line);
  while (start + (repeats + 1) * period <= shape.length && same(start + repeats * period)) repeats++;
  return repeats;
}
