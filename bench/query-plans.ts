import {
  CompiledQuery,
  type Kysely,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { buildApp, createServices } from '../src/app.js';
import { type DatabaseConfig, loadConfig } from '../src/config.js';
import { createDatabase } from '../src/db/database.js';
import { dialectOf } from '../src/db/dialect/index.js';
import type { DB } from '../src/db/schema/index.js';

/**
 * The SQL behind a request and its query plans: the whole application runs in this process on the dataset
 * (as `serve` would, without listening), answers the request once to warm its caches, then again with every
 * statement it sends recorded, exactly as compiled for the driver; each recorded statement that reads the
 * listings is then explained with its own parameters (SQLite: EXPLAIN QUERY PLAN, PostgreSQL: EXPLAIN).
 */

export interface ExplainedStatement {
  sql: string;
  parameters: readonly unknown[];
  /** One line per plan node, indented by depth. */
  plan: string[];
}

/** Statements of a request worth explaining: those over the listings and what search reads beside them. */
const SEARCH_TABLES = /\b(listings|listing_terms|listings_fts|geo_cells|geo_cell_changes)\b/;

/**
 * Records the statements a Kysely instance runs, compiled by that instance's own compiler. Plugins see every
 * query when it is compiled, subqueries too (when put into their query), but results only of the statements
 * run: a compiled query counts once a result came for its query id. Builders derived from one another share
 * their id (a page and its count), so an id may stand for several statements.
 */
class StatementLog implements KyselyPlugin {
  recording = false;
  private readonly compiled = new Map<QueryId, CompiledQuery[]>();
  private readonly answered = new Set<QueryId>();

  constructor(private readonly db: Kysely<DB>) {}

  /** The statements run while recording, in the order they were compiled, each once. */
  statements(): CompiledQuery[] {
    const seen = new Set<string>();
    return [...this.compiled]
      .filter(([queryId]) => this.answered.has(queryId))
      .flatMap(([, statements]) => statements)
      .filter((statement) => {
        const key = JSON.stringify([statement.sql, statement.parameters]);
        return !seen.has(key) && seen.add(key);
      });
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (this.recording) {
      const statements = this.compiled.get(queryId) ?? [];
      statements.push(this.db.getExecutor().compileQuery(node, queryId));
      this.compiled.set(queryId, statements);
    }
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.recording) this.answered.add(queryId);
    return result;
  }
}

/** The explained statements of `path` (e.g. `/realty-api/v1/properties/search?…`), answered on `database`. */
export async function explainRequest(database: DatabaseConfig, path: string): Promise<ExplainedStatement[]> {
  const opened = createDatabase(database);
  const log = new StatementLog(opened.db);
  const config = loadConfig({
    DATABASE_URL: database.kind === 'sqlite' ? `sqlite:${database.path}` : database.url,
    LOG_LEVEL: 'silent',
    RATE_LIMIT_ENABLED: 'false',
    // The plans of the SQL search, the reference, whichever search the servers measure (no index built here).
    SEARCH_ENGINE: 'sql',
    JWT_SECRET: 'bench-query-plans-secret-0123456789abcdef',
  });
  const deps = { config, database: { ...opened, db: opened.db.withPlugin(log) }, jwtSecret: config.jwtSecret! };
  const services = createServices(deps);
  const app = await buildApp(deps, services);
  try {
    await app.ready();
    for (const recording of [false, true]) {
      log.recording = recording;
      const response = await app.inject({ method: 'GET', url: path });
      if (response.statusCode !== 200) throw new Error(`${path} answered ${response.statusCode} ${response.body.slice(0, 200)}`);
    }
    log.recording = false;
    const explained: ExplainedStatement[] = [];
    for (const statement of log.statements().filter((s) => SEARCH_TABLES.test(s.sql))) {
      explained.push({ sql: statement.sql, parameters: statement.parameters, plan: await planOf(opened.db, statement) });
    }
    return explained;
  } finally {
    await app.close();
    await services.shutdown();
    await opened.destroy();
  }
}

async function planOf(db: Kysely<DB>, statement: CompiledQuery): Promise<string[]> {
  if (dialectOf(db) === 'postgres') {
    const { rows } = await db.executeQuery<{ 'QUERY PLAN': string }>(
      CompiledQuery.raw(`explain ${statement.sql}`, [...statement.parameters]),
    );
    return rows.map((row) => row['QUERY PLAN']);
  }
  const { rows } = await db.executeQuery<{ id: number; parent: number; detail: string }>(
    CompiledQuery.raw(`explain query plan ${statement.sql}`, [...statement.parameters]),
  );
  // Rows come parents first; a node's depth is its parent's plus one.
  const depth = new Map<number, number>([[0, 0]]);
  return rows.map((row) => {
    const level = (depth.get(row.parent) ?? 0) + 1;
    depth.set(row.id, level);
    return `${'  '.repeat(level - 1)}${row.detail}`;
  });
}
