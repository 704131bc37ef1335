import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The facts the architecture test needs about src/, read with the TypeScript parser (not regular
 * expressions, so comments, strings and type positions are told apart from code). Everything below
 * `scanSource` is pure: the test feeds it in-memory sources to prove each rule fires.
 */

type ImportKind = 'import' | 'import type' | 're-export' | 're-export type' | 'dynamic import';

/** One import of one file; `to` is repository-relative (`src/…/x.ts`) when relative, else the bare specifier. */
export interface ImportEdge {
  from: string;
  to: string;
  specifier: string;
  kind: ImportKind;
  line: number;
}

/** A place in a file worth reporting: a dialect check or a SQL-issuing call. */
interface Finding {
  line: number;
  column: number;
  what: string;
}

/** A statement that changes rows: `table` is undefined when the code names it with an expression, not a literal. */
interface TableWrite extends Finding {
  table: string | undefined;
}

export interface SourceFacts {
  file: string;
  imports: ImportEdge[];
  dialectChecks: Finding[];
  sqlCalls: Finding[];
  tableWrites: TableWrite[];
}

export interface Violation {
  rule: string;
  file: string;
  message: string;
}

const DIALECT_NAMES = new Set(['sqlite', 'sqlite3', 'postgres', 'postgresql', 'pg']);
const ADAPTER_CLASSES = new Set(['PostgresAdapter', 'SqliteAdapter']);
// Kysely calls that start a statement or send one; `sql` tags and `sql.raw()`-style helpers are found separately.
const QUERY_STARTS = new Set(['selectFrom', 'insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto', 'selectNoFrom']);
const QUERY_SENDS = new Set(['execute', 'executeTakeFirst', 'executeTakeFirstOrThrow', 'executeQuery']);
// `db.transaction().execute(fn)` runs a callback in a transaction (services are meant to do that), and a
// `.execute()` after `.selectFrom()` is the same statement: neither is reported as a send of its own.
const NOT_A_NEW_STATEMENT = new Set(['transaction', 'connection', ...QUERY_STARTS]);
// Kysely calls that change rows, whose first argument names the table (`'listings'` or `'listings as l'`).
const WRITE_STARTS = new Set(['insertInto', 'updateTable', 'deleteFrom', 'replaceInto', 'mergeInto']);
// db/ helpers that write the table given as their second argument (db/dialect/bulk-load.ts): seen as writes too.
const TABLE_ARGUMENT_WRITERS = new Set(['insertRows']);
// The same in raw SQL (a `sql` template or `sql.raw('…')`): the word after the verb is the table; `${}` stands
// for an interpolation (a table named by an expression). `do update set` (an upsert's second half), `for update`
// (a row lock) and `on update cascade` name no table.
const RAW_WRITE =
  /(?<!\b(?:for|do|on|key)\s+)\b(insert\s+(?:or\s+\w+\s+)?into|replace\s+into|merge\s+into|update|delete\s+from)\s+(?:only\s+)?(\$\{\}|"[^"]+"|`[^`]+`|[A-Za-z_]\w*)/gi;

/** The tables a raw SQL text writes, with the statement's verb. */
function rawWrites(text: string): { verb: string; table: string | undefined }[] {
  return [...text.matchAll(RAW_WRITE)].map(([, verb, name]) => ({
    verb: verb!.toLowerCase().replace(/\s+/g, ' '),
    table: name === '${}' ? undefined : name!.replace(/^["`]|["`]$/g, ''),
  }));
}

/** A template's text with each interpolation as `${}`. */
function templateText(template: ts.TemplateLiteral): string {
  if (ts.isNoSubstitutionTemplateLiteral(template)) return template.text;
  return template.head.text + template.templateSpans.map((span) => `\${}${span.literal.text}`).join('');
}

/** `../<name>.js` seen from `src/<dir>/<file>.ts` → `src/<dir>/<name>.ts`; bare specifiers (packages, node:) stay as they are. */
function resolveSpecifier(from: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  return joined.replace(/\.(m|c)?js$/, (_, m: string | undefined) => `.${m ?? ''}ts`);
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './<name>.js'` runs the file
  if (clause.isTypeOnly) return true;
  const named = clause.namedBindings;
  return !clause.name && !!named && ts.isNamedImports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly);
}

function nameOf(expr: ts.Expression): string | undefined {
  if (ts.isIdentifier(expr)) return expr.text;
  if (ts.isPropertyAccessExpression(expr)) return expr.name.text;
  return undefined;
}

function literalText(expr: ts.Expression): string | undefined {
  return ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr) ? expr.text : undefined;
}

const isDialectName = (expr: ts.Expression) => DIALECT_NAMES.has(literalText(expr) ?? '');
const isDialectVariable = (expr: ts.Expression) => /^dialect(name)?$/i.test(nameOf(expr) ?? '');

/** True when the chain `receiver` ends in holds a call of one of `names`: `db.selectFrom('t').where(…)` holds `selectFrom`. */
function chainCalls(receiver: ts.Expression, names: Set<string>): boolean {
  let expr: ts.Expression = receiver;
  for (;;) {
    if (ts.isCallExpression(expr)) {
      if (ts.isPropertyAccessExpression(expr.expression) && names.has(expr.expression.name.text)) return true;
      expr = expr.expression;
    } else if (ts.isPropertyAccessExpression(expr) || ts.isNonNullExpression(expr) || ts.isParenthesizedExpression(expr)) {
      expr = expr.expression;
    } else return false;
  }
}

/** Parses one file and collects its imports, dialect checks and SQL calls. `file` is repository-relative. */
export function scanSource(file: string, text: string): SourceFacts {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const facts: SourceFacts = { file, imports: [], dialectChecks: [], sqlCalls: [], tableWrites: [] };
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  // A call is placed at its method name: in `db.selectFrom(…).execute()` both calls start at `db`.
  const at = (node: ts.Node, what: string): Finding => {
    const place = ts.isPropertyAccessExpression(node) ? node.name : node;
    const { line, character } = source.getLineAndCharacterOfPosition(place.getStart(source));
    return { line: line + 1, column: character + 1, what };
  };
  const addImport = (node: ts.Node, specifier: string, kind: ImportKind) =>
    facts.imports.push({ from: file, to: resolveSpecifier(file, specifier), specifier, kind, line: lineOf(node) });
  // `sql` counts only when it is Kysely's: a local string named sql is not a query.
  let kyselySql = false;

  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      addImport(node, node.moduleSpecifier.text, isTypeOnlyImport(node) ? 'import type' : 'import');
      const named = node.importClause?.namedBindings;
      if (node.moduleSpecifier.text === 'kysely' && named && ts.isNamedImports(named))
        kyselySql ||= named.elements.some((e) => e.name.text === 'sql' && !e.isTypeOnly);
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause;
      const typeOnly =
        node.isTypeOnly || (!!named && ts.isNamedExports(named) && named.elements.length > 0 && named.elements.every((e) => e.isTypeOnly));
      addImport(node, node.moduleSpecifier.text, typeOnly ? 're-export type' : 're-export');
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const specifier = node.arguments[0] && literalText(node.arguments[0]);
      if (specifier !== undefined) addImport(node, specifier, 'dynamic import'); // NOTE: computed specifiers are not followed
    } else if (ts.isIdentifier(node) && ADAPTER_CLASSES.has(node.text)) {
      facts.dialectChecks.push(at(node, node.text));
    } else if (ts.isBinaryExpression(node) && /^[!=]==?$/.test(node.operatorToken.getText(source))) {
      const sides = [node.left, node.right];
      if (sides.some(isDialectName) || sides.some(isDialectVariable)) facts.dialectChecks.push(at(node, node.getText(source)));
    } else if (ts.isCaseClause(node) && isDialectName(node.expression)) {
      facts.dialectChecks.push(at(node, `case ${node.expression.getText(source)}`));
    } else if (ts.isSwitchStatement(node) && isDialectVariable(node.expression)) {
      facts.dialectChecks.push(at(node, `switch (${node.expression.getText(source)})`));
    } else if (ts.isTaggedTemplateExpression(node) && kyselySql && ts.isIdentifier(node.tag) && node.tag.text === 'sql') {
      facts.sqlCalls.push(at(node, 'sql``'));
      for (const write of rawWrites(templateText(node.template)))
        facts.tableWrites.push({ ...at(node, `sql\`${write.verb} ${write.table ?? '${…}'}\``), table: write.table });
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = nameOf(callee);
      const receiver = ts.isPropertyAccessExpression(callee) ? callee.expression : undefined;
      if (name === 'dialectOf') facts.dialectChecks.push(at(node, 'dialectOf()'));
      // `url.startsWith('sqlite:')`: telling the database kind from a string.
      else if (
        name &&
        /^(startsWith|endsWith|includes)$/.test(name) &&
        node.arguments.some((a) => /^(sqlite|postgres)/.test(literalText(a) ?? ''))
      )
        facts.dialectChecks.push(at(node, node.getText(source)));
      else if (!receiver && name && TABLE_ARGUMENT_WRITERS.has(name)) {
        // A db/ helper handed the table as a value: `insertRows(trx, 'media', …)`.
        const table = node.arguments[1];
        facts.tableWrites.push({ ...at(callee, `${name}(${table ? table.getText(source) : ''})`), table: table && literalText(table) });
      } else if (receiver && name && QUERY_STARTS.has(name)) {
        facts.sqlCalls.push(at(callee, `.${name}()`));
        if (WRITE_STARTS.has(name)) {
          const first = node.arguments[0];
          const named = first && literalText(first);
          const table = named?.split(/\s+as\s+/i)[0]!.trim();
          facts.tableWrites.push({ ...at(callee, `.${name}(${first ? first.getText(source) : ''})`), table });
        }
      } else if (receiver && name && QUERY_SENDS.has(name) && !chainCalls(receiver, NOT_A_NEW_STATEMENT))
        facts.sqlCalls.push(at(callee, `.${name}()`));
      else if (receiver && kyselySql && ts.isIdentifier(receiver) && receiver.text === 'sql') {
        facts.sqlCalls.push(at(callee, `sql.${name}()`));
        const first = node.arguments[0];
        const text = name === 'raw' && first ? (literalText(first) ?? (ts.isTemplateExpression(first) ? templateText(first) : '')) : '';
        for (const write of rawWrites(text))
          facts.tableWrites.push({ ...at(callee, `sql.raw(${write.verb} ${write.table ?? '${…}'})`), table: write.table });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  // Outer calls are visited before the calls they contain: report in reading order instead.
  const byPlace = (a: Finding, b: Finding) => a.line - b.line || a.column - b.column;
  facts.dialectChecks.sort(byPlace);
  facts.sqlCalls.sort(byPlace);
  facts.tableWrites.sort(byPlace);
  return facts;
}

/** Every `*.ts` under `root/dir` (declarations excepted), scanned; paths relative to `root`. */
export function scanTree(root: string, dir = 'src'): SourceFacts[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !f.endsWith('.d.ts'))
    .map((f) => path.posix.join(dir, f.split(path.sep).join('/')))
    .sort()
    .map((file) => scanSource(file, readFileSync(path.join(root, file), 'utf8')));
}

/** The module a path belongs to: `src/modules/search/geo/geo.ts` → `search`. */
export function moduleOf(file: string): string | undefined {
  return /^src\/modules\/([^/]+)\//.exec(file)?.[1];
}

/** Module → module → the file imports behind that dependency. */
export function moduleGraph(files: SourceFacts[]): Map<string, Map<string, ImportEdge[]>> {
  const graph = new Map<string, Map<string, ImportEdge[]>>();
  for (const edge of files.flatMap((f) => f.imports)) {
    const [a, b] = [moduleOf(edge.from), moduleOf(edge.to)];
    if (!a || !b || a === b) continue;
    const out = graph.get(a) ?? new Map<string, ImportEdge[]>();
    out.set(b, [...(out.get(b) ?? []), edge]);
    graph.set(a, out);
  }
  return graph;
}

/** Strongly connected components with more than one module (Tarjan): each one holds at least one cycle. */
export function cyclicComponents(graph: Map<string, Map<string, unknown>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const components: string[][] = [];
  const connect = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v)?.keys() ?? []) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    for (let w = stack.pop()!; ; w = stack.pop()!) {
      component.push(w);
      if (w === v) break;
    }
    if (component.length > 1) components.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) connect(v);
  return components;
}

/** The shortest cycle through `start` inside `members` (breadth-first), as `[start, …, start]`. */
export function shortestCycle(graph: Map<string, Map<string, unknown>>, start: string, members: Set<string>): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!members.has(w) || previous.has(w)) continue;
      previous.set(w, v);
      if (w === start) {
        const cycle = [start];
        for (let at = v; at !== start; at = previous.get(at)!) cycle.splice(1, 0, at);
        return [...cycle, start];
      }
      queue.push(w);
    }
  }
  return [start];
}

export const describeImport = (e: ImportEdge) => `${e.from}:${e.line} ${e.kind} '${e.specifier}'`;

/**
 * The tables of the typed schema: the members of every `…Tables` interface under `dir` (src/db/schema/), as
 * `{ table, file }`. Read with the parser, so the test holds the map against the schema the code compiles with.
 */
export function schemaTables(root: string, dir = 'src/db/schema'): { table: string; file: string }[] {
  return readdirSync(path.join(root, dir))
    .filter((f) => f.endsWith('.ts'))
    .sort()
    .flatMap((f) => {
      const file = path.posix.join(dir, f);
      const source = ts.createSourceFile(file, readFileSync(path.join(root, file), 'utf8'), ts.ScriptTarget.Latest, true);
      return source.statements.flatMap((statement) =>
        ts.isInterfaceDeclaration(statement) && /Tables$/.test(statement.name.text)
          ? statement.members.flatMap((m) => (ts.isPropertySignature(m) && ts.isIdentifier(m.name) ? [{ table: m.name.text, file }] : []))
          : [],
      );
    });
}
