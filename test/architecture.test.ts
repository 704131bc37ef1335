import { fileURLToPath } from 'node:url';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TABLE_OWNERS } from '../src/modules/table-owners.js';
import {
  cyclicComponents,
  describeImport,
  moduleGraph,
  moduleOf,
  scanSource,
  scanTree,
  schemaTables,
  shortestCycle,
  type SourceFacts,
  type Violation,
} from './helpers/import-graph.js';

/**
 * The walls of the layout (docs/architecture.md), kept by a test over src/'s import graph so they hold
 * without anyone remembering them. Type-only imports count too: a module's types are part of its
 * public face (index.ts), and a type import from another module's internals couples the two all the same.
 */

/** Layers that must not reach into others; each rule is numbered as docs/architecture.md lists it. */
const WALLS = [
  { rule: '1 db → modules', from: 'src/db/', to: ['src/modules/'] }, // db/ sits below every module; migrations stay frozen
  { rule: '3 modules → jobs', from: 'src/modules/', to: ['src/jobs/'] }, // jobs run the modules' durable work, not the reverse
  { rule: '3 jobs → modules', from: 'src/jobs/', to: ['src/modules/'] }, // the modules hand their jobs and senders to app.ts
  { rule: '4 adapters → db/modules', from: 'src/adapters/', to: ['src/db/', 'src/modules/'] }, // plain ports: no SQL, no features
  { rule: '5 http → modules', from: 'src/http/', to: ['src/modules/'] }, // cross-cutting HTTP knows no feature
  { rule: '5 lib → modules/http/jobs', from: 'src/lib/', to: ['src/modules/', 'src/http/', 'src/jobs/'] }, // the shared bottom layer
  { rule: '10 site → db/jobs', from: 'src/site/', to: ['src/db/', 'src/jobs/'] }, // pages reach data through module faces only
  ...['src/lib/', 'src/db/', 'src/http/', 'src/modules/', 'src/jobs/', 'src/adapters/'].map((from) => ({
    rule: '10 → site',
    from,
    to: ['src/site/'],
  })), // the website sits on top: nothing below knows it
];

/**
 * Files outside src/db/dialect/ allowed to know which database is underneath. Keep it this short: anything
 * else asks a named capability of db/dialect/. An entry whose file no longer checks the dialect is reported
 * too, so the list cannot quietly outgrow the code.
 */
export const DIALECT_ALLOWED: Readonly<Record<string, string>> = {
  'src/config.ts': 'reads DATABASE_URL once and decides the database kind (sqlite: or postgres://)',
  'src/db/database.ts': 'opens SQLite or PostgreSQL according to that decision',
};

/** Every broken wall in `files`; pure, so the tests below can feed it planted violations. */
export function checkArchitecture(files: SourceFacts[], dialectAllowed: Readonly<Record<string, string>> = DIALECT_ALLOWED): Violation[] {
  const violations: Violation[] = [];
  const report = (rule: string, file: string, message: string) => violations.push({ rule, file, message });

  // Rules 1, 3, 4, 5: layer walls; rule 2: another module only through its index.ts.
  for (const edge of files.flatMap((f) => f.imports)) {
    const walls = WALLS.filter((wall) => edge.from.startsWith(wall.from) && wall.to.some((to) => edge.to.startsWith(to)));
    for (const wall of walls) report(wall.rule, edge.from, describeImport(edge));
    // Outside src/modules/ too (app.ts, seed/, main.ts): a module is reached through its face only.
    const [a, b] = [moduleOf(edge.from), moduleOf(edge.to)];
    if (walls.length === 0 && b && a !== b && edge.to !== `src/modules/${b}/index.ts`)
      report('2 module internals', edge.from, describeImport(edge));
  }

  // Rule 6: dialect checks only under src/db/dialect/ (and the allow-list).
  for (const { file, dialectChecks } of files) {
    if (dialectChecks.length === 0 || file.startsWith('src/db/dialect/') || file in dialectAllowed) continue;
    report('6 dialect check', file, `${file}: ${dialectChecks.map((c) => `:${c.line} ${c.what}`).join(', ')}`);
  }
  for (const file of Object.keys(dialectAllowed))
    if (!files.some((f) => f.file === file && f.dialectChecks.length > 0))
      report('6 dialect check', file, `${file} is in DIALECT_ALLOWED but checks no dialect: remove the entry`);

  // Rule 7: no cycle between modules. A strongly connected component holds every cycle among its members;
  // print one shortest cycle and every module edge inside the component (the candidates for cutting).
  const graph = moduleGraph(files);
  for (const component of cyclicComponents(graph)) {
    const members = new Set(component);
    const cycle = shortestCycle(graph, component[0]!, members);
    const edges = component.flatMap((a) =>
      [...(graph.get(a) ?? [])]
        .filter(([b]) => members.has(b))
        .map(([b, imports]) => `    ${a} → ${b}: ${imports.length} import(s), e.g. ${describeImport(imports[0]!)}`),
    );
    report(
      '7 module cycle',
      `src/modules/${component[0]}/`,
      `${cycle.join(' → ')} (component: ${component.join(', ')})\n${edges.join('\n')}`,
    );
  }

  // Rule 9: the console is a client of the public API: it imports packages and its own files, nothing of the server.
  for (const edge of files.flatMap((f) => f.imports)) {
    if (edge.from.startsWith('console/') && edge.specifier.startsWith('.') && !edge.to.startsWith('console/'))
      report('9 console → server', edge.from, describeImport(edge));
  }

  // Rule 12: a module's face exports services, types and route plugins, never a repository's function or query
  // fragment: another module would run SQL it does not own, with an executor it chose.
  for (const edge of files.flatMap((f) => f.imports)) {
    if (/^src\/modules\/[^/]+\/index\.ts$/.test(edge.from) && edge.kind === 're-export' && edge.to.endsWith('.repository.ts'))
      report('12 face exports a repository', edge.from, describeImport(edge));
  }

  // Rule 8: a file under src/modules/ or src/jobs/ that issues SQL is a *.repository.ts; the website issues none.
  for (const { file, sqlCalls } of files) {
    if (file.startsWith('src/site/') && sqlCalls.length > 0) {
      report('8 SQL outside a repository', file, `${file}: ${sqlCalls.map((c) => `:${c.line} ${c.what}`).join(', ')}`);
      continue;
    }
    const roled = moduleOf(file) !== undefined || file.startsWith('src/jobs/');
    if (!roled || file.endsWith('.repository.ts') || sqlCalls.length === 0) continue;
    const shown = sqlCalls.slice(0, 8).map((c) => `:${c.line} ${c.what}`);
    if (sqlCalls.length > shown.length) shown.push(`… ${sqlCalls.length - shown.length} more`);
    report('8 SQL outside a repository', file, `${file}: ${shown.join(', ')}`);
  }
  return violations;
}

/**
 * Writes into another module's table that are allowed for now, `file → table` → why. Keep it empty: a write
 * into another module's table is a call to that module's service. An entry whose write is gone is reported.
 */
export const TABLE_WRITES_ALLOWED: Readonly<Record<string, string>> = {};

/** Who a file writes as: its module under src/modules/, `platform` under src/jobs/; undefined for the rest. */
const writerOf = (file: string) => moduleOf(file) ?? (file.startsWith('src/jobs/') ? 'platform' : undefined);

/**
 * Rule 11: every insert, update and delete of a module (and of src/jobs/) names a table that module owns in
 * src/modules/table-owners.ts. Pure, so the tests below can feed it planted violations. src/db/'s writers are
 * the platform's and write what their callers hand them (migrations, bulk loads); seed/ draws demo data.
 */
export function checkTableWrites(
  files: SourceFacts[],
  owners: Readonly<Record<string, string>> = TABLE_OWNERS,
  allowed: Readonly<Record<string, string>> = TABLE_WRITES_ALLOWED,
): Violation[] {
  const violations: Violation[] = [];
  const report = (file: string, message: string) => violations.push({ rule: '11 table owner', file, message });
  const used = new Set<string>();
  for (const { file, tableWrites } of files) {
    const writer = writerOf(file);
    if (!writer) continue;
    for (const write of tableWrites) {
      const place = `${file}:${write.line} ${write.what}`;
      const key = `${file} → ${write.table ?? '(expression)'}`;
      const owner = write.table === undefined ? undefined : owners[write.table];
      if (owner === writer) continue;
      if (key in allowed) used.add(key);
      else if (write.table === undefined)
        report(file, `${place}: the table is named by an expression; name it with a literal so that its owner can be checked`);
      else if (owner === undefined) report(file, `${place} writes ${write.table}, which has no owner in src/modules/table-owners.ts`);
      else if (owner === 'platform')
        report(file, `${place} writes ${write.table}, owned by the platform: use its writer in src/db/, not SQL of the ${writer} module`);
      else report(file, `${place} writes ${write.table}, owned by the ${owner} module: call a service of ${owner} instead`);
    }
  }
  for (const key of Object.keys(allowed))
    if (!used.has(key)) report(key.split(' → ')[0]!, `${key} is in TABLE_WRITES_ALLOWED but no longer written: remove the entry`);
  return violations;
}

/** The violations grouped by rule, with counts: the failure message of the real-tree test. */
export function formatReport(violations: Violation[]): string {
  const rules = [...new Set(violations.map((v) => v.rule))].sort();
  return rules
    .map((rule) => {
      const messages = violations.filter((v) => v.rule === rule).map((v) => `  - ${v.message}`);
      return `Rule ${rule} (${messages.length}):\n${messages.join('\n')}`;
    })
    .join('\n\n');
}

const scanAll = (sources: Record<string, string>) => Object.entries(sources).map(([file, text]) => scanSource(file, text));
const rulesOf = (violations: Violation[]) => violations.map((v) => `${v.rule} | ${v.file}`).sort();

describe('the architecture checker', () => {
  it('reports a planted violation of each rule', () => {
    const files = scanAll({
      'src/db/migrations/0001_x.ts': `import { toCell } from '../../modules/search/geo.js';\nimport { identity } from '../dialect/columns.js';`,
      'src/db/dialect/index.ts': `import { PostgresAdapter } from 'kysely';\nexport const dialectOf = (db) => (db instanceof PostgresAdapter ? 'postgres' : 'sqlite');`,
      'src/modules/search/geo.ts': `export const toCell = 1;`,
      'src/modules/a/index.ts': `export { A } from './a.service.js';`,
      'src/modules/b/index.ts': `export { rows } from './b.repository.js';\nexport type { Row } from './b.repository.js';`,
      'src/modules/a/a.service.ts': [
        `import { type Row } from '../b/b.repository.js';`,
        `import { runOutbox } from '../../jobs/outbox.js';`,
        `export class A { run(db) { return db.transaction().execute(async (trx) => trx); } }`,
      ].join('\n'),
      'src/modules/b/b.repository.ts': `import type { A } from '../a/index.js';\nexport const rows = (db) => db.selectFrom('t').selectAll().execute();`,
      'src/modules/b/b.service.ts': [
        `import { dialectOf } from '../../db/dialect/index.js';`,
        `export const slow = (db) => dialectOf(db) === 'sqlite';`,
        `export function pick(dialect) { switch (dialect) { case 'postgres': return 1; } }`,
      ].join('\n'),
      'src/modules/b/b.helpers.ts': `import { sql, type Kysely } from 'kysely';\nexport const one = sql\`1\`;\nexport const n = (db: Kysely<DB>) => db.deleteFrom('t').executeTakeFirst();\nexport const run = (q) => q.execute();`,
      'src/adapters/mail/mailer.ts': `import type { DB } from '../../db/schema.js';`,
      'src/adapters/push/fcm.ts': `export const load = () => import('../../modules/b/index.js');`,
      'src/http/auth.ts': `export { A } from '../modules/a/index.js';`,
      'src/lib/paging.ts': `import '../http/envelope.js';`,
      'src/jobs/scheduler.ts': `import { A } from '../modules/a/index.js';`,
      'src/site/pages/home/home.routes.tsx': `import { rows } from '../../../db/change-log.js';\nexport const n = (db) => db.selectFrom('t').execute();`,
      'src/http/console.ts': `import { Site } from '../site/site.js';`,
      'src/seed/demo.ts': `import { rows } from '../modules/b/b.repository.js';`,
      'src/config.ts': `export const kind = (url: string) => (url.startsWith('sqlite:') ? { kind: 'sqlite' } : { kind: 'postgres' });`,
      'console/src/features/x/index.tsx': `import { useState } from 'react';\nimport { AppError } from '../../../../src/lib/errors.js';\nexport const X = () => <p>{String(useState)}</p>;`,
    });
    const violations = checkArchitecture(files, { ...DIALECT_ALLOWED, 'src/gone.ts': 'a stale entry' });
    expect(rulesOf(violations)).toEqual(
      [
        '1 db → modules | src/db/migrations/0001_x.ts',
        '2 module internals | src/modules/a/a.service.ts',
        '2 module internals | src/seed/demo.ts',
        '3 jobs → modules | src/jobs/scheduler.ts',
        '3 modules → jobs | src/modules/a/a.service.ts',
        '4 adapters → db/modules | src/adapters/mail/mailer.ts',
        '4 adapters → db/modules | src/adapters/push/fcm.ts',
        '5 http → modules | src/http/auth.ts',
        '5 lib → modules/http/jobs | src/lib/paging.ts',
        '6 dialect check | src/db/database.ts', // allow-listed but absent from this graph: stale
        '6 dialect check | src/gone.ts',
        '6 dialect check | src/modules/b/b.service.ts',
        '7 module cycle | src/modules/a/',
        '8 SQL outside a repository | src/modules/b/b.helpers.ts',
        '8 SQL outside a repository | src/site/pages/home/home.routes.tsx',
        '10 site → db/jobs | src/site/pages/home/home.routes.tsx',
        '10 → site | src/http/console.ts',
        '12 face exports a repository | src/modules/b/index.ts',
        '9 console → server | console/src/features/x/index.tsx',
      ].sort(),
    );
    const report = formatReport(violations);
    expect(report).toContain(`src/db/migrations/0001_x.ts:1 import '../../modules/search/geo.js'`);
    expect(report).toContain(`src/modules/a/a.service.ts:1 import type '../b/b.repository.js'`);
    expect(report).toContain(`src/adapters/push/fcm.ts:1 dynamic import '../../modules/b/index.js'`);
    // The face's type re-export (line 2) is allowed; its function re-export (line 1) is not.
    expect(report).toContain(`src/modules/b/index.ts:1 re-export './b.repository.js'`);
    expect(report).not.toContain(`src/modules/b/index.ts:2`);
    expect(report).toContain('a → b → a');
    expect(report).toContain(
      `src/modules/b/b.service.ts: :2 dialectOf(db) === 'sqlite', :2 dialectOf(), :3 switch (dialect), :3 case 'postgres'`,
    );
    expect(report).toContain(`src/modules/b/b.helpers.ts: :2 sql\`\`, :3 .deleteFrom(), :4 .execute()`);
  });

  it('passes a clean graph: index imports, transactions in services, types, dialect helpers', () => {
    const files = scanAll({
      'src/db/dialect/index.ts': `export const dialectOf = (db) => (db.kind === 'sqlite' ? 'sqlite' : 'postgres');`,
      'src/db/database.ts': `export const open = (c) => (c.kind === 'sqlite' ? 1 : 2);`,
      'src/config.ts': `export const kind = (url: string) => (url.startsWith('sqlite:') ? 'sqlite' : 'postgres');`,
      'src/db/migrations/0001_x.ts': `import { identity } from '../dialect/columns.js';\nimport type { Kysely } from 'kysely';`,
      'src/modules/a/index.ts': `export { A } from './a.service.js';\nexport type { ARow } from './a.mapper.js';\nexport { type Row } from './a.repository.js';`,
      'src/modules/a/a.service.ts': [
        `import type { Kysely, Transaction, SelectQueryBuilder } from 'kysely';`,
        `import * as repository from './a.repository.js';`,
        `import { B } from '../b/index.js';`,
        `export class A { constructor(private db: Kysely<DB>) {}`,
        `  run() { return this.db.transaction().setIsolationLevel('serializable').execute((trx) => repository.rows(trx)); } }`,
      ].join('\n'),
      'src/modules/a/a.repository.ts': `import { sql } from 'kysely';\nexport const rows = (db) => db.selectFrom('t').where(sql\`1\`).execute();`,
      'src/modules/a/a.mapper.ts': `const sql = 'not kysely';\nexport const text = \`\${sql}\`; export type ARow = { kind: 'sqlite' | 'postgres' };`,
      'src/modules/b/index.ts': `export class B {}`,
      'src/app.ts': `import { A } from './modules/a/index.js';\nimport type { AppModule } from './modules/module.js';`,
      'src/jobs/outbox.ts': `import type { DB } from '../db/schema.js';`,
      'src/lib/paging.ts': `export const page = 1;`,
    });
    expect(formatReport(checkArchitecture(files))).toBe('');
  });
});

describe('the table-ownership checker', () => {
  it("reports a write into another module's table, naming the file, the table and its owner", () => {
    const files = scanAll({
      'src/modules/reviews/reviews.repository.ts': [
        `import { sql } from 'kysely';`,
        `export const own = (db) => db.insertInto('reviews').values({}).execute();`,
        `export const rate = (db, id) => db.updateTable('listings as l').set({ rating: 5 }).where('l.id', '=', id).execute();`,
        `export const drop = (db, id) => sql\`delete from users where id = \${id}\`.execute(db);`,
        `export const mark = (db) => sql.raw('UPDATE "outbox" SET status = 1').execute(db);`,
        `export const upsert = (db) => sql\`insert into review_reactions (a) values (1) on conflict (a) do update set a = 2\`.execute(db);`,
        `export const lock = (db) => sql\`select id from reviews for update skip locked\`.execute(db);`,
        `export const some = (db, table) => db.deleteFrom(table).execute();`,
        `export const gone = (db) => db.deleteFrom('no_such_table').execute();`,
        `export const load = (db) => insertRows(db, 'listings', ['id'], [[1]]);`,
      ].join('\n'),
      'src/jobs/outbox.repository.ts': `export const claim = (db) => db.updateTable('outbox').set({}).execute();\nexport const x = (db) => db.replaceInto('memberships').values({}).execute();`,
      'src/seed/demo.ts': `export const seed = (db) => db.insertInto('listings').values({}).execute();`,
      'src/modules/properties/properties.repository.ts': `export const move = (db) => db.updateTable('listings').set({}).execute();`,
    });
    const violations = checkTableWrites(files, TABLE_OWNERS, { 'src/modules/users/gone.repository.ts → listings': 'a stale entry' });
    expect(violations.map((v) => v.message)).toEqual([
      `src/modules/reviews/reviews.repository.ts:3 .updateTable('listings as l') writes listings, owned by the properties module: call a service of properties instead`,
      'src/modules/reviews/reviews.repository.ts:4 sql`delete from users` writes users, owned by the accounts module: call a service of accounts instead',
      'src/modules/reviews/reviews.repository.ts:5 sql.raw(update outbox) writes outbox, owned by the platform: use its writer in src/db/, not SQL of the reviews module',
      'src/modules/reviews/reviews.repository.ts:8 .deleteFrom(table): the table is named by an expression; name it with a literal so that its owner can be checked',
      `src/modules/reviews/reviews.repository.ts:9 .deleteFrom('no_such_table') writes no_such_table, which has no owner in src/modules/table-owners.ts`,
      `src/modules/reviews/reviews.repository.ts:10 insertRows('listings') writes listings, owned by the properties module: call a service of properties instead`,
      `src/jobs/outbox.repository.ts:2 .replaceInto('memberships') writes memberships, owned by the payments module: call a service of payments instead`,
      'src/modules/users/gone.repository.ts → listings is in TABLE_WRITES_ALLOWED but no longer written: remove the entry',
    ]);
    expect(new Set(violations.map((v) => v.rule))).toEqual(new Set(['11 table owner']));
    // The same write, allowed by an entry, passes; the entry is then not stale.
    const allowed = { 'src/jobs/outbox.repository.ts → memberships': 'planted' };
    expect(checkTableWrites(files.slice(1, 2), TABLE_OWNERS, allowed)).toEqual([]);
  });

  it('holds every table of src/db/schema/ to exactly one owner, each a module folder or the platform', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const tables = schemaTables(root);
    expect(tables.length).toBeGreaterThan(40); // the reader found the schema
    const unowned = tables.filter(({ table }) => !(table in TABLE_OWNERS)).map(({ table, file }) => `${table} (${file})`);
    expect(unowned, 'tables without an owner in src/modules/table-owners.ts').toEqual([]);
    const known = new Set(tables.map(({ table }) => table));
    expect(
      Object.keys(TABLE_OWNERS).filter((table) => !known.has(table)),
      'owners of tables the schema does not have',
    ).toEqual([]);
    const modules = readdirSync(path.join(root, 'src/modules'), { withFileTypes: true }).filter((e) => e.isDirectory());
    const owners = new Set(['platform', ...modules.map((e) => e.name)]);
    expect(Object.entries(TABLE_OWNERS).filter(([, owner]) => !owners.has(owner))).toEqual([]);
  });
});

describe('src/ and console/src/', () => {
  it('keeps the walls between layers and modules', () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const files = scanTree(root);
    const violations = [...checkArchitecture([...files, ...scanTree(root, 'console/src')]), ...checkTableWrites(files)];
    if (violations.length > 0) expect.fail(`${violations.length} architecture violation(s):\n\n${formatReport(violations)}`);
  });
});
