import { medianSample, progress, realBody, type RoundSettings } from './harness.js';
import { measure, type RequestShape, Rotation, type Sample, waitUntilIdle } from './measure.js';
import { median } from './stats.js';

const GET: RequestShape = { method: 'GET', headers: {} };
/** A search may take this long under load before it counts as failed (autocannon's default is 10 s). */
const TIMEOUT_SECONDS = 30;

/** One round of a scenario: its bare twin and the API at 10 connections, then both at 1. */
export interface ScenarioRound {
  bare: Sample;
  real: Sample;
  bareOne: Sample;
  realOne: Sample;
}

export interface ScenarioMeasurement {
  /** Medians over the rounds at 10 connections; absent when the scenario could not be measured (`failure`). */
  bare?: Sample;
  real?: Sample;
  /** Real over bare median throughput at 10 connections. */
  ratio?: number;
  /** Median p50 at one connection. */
  bareOneP50Ms?: number;
  realOneP50Ms?: number;
  rounds?: ScenarioRound[];
  failure?: string;
}

/**
 * `rounds` times: the bare twin at `bareUrl`, then the API rotating over `paths` (on `apiBase`), at 10
 * connections and then at 1. The rotation goes on from run to run (measure.ts Rotation), so no request is
 * asked again before about all of them have been. A scenario that cannot be measured (no answer within a
 * measurement, errors) says why, with the time one request takes alone.
 */
export async function measureScenario(
  settings: Omit<RoundSettings, 'timeoutSeconds'> & { idleUrl: string },
  name: string,
  bareUrl: string,
  apiBase: string,
  paths: readonly string[],
): Promise<ScenarioMeasurement> {
  const rotation = new Rotation(paths);
  const options = { timeoutSeconds: TIMEOUT_SECONDS, idleUrl: settings.idleUrl };
  const rounds: ScenarioRound[] = [];
  try {
    for (let round = 1; round <= settings.rounds; round++) {
      const bare = await measure(bareUrl, settings.durationSeconds, GET, options);
      const real = await measure(apiBase, settings.durationSeconds, GET, { ...options, rotation });
      const bareOne = await measure(bareUrl, settings.durationSeconds, GET, { ...options, connections: 1 });
      const realOne = await measure(apiBase, settings.durationSeconds, GET, { ...options, rotation, connections: 1 });
      rounds.push({ bare, real, bareOne, realOne });
      progress(
        `${name}, round ${round}/${settings.rounds}: bare ${count(bare.requestsPerSecond)} req/s, real ${count(real.requestsPerSecond)} req/s; ` +
          `1 connection p50 bare ${bareOne.p50Ms.toFixed(2)} ms, real ${realOne.p50Ms.toFixed(2)} ms`,
      );
    }
  } catch (error) {
    // A search too slow to answer within the measurement says so in the report, with the time one request
    // takes alone; the others still count.
    const reason = error instanceof Error ? error.message : String(error);
    await waitUntilIdle(settings.idleUrl);
    const started = performance.now();
    await realBody(`${apiBase}${paths[0]}`, GET);
    const failure = `${reason}; one request alone took ${((performance.now() - started) / 1000).toFixed(2)} s`;
    progress(`${name}: not measured, ${failure}`);
    return { failure };
  }
  const bare = medianSample(rounds.map((r) => r.bare));
  const real = medianSample(rounds.map((r) => r.real));
  return {
    bare,
    real,
    ratio: real.requestsPerSecond / bare.requestsPerSecond,
    bareOneP50Ms: median(rounds.map((r) => r.bareOne.p50Ms)),
    realOneP50Ms: median(rounds.map((r) => r.realOne.p50Ms)),
    rounds,
  };
}

const count = (value: number) => Math.round(value).toLocaleString('en-US');
