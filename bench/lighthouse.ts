/**
 * `npm run lighthouse` (outside `npm test`): Lighthouse, mobile, on the website's pages as a visitor's phone gets
 * them from a real server on the 100,000-listing dataset of the benchmarks (prepare-data.ts), with map tiles from a
 * local stub (these machines reach no tile server). Prints Accessibility, Best Practices, SEO and Performance per
 * page and exits 1 when a page scores below 100, 100, 100 and 95. Pages are found by their URLs: a kind whose
 * page answers 404 (not on this branch yet) is skipped with a line saying so.
 *
 * Environment: CHROME_PATH (default /usr/bin/chromium, Debian's), LIGHTHOUSE_JSON (the reports, default
 * bench/results/lighthouse/), LIGHTHOUSE_PAGES (comma-separated page kinds to run: home,results,listing,agent).
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';
import sharp from 'sharp';
import { freePort, waitForOk } from './children.js';
import { Cleanups, progress, startChild } from './harness.js';
import { prepareData } from './prepare-data.js';

const ROOT = path.resolve(import.meta.dirname, '..');
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
];
const CATEGORIES = ['accessibility', 'best-practices', 'seo', 'performance'] as const;
type Category = (typeof CATEGORIES)[number];
const LEAST: Record<Category, number> = { accessibility: 100, 'best-practices': 100, seo: 100, performance: 95 };
const LABEL: Record<Category, string> = {
  accessibility: 'Accessibility',
  'best-practices': 'Best Practices',
  seo: 'SEO',
  performance: 'Performance',
};
const PAGE_KINDS = ['home', 'results', 'listing', 'agent'] as const;
type PageKind = (typeof PAGE_KINDS)[number];

const cleanups = new Cleanups('lighthouse');
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void cleanups.run().finally(() => process.exit(130)));

try {
  process.exitCode = await main();
} catch (error) {
  console.error('lighthouse failed:', error);
  process.exitCode = 1;
} finally {
  await cleanups.run();
}

async function main(): Promise<number> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'realty-lighthouse-'));
  cleanups.add(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const reportsDir = path.resolve(process.env.LIGHTHOUSE_JSON || path.join(ROOT, 'bench/results/lighthouse'));
  const kinds = (process.env.LIGHTHOUSE_PAGES || PAGE_KINDS.join(',')).split(',').map((kind) => kind.trim()) as PageKind[];

  progress('preparing the 100,000-listing dataset');
  const data = await prepareData(path.join(tmp, 'realty.db'), path.join(tmp, 'uploads'));
  progress(`${data.listings.toLocaleString('en-US')} listings written in ${data.listingSeconds.toFixed(1)} s`);

  const tiles = await startTileStub();
  cleanups.add(() => new Promise((resolve) => tiles.server.close(resolve)));
  const base = await startServer(tmp, tiles.url);
  const pages = await pageUrls(base, kinds);

  const chrome = await launch({ chromePath: process.env.CHROME_PATH || '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  cleanups.add(() => chrome.kill());
  fs.mkdirSync(reportsDir, { recursive: true });

  const rows: { kind: string; url: string; scores: Record<Category, number>; failures: string[] }[] = [];
  for (const page of pages) {
    if ('skipped' in page) continue;
    progress(`${page.kind}: ${page.url}`);
    const result = await lighthouse(page.url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: [...CATEGORIES] });
    if (!result) throw new Error(`lighthouse gave no result for ${page.url}`);
    const { lhr } = result;
    if (lhr.runtimeError) throw new Error(`${page.url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
    fs.writeFileSync(path.join(reportsDir, `${page.kind}.json`), JSON.stringify(lhr));
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, Math.round((lhr.categories[c]?.score ?? 0) * 100)])) as Record<
      Category,
      number
    >;
    // What cost points: every audit of a category that scored below 1, for the reader to fix.
    const failures = CATEGORIES.flatMap((c) =>
      (lhr.categories[c]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${LABEL[c]}: ${ref.id} (${lhr.audits[ref.id]!.displayValue || lhr.audits[ref.id]!.score})`),
    );
    rows.push({ kind: page.kind, url: page.url, scores, failures });
  }

  console.log(
    `\nLighthouse ${lighthouseVersion()}, mobile, ${data.listings.toLocaleString('en-US')} listings, ${os.availableParallelism()} cores\n`,
  );
  console.log(['page'.padEnd(10), ...CATEGORIES.map((c) => LABEL[c].padStart(15)), '  result'].join(''));
  let failed = false;
  for (const row of rows) {
    const below = CATEGORIES.filter((c) => row.scores[c] < LEAST[c]);
    failed ||= below.length > 0;
    console.log(
      [row.kind.padEnd(10), ...CATEGORIES.map((c) => String(row.scores[c]).padStart(15)), below.length ? '  BELOW' : '  ok'].join(''),
    );
  }
  for (const page of pages) if ('skipped' in page) console.log(`${page.kind}: skipped — ${page.skipped}`);
  for (const row of rows) for (const failure of row.failures) console.log(`  ${row.kind} ${failure}`);
  console.log(`\nleast: ${CATEGORIES.map((c) => `${LABEL[c]} ${LEAST[c]}`).join(', ')}; reports in ${reportsDir}`);
  return failed ? 1 : 0;
}

/** A map-tile server on 127.0.0.1: every `/{z}/{x}/{y}.png` is the same plain 256 × 256 PNG. */
async function startTileStub(): Promise<{ server: http.Server; url: string }> {
  const png = await sharp({ create: { width: 256, height: 256, channels: 3, background: '#e8eef2' } })
    .png()
    .toBuffer();
  const server = http.createServer((request, response) => {
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) return void response.writeHead(404).end();
    response
      .writeHead(200, { 'content-type': 'image/png', 'cache-control': 'public, max-age=86400', 'content-length': png.length })
      .end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/{z}/{x}/{y}.png` };
}

async function startServer(tmp: string, tileUrl: string): Promise<string> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  // In the temporary directory: main.ts reads ./.env, which must not change what is measured.
  const child = startChild(cleanups, [path.join(ROOT, 'dist/main.js'), 'serve'], tmp, {
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: base,
    DATABASE_URL: `sqlite:${path.join(tmp, 'realty.db')}`,
    UPLOAD_DIR: path.join(tmp, 'uploads'),
    DATA_DIR: tmp,
    SEED_DEMO: 'false',
    RATE_LIMIT_ENABLED: 'false',
    LOG_LEVEL: 'warn',
    CONSOLE_TILE_URL: tileUrl,
  });
  await waitForOk(child, `${base}/ready`, 120_000);
  return base;
}

/** Each kind's page on this dataset, or why it is skipped. */
async function pageUrls(
  base: string,
  kinds: readonly PageKind[],
): Promise<({ kind: PageKind; url: string } | { kind: PageKind; skipped: string })[]> {
  // A list's items sit under its plural key (docs/api.md 0.2).
  const first = async (route: string) => {
    const { data } = (await (await fetch(`${base}/realty-api/v1${route}`)).json()) as { data: Record<string, unknown> };
    return ((Object.values(data).find(Array.isArray) ?? []) as { url: string }[])[0]?.url;
  };
  const candidates: Record<PageKind, () => Promise<string | undefined>> = {
    home: async () => `${base}/`,
    results: async () => `${base}/properties`,
    listing: () => first('/properties?per_page=1&featured=true'),
    agent: () => first('/agents?per_page=1'),
  };
  const pages: ({ kind: PageKind; url: string } | { kind: PageKind; skipped: string })[] = [];
  for (const kind of kinds) {
    const url = await candidates[kind]();
    if (!url) {
      pages.push({ kind, skipped: 'the dataset has no such record' });
      continue;
    }
    const status = (await fetch(url)).status;
    pages.push(
      status === 404 ? { kind, skipped: `${new URL(url).pathname} answers 404: the page is not on this branch yet` } : { kind, url },
    );
  }
  return pages;
}

function lighthouseVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }).version;
}
