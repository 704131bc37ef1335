import { setTimeout as sleep } from 'node:timers/promises';
import { median } from './stats.js';

/**
 * What the search suite reads from the server under test about its in-process search engine: the
 * `realty_search_engine_*` gauges of `/metrics` (listings held, memory by part, last build time, change-log
 * position and lag), read by pattern so that a renamed gauge still lands in its column and an absent one
 * reads as n/a; and the freshness check: writes through one process, searched on another.
 */

const ENGINE_PREFIX = 'realty_search_engine_';
const CHANGE_LOG_HEAD = 'realty_change_log_head';

interface MetricSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface EngineFigures {
  /** False when /metrics had no engine gauge (or could not be read: `reason`). */
  available: boolean;
  reason?: string;
  listings: number | null;
  /** Bytes by part as the engine labels them (columns, postings, keyword, …). */
  memoryBytes: Record<string, number>;
  /** The engine's total when it gives one, else the sum of its parts; null without memory gauges. */
  memoryTotalBytes: number | null;
  buildSeconds: number | null;
  changeLogPosition: number | null;
  changeLogLag: number | null;
  /** The change log's head as /metrics gives it (beside the engine's position). */
  changeLogHead: number | null;
  /** Every engine sample, as read. */
  samples: MetricSample[];
}

/** Samples of the Prometheus text format whose names start with one of `prefixes`. */
function parseMetrics(text: string, prefixes: readonly string[]): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line.startsWith('#') || !prefixes.some((prefix) => line.startsWith(prefix))) continue;
    const match = /^([A-Za-z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[label[1]!] = label[2]!;
    samples.push({ name: match[1]!, labels, value: Number(match[3]) });
  }
  return samples;
}

/** The figures of one scrape of `baseUrl`/metrics with the bearer `token`; never throws. */
export async function readEngineFigures(baseUrl: string, token: string): Promise<EngineFigures> {
  let text: string;
  try {
    const response = await fetch(`${baseUrl}/metrics`, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(30_000),
    });
    text = await response.text();
    if (!response.ok) return unavailable(`/metrics answered ${response.status}`);
  } catch (error) {
    return unavailable(`/metrics could not be read: ${error instanceof Error ? error.message : String(error)}`);
  }
  const samples = parseMetrics(text, [ENGINE_PREFIX, CHANGE_LOG_HEAD]);
  const head = samples.find((s) => s.name === CHANGE_LOG_HEAD)?.value ?? null;
  const engine = samples.filter((s) => s.name.startsWith(ENGINE_PREFIX));
  if (engine.length === 0) return { ...unavailable('no realty_search_engine_ gauge in /metrics'), changeLogHead: head };
  const suffix = (s: MetricSample) => s.name.slice(ENGINE_PREFIX.length);
  const first = (test: (name: string) => boolean) => engine.find((s) => test(suffix(s)))?.value ?? null;

  const memoryBytes: Record<string, number> = {};
  for (const sample of engine.filter((s) => suffix(s).includes('memory'))) {
    // A gauge of its own for the total (no label) must not be added to the parts.
    const part = sample.labels.part ?? Object.values(sample.labels)[0] ?? (suffix(sample).includes('total') ? 'total' : suffix(sample));
    memoryBytes[part] = sample.value;
  }
  const parts = Object.entries(memoryBytes).filter(([part]) => part !== 'total');
  const memoryTotalBytes = memoryBytes.total ?? (parts.length > 0 ? parts.reduce((sum, [, bytes]) => sum + bytes, 0) : null);
  return {
    available: true,
    listings: first((name) => name === 'listings' || name.endsWith('_listings')),
    memoryBytes,
    memoryTotalBytes,
    buildSeconds: first((name) => name.includes('build') && name.endsWith('seconds')),
    changeLogPosition: first((name) => name.includes('position')),
    changeLogLag: first((name) => name.includes('lag')),
    changeLogHead: head,
    samples: engine,
  };
}

function unavailable(reason: string): EngineFigures {
  return {
    available: false,
    reason,
    listings: null,
    memoryBytes: {},
    memoryTotalBytes: null,
    buildSeconds: null,
    changeLogPosition: null,
    changeLogLag: null,
    changeLogHead: null,
    samples: [],
  };
}

export interface FreshnessResult {
  writes: number;
  /** Writes found by the search on the other process within FRESHNESS_TIMEOUT_MS. */
  found: number;
  /** Per write: ms from the writer's answer to the first search on the other process that found it (null: never). */
  delaysMs: (number | null)[];
  medianMs: number | null;
  maxMs: number | null;
  /** Writes found by a search on the writing process itself right after its answer. */
  foundAtOnceByWriter: number;
}

const API = '/realty-api/v1';
const POLL_MS = 10;
const FRESHNESS_TIMEOUT_MS = 10_000;

/**
 * "A write in one process is searchable in another within 1 s": `writes` times, an administrator signed in on
 * `writer` publishes a listing (even turns) or renames the last one (odd turns) with a word no other listing
 * has, and `reader` (another process on the same database) is searched for that word every 10 ms until it
 * finds that listing. Each delay runs from the writer's answer to the reader's answer that finds it.
 */
export async function measureFreshness(writer: string, reader: string, token: string, writes: number): Promise<FreshnessResult> {
  const delaysMs: (number | null)[] = [];
  let foundAtOnceByWriter = 0;
  let lastId: number | undefined;
  for (let turn = 0; turn < writes; turn++) {
    const word = uniqueWord(turn);
    const title = `Freshness check ${word}`;
    const creating = lastId === undefined || turn % 2 === 0;
    const written = creating
      ? await send(writer, 'POST', `${API}/properties`, token, {
          title,
          description: `<p>Written by the search bench (${word}).</p>`,
          price: 250_000,
        })
      : await send(writer, 'PUT', `${API}/properties/${lastId}`, token, { title });
    const writtenAt = performance.now();
    const id = (written as { id: number }).id;
    lastId = id;
    if (await finds(writer, word, id)) foundAtOnceByWriter++;
    let delay: number | null = null;
    while (performance.now() - writtenAt < FRESHNESS_TIMEOUT_MS) {
      if (await finds(reader, word, id)) {
        delay = performance.now() - writtenAt;
        break;
      }
      await sleep(POLL_MS);
    }
    delaysMs.push(delay);
  }
  const found = delaysMs.filter((d): d is number => d !== null);
  return {
    writes,
    found: found.length,
    delaysMs,
    medianMs: found.length === writes ? median(found) : null,
    maxMs: found.length === writes ? Math.max(...found) : null,
    foundAtOnceByWriter,
  };
}

/** Signs in on `baseUrl` and returns the token. */
export async function signIn(baseUrl: string, username: string, password: string): Promise<string> {
  return ((await send(baseUrl, 'POST', `${API}/auth/login`, undefined, { username, password })) as { token: string }).token;
}

/** Letters only, ending in x (no stemmer rule takes it off): `qzb…x`, distinct per turn. */
function uniqueWord(turn: number): string {
  let letters = '';
  for (let n = turn + 26 * 26; n > 0; n = Math.floor(n / 26)) letters = String.fromCharCode(97 + (n % 26)) + letters;
  return `qzbench${letters}x`;
}

async function finds(baseUrl: string, word: string, id: number): Promise<boolean> {
  const data = (await send(baseUrl, 'GET', `${API}/properties/search?keyword=${word}&per_page=5`)) as { properties: { id: number }[] };
  return data.properties.some((listing) => listing.id === id);
}

async function send(baseUrl: string, method: string, path: string, token?: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...(token && { authorization: `Bearer ${token}` }), ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status} ${text.slice(0, 200)}`);
  return (JSON.parse(text) as { data: unknown }).data;
}
