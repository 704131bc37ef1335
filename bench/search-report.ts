import type { Sample } from './measure.js';
import type { ExplainedStatement } from './query-plans.js';
import type { SeedSummary } from './search-data.js';
import { GROWTH_TARGET, type SearchScenario } from './search-scenarios.js';
import { formatTable } from './stats.js';

export type Dialect = 'sqlite' | 'postgres';

export interface SearchScenarioResult {
  key: SearchScenario['key'];
  name: string;
  path: string;
  /** Listings the answer says match (its pagination total, or the map's total). */
  matches: number;
  bodyBytes: number;
  /** Medians over the rounds; absent when the scenario could not be measured (`failure` says why). */
  bare?: Sample;
  real?: Sample;
  /** Real over bare median throughput. */
  ratio?: number;
  rounds?: { bare: Sample[]; real: Sample[] };
  failure?: string;
}

export interface DatasetResult {
  dialect: Dialect;
  listings: number;
  seeding: SeedSummary;
  scenarios: SearchScenarioResult[];
  /** The statements of one warm request of each explained scenario, with their plans. */
  plans: Partial<Record<SearchScenario['key'], ExplainedStatement[]>>;
  /** The API server's resident memory after the dataset's scenarios. */
  rssMb: number;
}

export interface GrowthResult {
  key: SearchScenario['key'];
  name: string;
  /** Null where the scenario could not be measured. */
  from: { listings: number; p50Ms: number | null };
  to: { listings: number; p50Ms: number | null };
  growth: number | null;
  target: number;
  met: boolean;
}

export interface RatioResult {
  key: SearchScenario['key'];
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
  datasets: DatasetResult[];
  /** Datasets not measured, with the reason (PostgreSQL unreachable). */
  skipped: string[];
  growth: GrowthResult[];
  ratios: RatioResult[];
}

/** The growth of each growth-target scenario's median latency from the smallest to the largest SQLite dataset. */
export function growthResults(datasets: readonly DatasetResult[], scenarios: readonly SearchScenario[]): GrowthResult[] {
  const sqlite = datasets.filter((d) => d.dialect === 'sqlite').sort((a, b) => a.listings - b.listings);
  const [smallest, largest] = [sqlite[0], sqlite.at(-1)];
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
        from: { listings: smallest.listings, p50Ms: from },
        to: { listings: largest.listings, p50Ms: to },
        growth,
        target: GROWTH_TARGET,
        met: growth !== null && growth < GROWTH_TARGET,
      };
    });
}

/** The throughput ratio of each ratio-target scenario on the smallest dataset of each database. */
export function ratioResults(datasets: readonly DatasetResult[], scenarios: readonly SearchScenario[]): RatioResult[] {
  const results: RatioResult[] = [];
  for (const dialect of ['sqlite', 'postgres'] as const) {
    const smallest = datasets.filter((d) => d.dialect === dialect).sort((a, b) => a.listings - b.listings)[0];
    if (!smallest) continue;
    for (const scenario of scenarios) {
      if (scenario.targetRatio === undefined) continue;
      const ratio = smallest.scenarios.find((s) => s.key === scenario.key)?.ratio ?? null;
      const met = ratio !== null && ratio >= scenario.targetRatio;
      results.push({
        key: scenario.key,
        name: scenario.name,
        dialect,
        listings: smallest.listings,
        ratio,
        target: scenario.targetRatio,
        met,
      });
    }
  }
  return results;
}

const verdict = (met: boolean) => (met ? 'ok' : 'MISSED');
const count = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number | null | undefined) => (value === null || value === undefined ? '-' : value.toFixed(2));
const percent = (ratio: number | null | undefined) => (ratio === null || ratio === undefined ? '-' : `${(ratio * 100).toFixed(1)} %`);
const datasetName = (d: { dialect: Dialect; listings: number }) => `${d.dialect}, ${count(d.listings)} listings`;

/** The human summary, on stdout. */
export function printSearchReport(report: SearchReport, jsonPath: string): void {
  const header = ['scenario', 'matches', 'body', 'bare req/s', 'p50 ms', 'p99 ms', 'real req/s', 'p50 ms', 'p99 ms', 'real/bare'];
  const lines = [
    '',
    `realty-api search bench: node ${report.node}, ${report.cpus} CPUs, ${report.connections} connections, ` +
      `median of ${report.rounds} round(s) of ${report.durationSeconds} s (after ${report.warmupSeconds} s warm-up); ` +
      `load average ${report.loadAverage.start.toFixed(2)} at the start, ${report.loadAverage.end.toFixed(2)} at the end`,
  ];
  for (const dataset of report.datasets) {
    const { seeding } = dataset;
    lines.push(
      '',
      `${datasetName(dataset)} (${count(seeding.published)} published): seeded in ${seeding.seconds.toFixed(1)} s ` +
        `(${count(seeding.listingsPerSecond)} listings/s, ${seeding.mode} mode; rows written in ${seeding.writeSeconds.toFixed(1)} s); ` +
        `API server RSS ${dataset.rssMb.toFixed(1)} MB afterwards`,
      '',
      formatTable(
        header,
        dataset.scenarios.map((s) => [
          s.name,
          count(s.matches),
          `${(s.bodyBytes / 1024).toFixed(1)} kB`,
          s.bare ? count(s.bare.requestsPerSecond) : '-',
          ms(s.bare?.p50Ms),
          ms(s.bare?.p99Ms),
          s.real ? count(s.real.requestsPerSecond) : '-',
          ms(s.real?.p50Ms),
          ms(s.real?.p99Ms),
          percent(s.ratio),
        ]),
      ),
      ...dataset.scenarios.filter((s) => s.failure).map((s) => `${s.name}: NOT MEASURED, ${s.failure}`),
    );
  }
  for (const skipped of report.skipped) lines.push('', `skipped: ${skipped}`);

  const targets = [
    ...report.growth.map((g) => [
      `${g.name}: median latency ${count(g.from.listings)} → ${count(g.to.listings)} (sqlite)`,
      `${ms(g.from.p50Ms)} → ${ms(g.to.p50Ms)} ms`,
      g.growth === null ? '-' : `× ${g.growth.toFixed(2)}`,
      `< × ${g.target}`,
      verdict(g.met),
    ]),
    ...report.ratios.map((r) => [
      `${r.name}: real/bare throughput, ${datasetName(r)}`,
      '',
      percent(r.ratio),
      `≥ ${percent(r.target)}`,
      verdict(r.met),
    ]),
  ];
  const missed = [...report.growth, ...report.ratios].filter((t) => !t.met).length;
  lines.push('', formatTable(['target', 'measured', 'value', 'target', 'result'], targets));
  if (report.growth.length === 0) lines.push('(growth targets need two SQLite sizes: BENCH_SEARCH_SIZES)');

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
  lines.push(
    '',
    missed === 0 ? `all ${targets.length} targets met` : `MISSED ${missed} of ${targets.length} targets`,
    `results: ${jsonPath}`,
  );
  console.log(lines.join('\n'));
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
