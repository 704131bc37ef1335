import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import pg from 'pg';
import { freePort } from '../bench/children.js';
import { Cleanups as BenchCleanups } from '../bench/harness.js';

/** What every chaos check shares: targets, scratch databases, server children, plain HTTP, statistics. */

/** The project's root: children run there, as `node dist/main.js serve` (the compiled server, as `npm start` runs it). */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The API's base path (API_PREFIX is never set by the checks). */
export const API = '/realty-api/v1';

const JWT_SECRET = 'chaos-check-secret-0123456789-abcdefghijklmnop';

// ---------------------------------------------------------------------------------------------------------
// Clean-ups

/** The bench's clean-ups (undone last-in first-out, on success, failure and Ctrl-C alike), reporting as chaos. */
export class Cleanups extends BenchCleanups {
  constructor() {
    super('chaos');
  }
}

// ---------------------------------------------------------------------------------------------------------
// Targets: SQLite always, PostgreSQL when reachable

export type Target = { kind: 'sqlite' } | { kind: 'postgres'; adminUrl: string };

const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/postgres';
const DEFAULT_REDIS = 'redis://127.0.0.1:6379';

/**
 * SQLite, then PostgreSQL when CHAOS_DATABASE_URL (or the default local server) accepts a connection.
 * CHAOS_DATABASE_URL=none leaves PostgreSQL out; CHAOS_TARGETS=sqlite|postgres picks one.
 */
export async function findTargets(): Promise<{ targets: Target[]; notes: string[] }> {
  const wanted = (process.env.CHAOS_TARGETS ?? 'sqlite,postgres').split(',').map((name) => name.trim());
  const targets: Target[] = [];
  const notes: string[] = [];
  if (wanted.includes('sqlite')) targets.push({ kind: 'sqlite' });
  if (!wanted.includes('postgres')) return { targets, notes };
  const adminUrl = process.env.CHAOS_DATABASE_URL || DEFAULT_POSTGRES;
  if (adminUrl === 'none') {
    notes.push('PostgreSQL left out (CHAOS_DATABASE_URL=none)');
    return { targets, notes };
  }
  try {
    await withPostgres(adminUrl, (client) => client.query('select 1'));
    targets.push({ kind: 'postgres', adminUrl });
  } catch (error) {
    notes.push(`PostgreSQL left out: ${redact(adminUrl)} is not reachable (${message(error)}); set CHAOS_DATABASE_URL`);
  }
  return { targets, notes };
}

/** The Redis server of check 4 (CHAOS_REDIS_URL, else the default local one), or why there is none. */
export async function findRedis(): Promise<{ url: string } | { unreachable: string }> {
  const url = process.env.CHAOS_REDIS_URL || DEFAULT_REDIS;
  if (url === 'none') return { unreachable: 'CHAOS_REDIS_URL=none' };
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 3_000, retryStrategy: () => null });
  try {
    await redis.connect();
    await redis.ping();
    return { url };
  } catch (error) {
    return { unreachable: `${url} is not reachable (${message(error)}); set CHAOS_REDIS_URL` };
  } finally {
    redis.disconnect();
  }
}

/** Deletes every Redis key starting with `prefix` (a check's own REDIS_KEY_PREFIX). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length > 0) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** A unique name for a scratch database or a Redis key prefix: chaos_<pid>_<random>. */
export function uniqueName(): string {
  return `chaos_${process.pid}_${randomBytes(4).toString('hex')}`;
}

/**
 * A new, empty database for one check: a SQLite file in `dir`, or a PostgreSQL database of its own (dropped
 * by `cleanups`). Returns its DATABASE_URL.
 */
export async function scratchDatabase(target: Target, dir: string, cleanups: Cleanups, label = 'chaos'): Promise<string> {
  if (target.kind === 'sqlite') return `sqlite:${path.join(dir, `${label}.db`)}`;
  const name = uniqueName();
  await withPostgres(target.adminUrl, (client) => client.query(`create database ${name}`));
  cleanups.add(() => withPostgres(target.adminUrl, (client) => client.query(`drop database if exists ${name} with (force)`)));
  const url = new URL(target.adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function withPostgres<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** A temporary directory, removed by `cleanups` unless CHAOS_KEEP=1. */
export function tempDir(cleanups: Cleanups, label: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `realty-chaos-${label}-`));
  if (process.env.CHAOS_KEEP !== '1') cleanups.add(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

// ---------------------------------------------------------------------------------------------------------
// The server under test, as a child process

export interface ServerOptions {
  databaseUrl: string;
  /** Its data and upload directories and its log file go here. */
  dir: string;
  /** Extra environment, e.g. RATE_LIMIT_ENABLED=false or REDIS_URL. */
  env?: Record<string, string>;
  /** Node options placed before the script, e.g. --cpu-prof. */
  nodeArgs?: readonly string[];
  /** Names the log file: <dir>/<name>.log. */
  name?: string;
  port?: number;
}

/** The unit of /proc's CPU times (clock ticks), fixed at 100 a second for user space on Linux. */
const USER_HZ = 100;

/**
 * `node dist/main.js serve` on a free port, with only PATH and the variables below in its
 * environment (a .env file in the project would still be read: keep none there). Its stdout and stderr
 * go to a log file; `logTail` shows the end of it when something fails.
 */
export class ServerProcess {
  readonly child: ChildProcess;
  readonly startedAt: number;
  readonly logFile: string;
  private exitCode: number | null | undefined;
  private exitSignal: NodeJS.Signals | null | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    readonly port: number,
    options: ServerOptions,
  ) {
    const name = options.name ?? 'server';
    this.logFile = path.join(options.dir, `${name}.log`);
    const log = fs.openSync(this.logFile, 'a');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: options.databaseUrl,
      JWT_SECRET,
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      DATA_DIR: path.join(options.dir, 'data'),
      UPLOAD_DIR: path.join(options.dir, 'uploads'),
      SEED_DEMO: 'false',
      ...options.env,
    };
    this.startedAt = performance.now();
    this.child = spawn(process.execPath, [...(options.nodeArgs ?? []), 'dist/main.js', 'serve'], {
      cwd: ROOT,
      env,
      stdio: ['ignore', log, log],
    });
    fs.closeSync(log);
    this.exited = once(this.child, 'exit').then(([code, signal]) => {
      this.exitCode = code as number | null;
      this.exitSignal = signal as NodeJS.Signals | null;
    });
  }

  /** Spawns the server; it is stopped (SIGTERM, then SIGKILL) by `cleanups` if still running. */
  static async start(cleanups: Cleanups, options: ServerOptions): Promise<ServerProcess> {
    const server = new ServerProcess(options.port ?? (await freePort()), options);
    cleanups.add(() => server.stop());
    return server;
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.exitCode === undefined;
  }

  /**
   * Polls GET /ready every `intervalMs` until a 200; returns the milliseconds from spawn to that answer.
   * Throws when the child exits first or after `timeoutMs`.
   */
  async waitReady(timeoutMs = 90_000, intervalMs = 20): Promise<number> {
    const deadline = performance.now() + timeoutMs;
    while (performance.now() < deadline) {
      if (!this.running) throw new Error(`the server exited (${this.exitCode ?? this.exitSignal}) before it was ready${this.logTail()}`);
      const status = await request({ port: this.port, path: '/ready', timeoutMs: 2_000 }).then(
        (response) => response.status,
        () => 0,
      );
      if (status === 200) return performance.now() - this.startedAt;
      await sleep(intervalMs);
    }
    throw new Error(`the server was not ready within ${timeoutMs / 1000} s${this.logTail()}`);
  }

  /** SIGTERM (a clean stop), then SIGKILL after `graceMs`. Returns how it exited. */
  async stop(graceMs = 20_000): Promise<string> {
    if (this.running) {
      this.child.kill('SIGTERM');
      const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
      await this.exited;
      clearTimeout(timer);
    }
    return this.exitSignal ?? `exit ${this.exitCode}`;
  }

  /** SIGKILL: no shutdown code runs. */
  async kill(): Promise<void> {
    if (!this.running) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }

  /**
   * The CPU time the server has used so far, user and system, all its threads (the search index's reading thread
   * too), from /proc; undefined where there is none. On a busy machine it moves much less than the wall-clock time.
   */
  cpuMs(): number | undefined {
    try {
      const stat = fs.readFileSync(`/proc/${this.child.pid}/stat`, 'utf8');
      // After the command name (in parentheses, and it may hold spaces) come field 3 on: utime is 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    } catch {
      return undefined;
    }
  }

  /** The last lines of the server's log, for error messages. */
  logTail(lines = 15): string {
    try {
      const text = fs.readFileSync(this.logFile, 'utf8').trimEnd();
      if (text === '') return '';
      return `\n    server log (${this.logFile}), last lines:\n${text
        .split('\n')
        .slice(-lines)
        .map((line) => `      ${line.slice(0, 400)}`)
        .join('\n')}`;
    } catch {
      return '';
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Plain HTTP (node:http, so that connections, keep-alive and the source address are under control)

export interface RequestOptions {
  port: number;
  path: string;
  method?: string;
  body?: unknown;
  token?: string;
  /** Default: a new connection per request (agent: false). */
  agent?: http.Agent | false;
  /** The source address, e.g. 127.0.0.2 to be another client for per-IP rate limits. */
  localAddress?: string;
  timeoutMs?: number;
}

export interface Response {
  status: number;
  text: string;
  /** Milliseconds from sending to the end of the body. */
  ms: number;
}

export function request(options: RequestOptions): Promise<Response> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = {};
  if (payload !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: options.port,
        path: options.path,
        method: options.method ?? 'GET',
        headers,
        agent: options.agent ?? false,
        ...(options.localAddress ? { localAddress: options.localAddress } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8'), ms: performance.now() - started }),
        );
        res.on('error', reject);
      },
    );
    req.setTimeout(options.timeoutMs ?? 30_000, () => req.destroy(new Error(`no answer within ${options.timeoutMs ?? 30_000} ms`)));
    req.on('error', reject);
    req.end(payload);
  });
}

/** `request` that expects `status` and returns the envelope's `data`. */
export async function expectData<T>(options: RequestOptions, status = 200): Promise<T> {
  const response = await request(options);
  if (response.status !== status) {
    throw new Error(
      `${options.method ?? 'GET'} ${options.path} answered ${response.status}, not ${status}: ${response.text.slice(0, 300)}`,
    );
  }
  return (JSON.parse(response.text) as { data: T }).data;
}

export interface SignedIn {
  userId: number;
  token: string;
  email: string;
}

/** Registers an account (a listing creator by default) and returns its token. */
export async function register(port: number, username: string, role = 'seller'): Promise<SignedIn & { password: string }> {
  const password = `chaos password ${username}`;
  const email = `${username}@chaos.example`;
  const data = await expectData<{ user_id: number; token: string }>(
    { port, method: 'POST', path: `${API}/auth/register`, body: { username, email, password, role } },
    201,
  );
  return { userId: data.user_id, token: data.token, email, password };
}

// ---------------------------------------------------------------------------------------------------------
// Statistics and output

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile (p in 0–100); NaN for no values. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1]!;
}

export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${value < 10 ? value.toFixed(2) : value < 100 ? value.toFixed(1) : Math.round(value).toLocaleString('en-US')} ms`;
}

export function count(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** One figure of a check, indented under its heading. */
export function figure(text: string): void {
  console.log(`    ${text}`);
}

export function message(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return message(error.errors[0]);
  if (error instanceof Error) return error.message + (error.cause ? ` (${message(error.cause)})` : '');
  return String(error);
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]+@/, '//$1:***@');
}

export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got "${raw}")`);
  return value;
}

// ---------------------------------------------------------------------------------------------------------
// Checks

export interface CheckContext {
  target: Target;
  /** A temporary directory of this check and target, removed afterwards. */
  dir: string;
  cleanups: Cleanups;
}

/** A verdict: PASS, FAIL or SKIP with one line saying why; the figures are printed along the way. */
export interface Verdict {
  status: 'PASS' | 'FAIL' | 'SKIP';
  summary: string;
}

export interface Check {
  /** Short name, used to pick checks on the command line: `npm run chaos -- kill-writes`. */
  name: string;
  title: string;
  run(context: CheckContext): Promise<Verdict>;
}

const pass = (summary: string): Verdict => ({ status: 'PASS', summary });
const fail = (summary: string): Verdict => ({ status: 'FAIL', summary });
export const skip = (summary: string): Verdict => ({ status: 'SKIP', summary });

/** PASS when every problem list is empty, else FAIL naming the problems. */
export function verdict(summary: string, problems: readonly string[]): Verdict {
  return problems.length === 0 ? pass(summary) : fail(`${summary}; ${problems.join('; ')}`);
}
