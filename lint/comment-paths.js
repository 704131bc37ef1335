// An ESLint rule: a file named in a comment exists. Comments that point at a moved or deleted module mislead the
// next reader more than no comment (issue 42 found 45 of them), and nothing else notices when a file moves.
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.dirname(path.dirname(new URL(import.meta.url).pathname));
/** Directories never searched: installed packages, build output, git's own. */
const SKIPPED_DIRS = new Set(['node_modules', 'dist', '.git', 'coverage', 'data']);
/**
 * A path-like name: segments of word characters, dots and dashes, ending in a source or document extension, not
 * part of a URL, a package name (`@scope/name`) or a longer path. `<name>.js` (an example) does not match.
 */
const PATH_LIKE = /(?<![\w@/.:<>-])((?:\.{1,2}\/)*(?:[\w.-]+\/)*[\w-]+(?:\.[\w-]+)*\.(?:tsx?|mjs|js|md|json|sql|css))(?![\w/])/g;
/** Names that are made rather than kept (build output, benchmark results), or lie outside the repository. */
const NOT_KEPT = /^(?:dist|bench\/results|\.\.\/shared)\//;
/** Library names that look like files. */
const LIBRARIES = new Set(['chart.js', 'node.js']);

let known;
/** Every file of the checkout, as paths from its root. */
function knownFiles() {
  if (known) return known;
  known = new Set();
  const walk = (dir) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) walk(path.posix.join(dir, entry.name));
      } else known.add(path.posix.join(dir, entry.name));
    }
  };
  walk('.');
  return known;
}

/** Whether `name`, met in a comment of `file` (a path from the root), names a file of the checkout. */
export function resolves(name, file, files = knownFiles()) {
  if (NOT_KEPT.test(name) || LIBRARIES.has(name.toLowerCase())) return true;
  // Imports name a TypeScript module by its compiled `.js`.
  const spellings = name.endsWith('.js') ? [name, `${name.slice(0, -3)}.ts`, `${name.slice(0, -3)}.tsx`] : [name];
  for (const spelling of spellings) {
    const fromFile = path.posix.normalize(path.posix.join(path.posix.dirname(file), spelling));
    if (files.has(spelling) || files.has(fromFile)) return true;
    // A path given from some directory up the tree (`engine/postings.ts`, `db/database.ts`): a tail of a real path.
    if (!spelling.startsWith('.')) for (const known of files) if (known.endsWith(`/${spelling}`)) return true;
  }
  return false;
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'A file named in a comment exists (a moved file leaves comments pointing nowhere).' },
    schema: [],
    messages: { missing: 'The comment names {{name}}, which is not a file of this checkout: name where it went, or drop it.' },
  },
  create(context) {
    const file = path.relative(ROOT, context.filename).split(path.sep).join('/');
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          for (const match of comment.value.matchAll(PATH_LIKE)) {
            const name = match[1];
            if (resolves(name, file)) continue;
            context.report({ loc: comment.loc, messageId: 'missing', data: { name } });
          }
        }
      },
    };
  },
};
