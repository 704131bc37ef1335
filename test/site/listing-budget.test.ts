import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mortgageEstimate } from '../../src/site/pages/listing/mortgage.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { parsePage } from '../helpers/html.js';
import { fullListing, listingWorld, PUBLIC_URL } from './listing-fixtures.js';

/** The website's promise (issue 39): a listing page sends at most 30 KB of gzipped JavaScript before its map is in view. */
const BUDGET_BYTES = 30 * 1024;

describe('the JavaScript a listing page sends before its map is in view', () => {
  let t: TestApp;
  let slug: string;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { PUBLIC_URL });
    const world = await listingWorld(t);
    ({ slug } = await fullListing(t, world));
  });
  afterAll(() => t.close());

  /** The gzipped bytes of a script as served, and the scripts it imports statically (fetched with it). */
  async function fetchScript(url: string): Promise<{ gzipped: number; imports: string[] }> {
    const res = await t.app.inject({ method: 'GET', url, headers: { 'accept-encoding': 'gzip' } });
    expect(res.statusCode, url).toBe(200);
    const raw = res.rawPayload;
    const text = res.headers['content-encoding'] === 'gzip' ? gunzipSync(raw).toString() : raw.toString();
    // Static imports only: `import … from './<name>.js'` and `import './<name>.js'`; a dynamic import() waits for its moment.
    const imports = [...text.matchAll(/^\s*import\s+(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]/gm)].map(
      (m) => new URL(m[1]!, `http://site${url}`).pathname,
    );
    return { gzipped: raw.length, imports };
  }

  it(`is at most ${BUDGET_BYTES / 1024} KB gzipped for a listing with every island (a byte count, not a time)`, async () => {
    const page = await t.app.inject({ method: 'GET', url: `/property/${slug}` });
    const linked = parsePage(page.body)
      .root.querySelectorAll('script[type="module"]')
      .map((script) => script.getAttribute('src')!);
    expect(linked.map((src) => src.split('/').pop()).sort()).toEqual(['calculator.js', 'gallery.js', 'listing-map.js']);
    const seen = new Map<string, number>();
    const queue = [...linked];
    while (queue.length > 0) {
      const url = queue.shift()!;
      if (seen.has(url)) continue;
      const { gzipped, imports } = await fetchScript(url);
      seen.set(url, gzipped);
      queue.push(...imports);
    }
    const names = [...seen.keys()].map((url) => url.split('/').pop());
    expect(names).toContain('when-visible.js');
    expect(names).not.toContain('leaflet.js');
    const total = [...seen.values()].reduce((sum, bytes) => sum + bytes, 0);
    expect(total).toBeLessThanOrEqual(BUDGET_BYTES);
  });

  it('fetches Leaflet only from inside the map island, by a dynamic import', async () => {
    const page = parsePage((await t.app.inject({ method: 'GET', url: `/property/${slug}` })).body);
    const map = page.root.querySelector('script[src$="/listing-map.js"]')!.getAttribute('src')!;
    const source = (await t.app.inject({ method: 'GET', url: map })).body;
    expect(source).toMatch(/await import\(new URL\('\.\/leaflet\.js', import\.meta\.url\)\.href\)/);
    expect(source).toContain('whenVisible(');
    expect(page.root.querySelector('link[href$="/leaflet.css"]')).toBeNull();
  });
});

describe('the mortgage calculator', () => {
  it('works out the same figures in the page and in its island', async () => {
    const island = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/site/browser/calculator.js');
    const { mortgageEstimate: live } = (await import(pathToFileURL(island).href)) as { mortgageEstimate: typeof mortgageEstimate };
    for (const input of [
      { price: 450_000, downPercent: 20, ratePercent: 6, years: 25 },
      { price: 300_000, downPercent: 10, ratePercent: 0, years: 30 },
      { price: 1, downPercent: 100, ratePercent: 30, years: 1 },
      { price: 2_500_000, downPercent: 0, ratePercent: 3.75, years: 40 },
    ]) {
      expect(live(input)).toEqual(mortgageEstimate(input));
    }
    expect(mortgageEstimate({ price: 300_000, downPercent: 10, ratePercent: 0, years: 30 }).monthly).toBe(750);
    expect(Math.round(mortgageEstimate({ price: 450_000, downPercent: 20, ratePercent: 6, years: 25 }).monthly)).toBe(2319);
  });
});
