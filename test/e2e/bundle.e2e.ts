import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));
/**
 * The first load of /console (every page needs it; maps and charts come later, in chunks of their own): 223 KB
 * measured on 2026-12-03, the budget was 350 KB.
 */
const FIRST_LOAD_BUDGET_BYTES = 240 * 1024;
/** Explore's own code on top of the first load, the map (Leaflet) included: 47 KB measured on 2026-12-03. */
const EXPLORE_BUDGET_BYTES = 60 * 1024;

/** Every JavaScript file a first visit fetches: the entry script, what it preloads, and what those import statically. */
function firstLoadScripts(): string[] {
  const html = readFileSync(`${DIST}index.html`, 'utf8');
  return withStaticImports([...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!));
}

/** The built chunk whose name starts with `name-` (a page's own chunk). */
function chunkOf(name: string): string {
  const found = readdirSync(`${DIST}assets`).filter((file) => file.startsWith(`${name}-`) && file.endsWith('.js'));
  expect(found, name).toHaveLength(1);
  return `assets/${found[0]}`;
}

function gzippedSize(files: Iterable<string>): number {
  let sum = 0;
  for (const file of files) sum += gzipSync(readFileSync(`${DIST}${file}`), { level: 9 }).length;
  return sum;
}

/** The files given and every chunk they import statically, transitively. */
function withStaticImports(files: string[]): string[] {
  const queue = [...files];
  const seen = new Set<string>();
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    const code = readFileSync(`${DIST}${file}`, 'utf8');
    // Static imports between chunks (`import{a as b}from"./<name>.js"`), not the lazy `import("./<name>.js")`.
    for (const match of code.matchAll(/(?:^|[;\s}])import\s*(?:[\w${},\s*]+from\s*)?["']\.\/([^"']+\.js)["']/g))
      queue.push(`assets/${match[1]}`);
  }
  return [...seen];
}

describe('the console bundle (built by global-setup.ts as npm start builds it)', () => {
  it(`needs at most ${FIRST_LOAD_BUDGET_BYTES / 1024} KB of gzipped JavaScript for its first load, without Leaflet or Chart.js`, () => {
    const scripts = firstLoadScripts();
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = gzippedSize(scripts);
    console.log(`first load: ${scripts.length} scripts, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(FIRST_LOAD_BUDGET_BYTES);
    // Fingerprints of Leaflet's and Chart.js's code (the minifier drops their banners): each must be in the build,
    // in a chunk of its own, and not in the first load.
    const all = readdirSync(`${DIST}assets`).filter((file) => file.endsWith('.js'));
    for (const fingerprint of ['_leaflet_id', 'Canvas is already in use']) {
      const holders = all.filter((file) => readFileSync(`${DIST}assets/${file}`, 'utf8').includes(fingerprint));
      expect(holders, fingerprint).not.toEqual([]);
      expect(
        scripts.filter((file) => holders.includes(file.slice('assets/'.length))),
        fingerprint,
      ).toEqual([]);
    }
  });

  it(`loads Explore with at most ${EXPLORE_BUDGET_BYTES / 1024} KB more: its page and its map, without Chart.js or the listing editor`, () => {
    const first = new Set(firstLoadScripts());
    const explore = withStaticImports([chunkOf('ExplorePage'), chunkOf('ClusterMap')]).filter((file) => !first.has(file));
    const gzipped = gzippedSize(explore);
    console.log(`Explore: ${explore.length} more scripts, ${(gzipped / 1024).toFixed(1)} KB gzipped`);
    expect(gzipped).toBeLessThanOrEqual(EXPLORE_BUDGET_BYTES);
    const code = explore.map((file) => readFileSync(`${DIST}${file}`, 'utf8')).join('\n');
    // Leaflet is there (the map shows at once); Chart.js and the editor's code are not.
    expect(code).toContain('_leaflet_id');
    expect(code).not.toContain('Canvas is already in use');
    expect(explore.some((file) => file.startsWith('assets/ListingEditorPage-'))).toBe(false);
  });
});
