import { randomBytes } from 'node:crypto';
import type SQLite from 'better-sqlite3';
import {
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  SelectQueryNode,
  type UnknownRow,
} from 'kysely';
import type { Executor } from './executor.js';
import type { DB } from './schema/index.js';

/**
 * Cache stamps: `cache_versions` rows that triggers renew with a random value whenever the data behind a
 * cached answer changes (db/dialect/ddl/term-triggers.ts), in any process.
 */
export type CacheVersionReader = (name: string) => Promise<string>;

/** On SQLite: one prepared statement, run synchronously (the query builder costs more than the read). */
export function sqliteCacheVersionReader(connection: SQLite.Database): CacheVersionReader {
  const statement = connection.prepare<[string], string>('SELECT version FROM cache_versions WHERE name = ?').pluck();
  return async (name) => statement.get(name) ?? '';
}

export function kyselyCacheVersionReader(db: Kysely<DB>): CacheVersionReader {
  return async (name) => {
    const row = await db.selectFrom('cache_versions').select('version').where('name', '=', name).executeTakeFirst();
    return row?.version ?? '';
  };
}

/**
 * Counts the statements other than SELECT that this process has completed: any of them may have changed
 * data. Counted when the statement has run, not when it was built, so a stamp read in between is not
 * mistaken for one taken after the change.
 */
export class LocalWrites implements KyselyPlugin {
  count = 0;
  private readonly pending = new WeakSet<object>();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(args.node)) this.pending.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.pending.delete(args.queryId)) this.count++;
    return args.result;
  }
}

/**
 * The current stamp of a cached answer, read from the database at most once per `maxAgeMs`, and at once
 * after this process has written anything. So a process sees its own changes immediately, and another
 * process's changes within `maxAgeMs` (0 reads the stamp on every call). Callers that need a read while one
 * is on its way join it when it started late enough for them (after their own writes, within `maxAgeMs`):
 * under load a stamp is read once at a time, not once per request. NOTE: writes are counted when their
 * statement completes, before a transaction commits; on PostgreSQL a stamp read by another request in that
 * window is the old one, and the change then shows within `maxAgeMs` too.
 */
export class CacheStamps {
  /** Stamps as read, with the local write count and the time the read started (what they vouch for). */
  private readonly known = new Map<string, StampRead>();
  private readonly reading = new Map<string, StampRead & { promise: Promise<string> }>();

  constructor(
    private readonly read: CacheVersionReader,
    private readonly localWrites: LocalWrites,
    private readonly maxAgeMs: number,
  ) {}

  async current(name: string): Promise<string> {
    const writes = this.localWrites.count;
    const now = performance.now();
    const fresh = (read: StampRead | undefined) => read !== undefined && read.writes === writes && now - read.at < this.maxAgeMs;
    const known = this.known.get(name);
    if (fresh(known)) return known!.stamp;
    const inFlight = this.reading.get(name);
    if (fresh(inFlight)) return inFlight!.promise;
    const started: StampRead = { stamp: '', writes, at: now };
    const promise = this.read(name).then(
      (stamp) => {
        if (this.reading.get(name)?.promise === promise) this.reading.delete(name);
        const latest = this.known.get(name);
        // A read that started earlier than the one already known must not replace it.
        if (!latest || latest.at <= started.at) this.known.set(name, { ...started, stamp });
        return stamp;
      },
      (error: unknown) => {
        if (this.reading.get(name)?.promise === promise) this.reading.delete(name);
        throw error;
      },
    );
    this.reading.set(name, { ...started, promise });
    return promise;
  }
}

interface StampRead {
  stamp: string;
  writes: number;
  at: number;
}

/**
 * Renews the named stamps as their triggers would, in the caller's transaction: for a bulk load that set the
 * triggers aside (properties' listing-bulk.repository.ts). `cache_versions` is the platform's table
 * (modules/table-owners.ts), so its writes stay here.
 */
export async function renewCacheStamps(db: Executor, names: readonly string[]): Promise<void> {
  for (const name of names) {
    await db
      .updateTable('cache_versions')
      .set({ version: randomBytes(8).toString('hex').toUpperCase() })
      .where('name', '=', name)
      .execute();
  }
}
