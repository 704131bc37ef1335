import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * issue 40 item 6: every fixed word of the console is a message in its four languages (console/src/i18n, each
 * feature's `messages`; console/src/i18n/messages.test.ts checks that each language has every key). Here the
 * console's components are read as TypeScript syntax: text written between JSX tags, and a string written as a
 * label attribute (`aria-label`, `title`, `placeholder`, `alt`, `label`, `legend`, …) or inside a JSX expression,
 * must not be words of English. A word is three letters or more beside another word or starting with a capital;
 * machine values (`btn btn-primary`, `listings.title`, `/console/login`) are not words.
 */
const CONSOLE_SRC = fileURLToPath(new URL('../../console/src', import.meta.url));

/** Attributes whose text a reader or a screen reader meets. */
const LABEL_ATTRIBUTES = new Set([
  'aria-label',
  'aria-description',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
  'legend',
  'emptyText',
  'summary',
  'caption',
]);

/** Attributes that carry values for the machine, whatever they look like. */
const MACHINE_ATTRIBUTES =
  /^(className|key|id|name|type|role|href|to|src|srcSet|sizes|method|resource|htmlFor|autoComplete|inputMode|dir|lang|rel|target|value|defaultValue|accept|step|pattern|form|loading|decoding|data-.*|aria-(?!label|description|roledescription|valuetext).*)$/;

/** Text that a reader would take for words: letters beyond a symbol, a unit or a placeholder like `https://`. */
function isWords(text: string): boolean {
  const trimmed = text.trim();
  if (!/[A-Za-z]{3,}/.test(trimmed)) return false;
  // Message keys, class lists, paths and other identifiers.
  if (/^[a-z0-9_.:/#?=&{}$-]+( [a-z0-9_.:/#?=&{}$-]+)*$/.test(trimmed)) return false;
  return /^[A-Z][a-z]{2,}/.test(trimmed) || /[A-Za-z]{3,}[^A-Za-z]+[A-Za-z]{2,}/.test(trimmed);
}

interface Finding {
  where: string;
  text: string;
}

/** The hard-coded words of one component file. */
function hardCodedLabels(fileName: string, source: string): Finding[] {
  const file = ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const findings: Finding[] = [];
  const report = (node: ts.Node, text: string) => {
    const { line } = file.getLineAndCharacterOfPosition(node.getStart(file));
    findings.push({ where: `${fileName}:${line + 1}`, text: text.trim() });
  };
  const visit = (node: ts.Node, inJsxExpression: boolean, attribute: string | undefined): void => {
    if (ts.isJsxText(node)) {
      if (/[A-Za-z]{2,}/.test(node.text)) report(node, node.text);
      return;
    }
    // A message looked up, a module or a value read from a record: not written here.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isCallExpression(node) && /(^|\.)t$/.test(node.expression.getText(file))) return;
    if (ts.isJsxAttribute(node)) {
      const name = node.name.getText(file);
      if (MACHINE_ATTRIBUTES.test(name)) return;
      const initializer = node.initializer;
      if (initializer && ts.isStringLiteral(initializer) && LABEL_ATTRIBUTES.has(name) && isWords(initializer.text)) {
        report(initializer, initializer.text);
      }
      attribute = name;
    }
    const inside = inJsxExpression || ts.isJsxExpression(node);
    if (inside && (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateHead(node)) && isWords(node.text)) {
      // Strings compared or passed to functions inside the expression are values, not text shown as it is.
      const parent = node.parent;
      const compared = ts.isBinaryExpression(parent) && /^(===|!==|==|!=)$/.test(parent.operatorToken.getText(file));
      const argument = ts.isCallExpression(parent) && parent.expression !== node;
      if (!compared && !argument) report(node, node.text);
    }
    ts.forEachChild(node, (child) => visit(child, inside, attribute));
  };
  visit(file, false, undefined);
  return findings;
}

function componentFiles(directory: string): string[] {
  return fs.readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return componentFiles(full);
    return entry.name.endsWith('.tsx') && !entry.name.includes('.test.') ? [full] : [];
  });
}

describe('the console’s fixed labels', () => {
  it('are messages: no component writes English words of its own in its markup', () => {
    const findings = componentFiles(CONSOLE_SRC).flatMap((file) =>
      hardCodedLabels(path.relative(CONSOLE_SRC, file), fs.readFileSync(file, 'utf8')),
    );
    expect(findings.map(({ where, text }) => `${where} ${JSON.stringify(text)}`)).toEqual([]);
  });

  it('finds text between tags, label attributes and strings shown from an expression, and leaves values alone', () => {
    const source = [
      'export const A = () => (',
      '  <section className="card wide" aria-label="Price filter" data-state="Open Now">',
      '    <h2>Saved searches</h2>',
      "    <input placeholder={'Type a city'} title={t('explore.city')} type=\"text\" />",
      "    {busy ? 'Loading…' : t('common.done')}",
      '    {state === \'Not Ready\' ? <Icon name="arrow-left" /> : null}',
      '    <a href="https://example.com/">{t(\'common.more\')}</a> — 42 m²',
      '  </section>',
      ');',
    ].join('\n');
    expect(hardCodedLabels('a.tsx', source).map(({ where, text }) => `${where} ${text}`)).toEqual([
      'a.tsx:2 Price filter',
      'a.tsx:3 Saved searches',
      'a.tsx:4 Type a city',
      'a.tsx:5 Loading…',
    ]);
  });
});
