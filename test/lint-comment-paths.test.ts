import { Linter } from 'eslint';
import { describe, expect, it } from 'vitest';
import commentPaths, { resolves } from '../lint/comment-paths.js';

/** The lint rule that files named in comments exist (lint/comment-paths.js), run on planted sources. */
function problems(code: string, filename = 'src/modules/search/planted.ts'): string[] {
  const linter = new Linter({ configType: 'flat' });
  const messages = linter.verify(
    code,
    [{ files: ['**/*.ts'], plugins: { local: { rules: { 'comment-paths': commentPaths } } }, rules: { 'local/comment-paths': 'error' } }],
    filename,
  );
  return messages.map((message) => message.message);
}

describe('lint: files named in comments exist', () => {
  it('reports a comment naming a file that moved away, with the name', () => {
    expect(problems('// Built by db/dialect/term-triggers.ts.\nexport {};')).toEqual([
      'The comment names db/dialect/term-triggers.ts, which is not a file of this checkout: name where it went, or drop it.',
    ]);
    expect(problems('/** See ./no-such-module.js. */\nexport {};')).toHaveLength(1);
  });

  it('takes a path from the file, from the root or from a directory up the tree, and `.js` for `.ts`', () => {
    expect(resolves('db/dialect/ddl/term-triggers.ts', 'src/modules/search/planted.ts')).toBe(true);
    expect(resolves('./search.service.js', 'src/modules/search/planted.ts')).toBe(true);
    expect(resolves('src/lib/paging.ts', 'test/planted.test.ts')).toBe(true);
    expect(resolves('engine/postings.js', 'src/modules/search/planted.ts')).toBe(true);
    expect(resolves('./postings.js', 'src/modules/search/planted.ts')).toBe(false);
    expect(problems('// engine/postings.ts, lib/paging.ts and docs/api.md; see https://example.test/x.js\nexport {};')).toEqual([]);
  });

  it('lets examples, build output and library names be', () => {
    expect(problems('// `import "./<name>.js"`, dist/main.js, bench/results/latest.json, Chart.js\nexport {};')).toEqual([]);
  });
});
