import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProgram } from '../helpers/programs.js';

/** Runs the real CLI (`realty-api <args>`, compiled, as `npm start` runs it) in `cwd`, with nothing but the given environment. */
function cli(args: string[], cwd: string, env: Record<string, string> = {}): ChildProcess {
  return startProgram('main.mjs', args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', LOG_LEVEL: 'warn', ...env },
  });
}

async function run(args: string[], cwd: string, env: Record<string, string> = {}) {
  const child = cli(args, cwd, env);
  let out = '';
  child.stdout?.on('data', (chunk) => (out += chunk));
  child.stderr?.on('data', (chunk) => (out += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  return { code, out };
}

function waitForOutput(child: ChildProcess, pattern: RegExp): Promise<RegExpMatchArray> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = pattern.exec(out);
      if (match) resolve(match);
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => reject(new Error(`exited with ${code} before printing ${pattern}:\n${out}`)));
  });
}

describe('npm start on a machine with nothing but Node.js', () => {
  let cwd: string;
  let server: ChildProcess;
  let base: string;

  beforeAll(async () => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-serve-'));
    server = cli(['serve'], cwd, { PORT: '0', ADMIN_EMAIL: 'owner@example.test', ADMIN_PASSWORD: 'bootstrap-password' });
    const match = await waitForOutput(server, /Docs:\s+(http:\/\/127\.0\.0\.1:\d+)\/docs/);
    base = match[1] as string;
  });
  afterAll(() => {
    server.kill('SIGKILL');
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('creates the default SQLite database with demo terms and prints the docs URL', async () => {
    expect(fs.existsSync(path.join(cwd, 'data/realty.db'))).toBe(true);
    const types = await (await fetch(`${base}/realty-api/v1/property-types?parent=0`)).json();
    expect(types.data.property_types.map((t: { name: string }) => t.name)).toEqual(['Commercial', 'Land', 'Residential']);
    const features = await (await fetch(`${base}/realty-api/v1/property-features`)).json();
    expect(features.data.features.length).toBeGreaterThanOrEqual(30);
    expect((await fetch(`${base}/docs/`)).status).toBe(200);
  });

  it('keeps a generated JWT secret private in the data directory', () => {
    const stat = fs.statSync(path.join(cwd, 'data/jwt-secret'));
    expect(stat.mode & 0o077).toBe(0);
    expect(fs.readFileSync(path.join(cwd, 'data/jwt-secret'), 'utf8').length).toBeGreaterThanOrEqual(32);
  });

  it('bootstraps the administrator from ADMIN_EMAIL and ADMIN_PASSWORD', async () => {
    const res = await fetch(`${base}/realty-api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'owner@example.test', password: 'bootstrap-password' }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).data.role).toBe('administrator');
  });

  it('finishes an in-flight request on SIGTERM, then exits cleanly', async () => {
    const { port } = new URL(base);
    const socket = net.connect(Number(port), '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    const body = JSON.stringify({ username: 'nobody', password: 'wrong-password' });
    // `Expect: 100-continue`: the server says "continue" once it has read the request's head, so the
    // request is known to be in flight before the signal.
    socket.write(
      `POST /realty-api/v1/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    await expect.poll(() => answer, { timeout: 10_000, interval: 10 }).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\n$/);
    socket.write(body.slice(0, 10));

    const exited = new Promise<number | null>((resolve) => server.on('exit', resolve));
    server.kill('SIGTERM');
    // Shutting down: new connections are refused, while the request above still waits for its body.
    const accepts = () =>
      new Promise<boolean>((resolve) => {
        const probe = net.connect(Number(port), '127.0.0.1');
        probe.once('connect', () => (probe.destroy(), resolve(true)));
        probe.once('error', () => resolve(false));
      });
    await expect.poll(accepts, { timeout: 10_000, interval: 10 }).toBe(false);
    socket.write(body.slice(10));
    await new Promise((resolve) => socket.once('close', resolve));
    answer = answer.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, '');
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toContain('invalid_credentials');
    expect(await exited).toBe(0);
    await expect(fetch(`${base}/health`)).rejects.toThrow();
  });
});

describe('the command-line tool', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-cli-'));
  });
  afterAll(() => fs.rmSync(cwd, { recursive: true, force: true }));

  // Eight processes, each loading the whole application (1–3 s apiece on a loaded 2-core machine): more
  // than the default 20 s.
  it('migrates, seeds, creates an administrator, and explains its mistakes', { timeout: 60_000 }, async () => {
    const env = { DATABASE_URL: 'sqlite:./cli.db' };
    expect(await run(['migrate'], cwd, env)).toMatchObject({ code: 0, out: expect.stringContaining('applied: 0001_initial') });
    expect(await run(['migrate'], cwd, env)).toMatchObject({ code: 0, out: expect.stringContaining('up to date') });
    expect(await run(['seed'], cwd, env)).toMatchObject({ code: 0, out: expect.stringMatching(/created \d+ demo terms/) });
    expect(await run(['seed'], cwd, env)).toMatchObject({ code: 0, out: expect.stringContaining('nothing seeded') });
    const created = await run(['create-admin', '--email', 'root@example.test', '--password', 'long-enough-pw'], cwd, env);
    expect(created).toMatchObject({ code: 0, out: expect.stringMatching(/administrator root \(id \d+\) created/) });
    // The mistakes change nothing, so they run side by side.
    const [incomplete, unknown, misconfigured] = await Promise.all([
      run(['create-admin', '--email', 'x@example.test'], cwd, env),
      run(['frobnicate'], cwd, env),
      run(['migrate'], cwd, { DATABASE_URL: 'mysql://nope', PORT: 'x' }),
    ]);
    expect(incomplete).toMatchObject({ code: 1, out: expect.stringContaining('create-admin needs --email and --password') });
    expect(unknown).toMatchObject({ code: 2, out: expect.stringContaining('Usage: realty-api') });
    expect(misconfigured).toMatchObject({ code: 1, out: expect.stringMatching(/PORT[\s\S]*DATABASE_URL|DATABASE_URL[\s\S]*PORT/) });
  });
});
