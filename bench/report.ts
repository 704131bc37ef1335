import type { Sample } from './measure.js';
import type { DataSummary } from './prepare-data.js';
import type { Scenario } from './scenarios.js';
import { formatTable } from './stats.js';

export interface ScenarioResult extends Scenario {
  bodyBytes: number;
  /** Medians over the rounds. */
  bare: Sample;
  real: Sample;
  /** Real over bare median throughput. */
  ratio: number;
  met: boolean;
  rounds: { bare: Sample[]; real: Sample[] };
}

/** Everything one run measured; written as JSON as it is. */
export interface Report {
  date: string;
  node: string;
  cpus: number;
  connections: number;
  warmupSeconds: number;
  durationSeconds: number;
  rounds: number;
  data: DataSummary;
  scenarios: ScenarioResult[];
  memory: { rssMb: number; targetMb: number; met: boolean };
}

const verdict = (met: boolean) => (met ? 'ok' : 'MISSED');
const perSecond = (value: number) => Math.round(value).toLocaleString('en-US');
const ms = (value: number) => value.toFixed(2);
const percent = (ratio: number) => `${(ratio * 100).toFixed(1)} %`;

/** The human summary, on stdout. */
export function printReport(report: Report, jsonPath: string): void {
  const { data, memory } = report;
  const header = ['scenario', 'body', 'bare req/s', 'p50 ms', 'p99 ms', 'real req/s', 'p50 ms', 'p99 ms', 'real/bare', 'target', 'result'];
  const rows = report.scenarios.map((s) => [
    s.name,
    `${(s.bodyBytes / 1024).toFixed(1)} kB`,
    perSecond(s.bare.requestsPerSecond),
    ms(s.bare.p50Ms),
    ms(s.bare.p99Ms),
    perSecond(s.real.requestsPerSecond),
    ms(s.real.p50Ms),
    ms(s.real.p99Ms),
    percent(s.ratio),
    `≥ ${percent(s.targetRatio)}`,
    verdict(s.met),
  ]);
  const missed = report.scenarios.filter((s) => !s.met).length + (memory.met ? 0 : 1);
  const targets = report.scenarios.length + 1;

  console.log(
    [
      '',
      `realty-api bench: node ${report.node}, ${report.cpus} CPUs, ${report.connections} connections, ` +
        `median of ${report.rounds} round(s) of ${report.durationSeconds} s (after ${report.warmupSeconds} s warm-up)`,
      `data: ${data.propertyTypes} property types; ${data.features} features (${data.featuresInUse} in use); ` +
        `${data.listings} listings (${data.published} published)`,
      '',
      formatTable(header, rows),
      '',
      `memory: API server RSS ${memory.rssMb.toFixed(1)} MB after all scenarios (target < ${memory.targetMb} MB): ${verdict(memory.met)}`,
      missed === 0 ? `all ${targets} targets met` : `MISSED ${missed} of ${targets} targets`,
      `results: ${jsonPath}`,
    ].join('\n'),
  );
}
