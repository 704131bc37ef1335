import fs from 'node:fs';
import path from 'node:path';

/**
 * Reads the main thread's `--cpu-prof` profile of a server start (check 6) and says where the time from
 * spawn to ready went: each sample is put in one bucket by the frames on its stack, and the moments the
 * start reached `serve()` and Fastify's route compilation (avvio's ready) are noted.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface StartupBreakdown {
  /** Milliseconds of profile covered (process start to the stop that followed ready). */
  profiledMs: number;
  /** From the profile's start to the first sample in dist/server.js serve(): loading modules. */
  serveAtMs: number | undefined;
  /** First sample inside Fastify's boot (avvio), i.e. app.ready()/listen compiling the routes. */
  bootAtMs: number | undefined;
  /** Last sample inside avvio: the routes are compiled, listen follows. */
  bootEndMs: number | undefined;
  /** Milliseconds per bucket, largest first. */
  buckets: [string, number][];
  /** The functions with the most self time: [name, ms]. */
  topSelf: [string, number][];
}

const BUCKETS: [string, RegExp][] = [
  ['search index build (modules/search/engine: parsing the pages, filling the index)', /\/(src|dist)\/modules\/search\/engine\//],
  ['response serializers (fast-json-stringify build, per route and status)', /fast-json-stringify|json-schema-ref-resolver/],
  ['request validators (Ajv compile)', /node_modules\/ajv\//],
  ['database (better-sqlite3, pg, kysely, db/)', /better-sqlite3|node_modules\/pg\/|node_modules\/kysely\/|\/(src|dist)\/db\//],
  ['Fastify boot (avvio, plugins, routes)', /node_modules\/(avvio|fastify|@fastify|find-my-way)\//],
  ['loading modules', /node:internal\/modules/],
];

/** The main thread's profile among the files `--cpu-prof-dir` received (thread id 0 in the name). */
export function mainThreadProfile(dir: string): string | undefined {
  const files = fs.readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  const main = files.find((name) => /\.\d+\.0\.\d+\.cpuprofile$/.test(name)) ?? files[0];
  return main === undefined ? undefined : path.join(dir, main);
}

/** Breaks the profile down, counting only samples up to `untilMs` after its start (the ready moment). */
export function analyseStartup(file: string, untilMs: number): StartupBreakdown {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

  const buckets = new Map<string, number>();
  const self = new Map<string, number>();
  let at = 0;
  let serveAtMs: number | undefined;
  let bootAtMs: number | undefined;
  let bootEndMs: number | undefined;
  for (let i = 0; i < profile.samples.length; i++) {
    const deltaMs = (profile.timeDeltas[i] ?? 0) / 1000;
    at += deltaMs;
    if (at > untilMs) break;
    const leaf = nodes.get(profile.samples[i]!)!;
    const urls: string[] = [];
    let inServe = false;
    let inBoot = false;
    for (let id: number | undefined = leaf.id; id !== undefined; id = parents.get(id)) {
      const frame = nodes.get(id)!.callFrame;
      urls.push(frame.url);
      if (frame.functionName === 'serve' && frame.url.endsWith('/dist/server.js')) inServe = true;
      if (frame.url.includes('node_modules/avvio/')) inBoot = true;
    }
    if (inServe) serveAtMs ??= at;
    // avvio also runs while fastify's modules load: only its work after serve() began is the boot.
    if (inBoot && serveAtMs !== undefined) {
      bootAtMs ??= at;
      bootEndMs = at;
    }
    const name = leaf.callFrame.functionName;
    let bucket: string;
    if (name === '(idle)') bucket = 'idle (waiting: I/O, timers)';
    else if (name === '(garbage collector)') bucket = 'garbage collection';
    else bucket = BUCKETS.find(([, pattern]) => urls.some((url) => pattern.test(url)))?.[0] ?? 'other';
    buckets.set(bucket, (buckets.get(bucket) ?? 0) + deltaMs);
    const where = leaf.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(dist|src)\//, '$1/');
    const key = `${name || '(anonymous)'} ${where}${where ? `:${leaf.callFrame.lineNumber + 1}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + deltaMs);
  }
  const sorted = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]);
  return {
    profiledMs: (profile.endTime - profile.startTime) / 1000,
    serveAtMs,
    bootAtMs,
    bootEndMs,
    buckets: sorted(buckets),
    topSelf: sorted(self)
      .filter(([name]) => !name.startsWith('(idle)') && !name.startsWith('(garbage'))
      .slice(0, 8),
  };
}
