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
import type { DB } from './schema/index.js';

/**
 * Cache stamps: `cache_versions` rows that triggers renew with a random value whenever the data behind a
 * cached answer changes (db/dialect/term-triggers.ts), in any process.
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
 * process's changes within `maxAgeMs` (0 reads the stamp on every call). NOTE: writes are counted when
 * their statement completes, before a transaction commits; on PostgreSQL a stamp read by another request
 * in that window is the old one, and the change then shows within `maxAgeMs` too.
 */
export class CacheStamps {
  private readonly known = new Map<string, { stamp: string; writes: number; at: number }>();

  constructor(
    private readonly read: CacheVersionReader,
    private readonly localWrites: LocalWrites,
    private readonly maxAgeMs: number,
  ) {}

  async current(name: string): Promise<string> {
    const writes = this.localWrites.count;
    const now = performance.now();
    const known = this.known.get(name);
    if (known && known.writes === writes && now - known.at < this.maxAgeMs) return known.stamp;
    const stamp = await this.read(name);
    this.known.set(name, { stamp, writes, at: now });
    return stamp;
  }
}
