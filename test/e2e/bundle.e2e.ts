import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';

const DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));
/** The budget for the first load of /console: maps and charts come later, in chunks of their own. */
const FIRST_LOAD_BUDGET_BYTES = 350 * 1024;

/** Every JavaScript file a first visit fetches: the entry script, what it preloads, and what those import statically. */
function firstLoadScripts(): string[] {
  const html = readFileSync(`${DIST}index.html`, 'utf8');
  const queue = [...html.matchAll(/(?:src|href)="\/console\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
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
    const gzipped = scripts.reduce((sum, file) => sum + gzipSync(readFileSync(`${DIST}${file}`), { level: 9 }).length, 0);
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
});
