import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { hostname } from 'node:os';
import type { Kysely } from 'kysely';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/db/schema/index.js';
import { defaultLeaseMs, Scheduler } from '../../src/jobs/scheduler.js';
import { createTestDatabase, type TestDatabase, describeEachDialect } from '../helpers/database.js';
import { unique } from '../helpers/factories.js';
import { gate } from '../helpers/gate.js';

const MINUTE = 60_000;
/** Fake clock: every tick gets an explicit `now`, so that periods and leases pass without sleeping. */
const T0 = Date.parse('2030-01-01T00:00:00.000Z');
const at = (ms: number) => new Date(T0 + ms);
const iso = (ms: number) => at(ms).toISOString();

// One database per dialect: every test registers jobs of its own names, and a scheduler only reads its own jobs.
describeEachDialect('scheduler (%s)', (dialect) => {
  let database: TestDatabase;
  let db: Kysely<DB>;
  const logs: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line)) });

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    db = database.db;
  });
  afterAll(() => database.dispose());

  const scheduler = (owner = unique('process-'), tickMs?: number) => new Scheduler(db, log, { owner, tickMs });
  const rowOf = (name: string) => db.selectFrom('scheduled_jobs').selectAll().where('name', '=', name).executeTakeFirstOrThrow();

  it('runs a job once per period however many processes tick at the same time', async () => {
    const name = unique('job-');
    const seen: string[] = [];
    const [a, b] = [scheduler('a'), scheduler('b')];
    for (const s of [a, b]) s.every(name, MINUTE, async (now) => void seen.push(now.toISOString()));

    expect(await a.runDue(at(0))).toEqual([name]);
    expect(await b.runDue(at(0))).toEqual([]);
    let row = await rowOf(name);
    expect(row).toMatchObject({ locked_until: null, locked_by: null, last_error: null });
    expect(row.last_finished_at! >= iso(0)).toBe(true);
    expect(row.next_run_at).toBe(iso(MINUTE)); // a period after the run's start

    // Not due again within the period, in either process.
    expect(await b.runDue(at(MINUTE - 1))).toEqual([]);
    expect(await a.runDue(at(MINUTE - 1))).toEqual([]);

    // The next period: once again, by whichever process ticks first.
    expect(await b.runDue(at(MINUTE + 1000))).toEqual([name]);
    expect(await a.runDue(at(MINUTE + 1000))).toEqual([]);
    expect(seen).toEqual([iso(0), iso(MINUTE + 1000)]);
    row = await rowOf(name);
    expect(row.next_run_at).toBe(iso(2 * MINUTE + 1000));
  });

  it('holds the lease while the task runs: the holder, and the default or given lease length', async () => {
    const short = unique('job-');
    const long = unique('job-');
    const during: Record<string, unknown> = {};
    const s = scheduler('holder');
    s.every(short, MINUTE, async () => void (during[short] = await rowOf(short)));
    s.every(long, 10 * MINUTE, async () => void (during[long] = await rowOf(long)), { leaseMs: 90_000 });
    expect((await s.runDue(at(0))).sort()).toEqual([long, short].sort());
    expect(defaultLeaseMs(MINUTE)).toBe(5 * MINUTE);
    expect(during[short]).toMatchObject({ locked_by: 'holder', locked_until: iso(5 * MINUTE), next_run_at: iso(0) });
    expect(during[long]).toMatchObject({ locked_by: 'holder', locked_until: iso(90_000), next_run_at: iso(0) });
  });

  it('leaves a job whose holder died until the lease runs out, then another process takes it over', async () => {
    const name = unique('job-');
    const started = gate();
    const hang = gate();
    const dead = scheduler('dead').every(name, MINUTE, async () => (started.release(), hang.wait));
    const deadRun = dead.runDue(at(0)); // its process "dies" mid-run: the task never finishes
    await started.wait;
    const lease = defaultLeaseMs(MINUTE);
    expect(await rowOf(name)).toMatchObject({ locked_by: 'dead', locked_until: iso(lease) });

    let runs = 0;
    const survivor = scheduler('survivor').every(name, MINUTE, async () => void runs++);
    expect(await survivor.runDue(at(2 * MINUTE))).toEqual([]); // due, but leased
    expect(await survivor.runDue(at(lease))).toEqual([]); // the lease ends after this instant
    expect(runs).toBe(0);
    expect(await survivor.runDue(at(lease + 1))).toEqual([name]);
    expect(runs).toBe(1);
    const taken = await rowOf(name);
    expect(taken).toMatchObject({ locked_by: null, locked_until: null, last_error: null });
    expect(taken.last_finished_at! >= iso(lease + 1)).toBe(true);

    // Should the first process wake up and finish after all, it no longer holds the job: the row is not its to change.
    hang.release();
    expect(await deadRun).toEqual([name]);
    expect(await rowOf(name)).toEqual(taken);
    expect(logs).toContainEqual(expect.objectContaining({ level: 40, job: name }));
  });

  it('records a failure, logs it, and retries the job at its next interval', async () => {
    const name = unique('job-');
    let calls = 0;
    const s = scheduler().every(name, MINUTE, async () => {
      calls++;
      if (calls === 1) throw new Error(`${'x'.repeat(1500)} and more past the cut`);
    });
    expect(await s.runDue(at(0))).toEqual([name]);
    let row = await rowOf(name);
    expect(row.last_error).toBe('x'.repeat(1000));
    expect(row).toMatchObject({ locked_by: null, locked_until: null });
    expect(row.next_run_at).toBe(iso(MINUTE));
    expect(logs).toContainEqual(expect.objectContaining({ level: 50, job: name, msg: 'scheduled job failed', reason: 'x'.repeat(1000) }));

    expect(await s.runDue(at(1000))).toEqual([]); // no retry before the interval
    expect(calls).toBe(1);
    expect(await s.runDue(at(MINUTE + 1000))).toEqual([name]);
    row = await rowOf(name);
    expect(calls).toBe(2);
    expect(row.last_error).toBeNull();
  });

  it('runs a task again at once when it returns 0, the delay it returns after its start, else its interval after', async () => {
    const name = unique('job-');
    const delays: (number | undefined)[] = [0, 5000, undefined];
    let calls = 0;
    const s = scheduler().every(name, MINUTE, async () => delays[calls++]);

    expect(await s.runDue(at(0))).toEqual([name]);
    let row = await rowOf(name);
    expect(row.next_run_at).toBe(iso(0)); // due again at once
    expect(await s.runDue(at(10))).toEqual([name]);

    row = await rowOf(name);
    expect(row.next_run_at).toBe(iso(5010));
    expect(await s.runDue(at(5009))).toEqual([]);
    expect(await s.runDue(at(5010))).toEqual([name]);

    row = await rowOf(name);
    expect(row.next_run_at).toBe(iso(5010 + MINUTE));
    expect(calls).toBe(3);
  });

  it('runs a job whose interval is the tick at every tick, however long the run took', async () => {
    const name = unique('job-');
    let calls = 0;
    const s = scheduler().every(name, 1000, async () => {
      calls++;
      await new Promise((resolve) => setTimeout(resolve, 20));
    });
    for (let tick = 0; tick < 3; tick++) expect(await s.runDue(at(tick * 1000))).toEqual([name]);
    expect(calls).toBe(3);
  });

  describe('a job held by a process that is gone', () => {
    const host = hostname();
    /** Leaves `name` leased to `owner` for a minute from T0, due now: what a process killed mid-run leaves. */
    const leaseTo = async (name: string, owner: string) => {
      await db
        .insertInto('scheduled_jobs')
        .values({ name, next_run_at: iso(0), locked_until: iso(MINUTE), locked_by: owner })
        .execute();
    };
    /** The pid of a process that has exited. */
    const exitedPid = async () => {
      const child = spawn(process.execPath, ['-e', '']);
      await once(child, 'exit');
      return child.pid!;
    };

    it('is taken over at once when its holder ran on this host and its pid no longer runs', async () => {
      const name = unique('job-');
      await leaseTo(name, `${host}:${await exitedPid()}:0a1b2c3d4e5f`);
      let runs = 0;
      const s = new Scheduler(db, log).every(name, MINUTE, async () => void runs++);
      expect(await s.runDue(at(1000))).toEqual([name]);
      expect(runs).toBe(1);
      expect(await rowOf(name)).toMatchObject({ locked_by: null, locked_until: null, next_run_at: iso(MINUTE + 1000) });
      expect(logs).toContainEqual(expect.objectContaining({ level: 40, job: name, msg: expect.stringContaining('taken over') }));
    });

    it('is not taken from another scheduler of this process, and is once that one has stopped', async () => {
      const name = unique('job-');
      const started = gate();
      const hang = gate();
      const first = new Scheduler(db, log).every(name, MINUTE, async () => (started.release(), hang.wait));
      const firstRun = first.runDue(at(0));
      await started.wait;
      const second = new Scheduler(db, log).every(name, MINUTE, async () => undefined);
      expect(await second.runDue(at(1000))).toEqual([]);
      hang.release();
      await firstRun;
      await first.stop();
      await leaseTo(name + '-stopped', first.owner);
      const third = new Scheduler(db, log).every(name + '-stopped', MINUTE, async () => undefined);
      expect(await third.runDue(at(1000))).toEqual([name + '-stopped']);
    });

    it('is taken over at once when its holder had the pid of this process (pid 1 of a restarted container)', async () => {
      const name = unique('job-');
      await leaseTo(name, `${host}:${process.pid}:0a1b2c3d4e5f`);
      const s = new Scheduler(db, log).every(name, MINUTE, async () => undefined);
      expect(await s.runDue(at(1000))).toEqual([name]);
    });

    it('waits for the lease when the holder still runs, ran on another host, or names itself otherwise', async () => {
      const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
      try {
        const dead = await exitedPid();
        const holders = [`${host}:${sleeper.pid}:0a1b2c3d4e5f`, `other-${host}:${dead}:0a1b2c3d4e5f`, `worker-${dead}`];
        for (const holder of holders) {
          const name = unique('job-');
          await leaseTo(name, holder);
          const s = new Scheduler(db, log).every(name, MINUTE, async () => undefined);
          expect(await s.runDue(at(1000)), holder).toEqual([]);
          expect(await s.runDue(at(MINUTE + 1)), holder).toEqual([name]);
        }
      } finally {
        sleeper.kill();
      }
    });

    it('is not taken over before it is due, even from a dead holder', async () => {
      const name = unique('job-');
      await db
        .insertInto('scheduled_jobs')
        .values({ name, next_run_at: iso(MINUTE), locked_until: iso(2 * MINUTE), locked_by: `${host}:${await exitedPid()}:0a1b2c3d4e5f` })
        .execute();
      const s = new Scheduler(db, log).every(name, MINUTE, async () => undefined);
      expect(await s.runDue(at(1000))).toEqual([]);
      expect(await s.runDue(at(MINUTE))).toEqual([name]);
    });
  });

  it('never runs a job twice when processes tick concurrently', async () => {
    const names = Array.from({ length: 4 }, () => unique('job-'));
    const runs = new Map<string, number>(names.map((name) => [name, 0]));
    const processes = ['p1', 'p2', 'p3'].map((owner) => {
      const s = scheduler(owner);
      for (const name of names) {
        s.every(name, MINUTE, async () => {
          runs.set(name, runs.get(name)! + 1);
          await new Promise((resolve) => setTimeout(resolve, 2)); // widen the window for overlap
        });
      }
      return s;
    });

    const periods = 5;
    for (let period = 0; period < periods; period++) {
      const now = at(period * 2 * MINUTE);
      const ran = (await Promise.all(processes.map((s) => s.runDue(now)))).flat();
      expect(ran.sort()).toEqual([...names].sort()); // each job once, by one process or another
    }
    expect([...runs.values()]).toEqual(names.map(() => periods));
  });

  it('in one process, never overlaps a job with itself, but runs different jobs concurrently', async () => {
    const [first, second] = [unique('job-'), unique('job-')];
    const hold = gate();
    let active = 0;
    let peak = 0;
    let runs = 0;
    const task = async () => {
      runs++;
      peak = Math.max(peak, ++active);
      await hold.wait;
      active--;
    };
    const s = scheduler().every(first, MINUTE, task).every(second, MINUTE, task);
    const tick = s.runDue(at(0));
    await expect.poll(() => active).toBe(2); // both jobs in flight at once
    // Even once the lease has run out in the database, this process is still running both: it skips them.
    expect(await s.runDue(at(defaultLeaseMs(MINUTE) + 1))).toEqual([]);
    hold.release();
    expect((await tick).sort()).toEqual([first, second].sort());
    expect(runs).toBe(2);
    expect(peak).toBe(2);
  });

  it('ticks on its own timer once started, and stop() waits for the running task', async () => {
    const name = unique('job-');
    const hold = gate();
    let runs = 0;
    let finished = false;
    const s = scheduler(undefined, 5).every(name, MINUTE, async () => {
      runs++;
      if (runs === 3) {
        await hold.wait;
        finished = true;
      }
      return 0; // more to do: due again at the next tick, for as long as the timer ticks
    });
    s.start();
    await expect.poll(() => runs).toBe(3);
    const stopping = s.stop();
    hold.release();
    await stopping;
    expect(finished).toBe(true);
    expect(await rowOf(name)).toMatchObject({ locked_by: null, locked_until: null, last_error: null });

    // A witness on the same tick: by the time it has run five times, a timer left running would have run the job again.
    const witnessName = unique('job-');
    let witnessRuns = 0;
    const witness = scheduler(undefined, 5).every(witnessName, MINUTE, async () => {
      witnessRuns++;
      return 0;
    });
    witness.start();
    await expect.poll(() => witnessRuns).toBeGreaterThanOrEqual(5);
    await witness.stop();
    expect(runs).toBe(3);
  });

  it('rejects a job registered twice or with an interval that is not a positive number', () => {
    const s = scheduler().every('once', MINUTE, async () => {});
    expect(() => s.every('once', MINUTE, async () => {})).toThrow(/registered twice/);
    expect(() => s.every('zero', 0, async () => {})).toThrow(/interval/);
    expect(() => s.every('nan', Number.NaN, async () => {})).toThrow(/interval/);
  });
});
