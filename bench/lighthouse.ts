/**
 * `npm run lighthouse` (outside `npm test`): Lighthouse, mobile, on the website's pages as a visitor's phone gets
 * them from a real server on the 100,000-listing dataset of the benchmarks (prepare-data.ts), with map tiles from a
 * local stub (these machines reach no tile server). Prints Accessibility, Best Practices, SEO and Performance per
 * page and exits 1 when a page scores below 100, 100, 100 and 95. Pages are found by their URLs: a kind whose
 * page answers 404 (not on this branch yet) is skipped with a line saying so. The console's sign-in page and its
 * Explore page (signed in as an administrator) are kinds of their own, held to the issue's Performance targets
 * (95 and 80) and not to SEO (a staff console is no page for search engines).
 *
 * Environment: CHROME_PATH (default /usr/bin/chromium, Debian's), LIGHTHOUSE_JSON (the reports, default
 * bench/results/lighthouse/), LIGHTHOUSE_PAGES (comma-separated page kinds to run: home,results,listing,agent,
 * console-login,console-explore), LIGHTHOUSE_RUNS (runs per page, default 1: the scores printed are the medians),
 * LIGHTHOUSE_CONSOLE_DIR (the console build to serve, default console/dist, built first when stale).
 */
import { execFileSync } from 'node:child_process';
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
const PAGE_KINDS = ['home', 'results', 'listing', 'agent', 'console-login', 'console-explore'] as const;
type PageKind = (typeof PAGE_KINDS)[number];
const SITE_LEAST: Partial<Record<Category, number>> = { accessibility: 100, 'best-practices': 100, seo: 100, performance: 95 };
/** The least score of each category that counts for a kind; a category left out is printed but not held. */
const LEAST: Record<PageKind, Partial<Record<Category, number>>> = {
  home: SITE_LEAST,
  results: SITE_LEAST,
  listing: SITE_LEAST,
  agent: SITE_LEAST,
  'console-login': { accessibility: 100, 'best-practices': 100, performance: 95 },
  'console-explore': { accessibility: 100, 'best-practices': 100, performance: 80 },
};
/** The metrics behind Performance, printed as medians beside the scores. */
const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;
const ADMIN = { email: 'lighthouse-admin@example.com', password: 'lighthouse password 1' };
const LABEL: Record<Category, string> = {
  accessibility: 'Accessibility',
  'best-practices': 'Best Practices',
  seo: 'SEO',
  performance: 'Performance',
};
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
  const unknown = kinds.filter((kind) => !PAGE_KINDS.includes(kind));
  if (unknown.length) throw new Error(`LIGHTHOUSE_PAGES: unknown kinds ${unknown.join(', ')} (known: ${PAGE_KINDS.join(', ')})`);
  const runs = Number(process.env.LIGHTHOUSE_RUNS || 1);
  if (!Number.isInteger(runs) || runs < 1) throw new Error('LIGHTHOUSE_RUNS must be a whole number of at least 1');
  const consoleDir = process.env.LIGHTHOUSE_CONSOLE_DIR
    ? path.resolve(process.env.LIGHTHOUSE_CONSOLE_DIR)
    : path.join(ROOT, 'console/dist');
  if (!process.env.LIGHTHOUSE_CONSOLE_DIR && kinds.some((kind) => kind.startsWith('console-'))) {
    execFileSync(process.execPath, [path.join(ROOT, 'console/build-if-stale.mjs')], { stdio: 'inherit' });
  }

  progress('preparing the 100,000-listing dataset');
  const data = await prepareData(path.join(tmp, 'realty.db'), path.join(tmp, 'uploads'));
  progress(`${data.listings.toLocaleString('en-US')} listings written in ${data.listingSeconds.toFixed(1)} s`);

  const tiles = await startTileStub();
  cleanups.add(() => new Promise((resolve) => tiles.server.close(resolve)));
  const base = await startServer(tmp, tiles.url, consoleDir);
  const pages = await pageUrls(base, kinds);

  const chrome = await launch({ chromePath: process.env.CHROME_PATH || '/usr/bin/chromium', chromeFlags: CHROME_FLAGS });
  cleanups.add(() => chrome.kill());
  fs.mkdirSync(reportsDir, { recursive: true });

  const rows: { kind: PageKind; scores: Record<Category, number>; performances: number[]; metrics: string; failures: string[] }[] = [];
  for (const page of pages) {
    if ('skipped' in page) continue;
    const reports: LighthouseResult[] = [];
    for (let run = 1; run <= runs; run++) {
      progress(`${page.kind}: ${page.url}${runs > 1 ? ` (run ${run}/${runs})` : ''}`);
      // A signed-in page gets a fresh session each run: the console renews it once on load, which spends the
      // refresh token (a second load with the same cookie would be a reuse, and sign the session out).
      const extraHeaders = page.signedIn ? { cookie: await signInCookie(base) } : undefined;
      const result = await lighthouse(page.url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
        ...(extraHeaders ? { extraHeaders } : {}),
      });
      if (!result) throw new Error(`lighthouse gave no result for ${page.url}`);
      const { lhr } = result;
      if (lhr.runtimeError) throw new Error(`${page.url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      if (page.signedIn && new URL(lhr.finalDisplayedUrl).pathname !== new URL(page.url).pathname) {
        throw new Error(`${page.url} ended at ${lhr.finalDisplayedUrl}: the session did not hold`);
      }
      fs.writeFileSync(path.join(reportsDir, `${page.kind}${runs > 1 ? `-${run}` : ''}.json`), JSON.stringify(lhr));
      reports.push(lhr);
    }
    const score = (lhr: LighthouseResult, c: Category) => Math.round((lhr.categories[c]?.score ?? 0) * 100);
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(reports.map((lhr) => score(lhr, c)))])) as Record<Category, number>;
    const metrics = METRICS.map(([id, name]) => {
      const value = median(reports.map((lhr) => lhr.audits[id]?.numericValue ?? Number.NaN));
      return `${name} ${id === 'cumulative-layout-shift' ? value.toFixed(3) : `${Math.round(value)} ms`}`;
    }).join(', ');
    // What cost points: every audit of a category that scored below 1 in the last run, for the reader to fix.
    const last = reports.at(-1)!;
    const failures = CATEGORIES.flatMap((c) =>
      (last.categories[c]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && (last.audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => `${LABEL[c]}: ${ref.id} (${last.audits[ref.id]!.displayValue || last.audits[ref.id]!.score})`),
    );
    rows.push({ kind: page.kind, scores, performances: reports.map((lhr) => score(lhr, 'performance')), metrics, failures });
  }

  console.log(
    `\nLighthouse ${lighthouseVersion()}, mobile, ${data.listings.toLocaleString('en-US')} listings, ${os.availableParallelism()} cores` +
      `${runs > 1 ? `, medians of ${runs} runs` : ''}\n`,
  );
  console.log(['page'.padEnd(16), ...CATEGORIES.map((c) => LABEL[c].padStart(15)), '  result'].join(''));
  let failed = false;
  for (const row of rows) {
    const below = CATEGORIES.filter((c) => row.scores[c] < (LEAST[row.kind][c] ?? 0));
    failed ||= below.length > 0;
    console.log(
      [row.kind.padEnd(16), ...CATEGORIES.map((c) => String(row.scores[c]).padStart(15)), below.length ? '  BELOW' : '  ok'].join(''),
    );
  }
  for (const row of rows) console.log(`  ${row.kind}: Performance ${row.performances.join(', ')}; ${row.metrics}`);
  for (const page of pages) if ('skipped' in page) console.log(`${page.kind}: skipped — ${page.skipped}`);
  for (const row of rows) for (const failure of row.failures) console.log(`  ${row.kind} ${failure}`);
  const least = (kind: PageKind) => CATEGORIES.filter((c) => LEAST[kind][c] !== undefined).map((c) => `${LABEL[c]} ${LEAST[kind][c]}`);
  console.log(`\nleast: ${[...new Set(kinds.map((kind) => `${kind}: ${least(kind).join(', ')}`))].join('; ')}; reports in ${reportsDir}`);
  return failed ? 1 : 0;
}

type LighthouseResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** The console's session cookie, as its sign-in page gets it: the administrator signed in in cookie mode. */
async function signInCookie(base: string): Promise<string> {
  const response = await fetch(`${base}/realty-api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: ADMIN.email, password: ADMIN.password, session: 'cookie' }),
  });
  const cookie = response.headers.get('set-cookie');
  if (!response.ok || !cookie) throw new Error(`the sign-in answered ${response.status} without a cookie: ${await response.text()}`);
  return cookie.split(';')[0]!;
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

async function startServer(tmp: string, tileUrl: string, consoleDir: string): Promise<string> {
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
    CONSOLE_DIR: consoleDir,
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
  });
  await waitForOk(child, `${base}/ready`, 120_000);
  return base;
}

/** Each kind's page on this dataset, or why it is skipped. */
async function pageUrls(
  base: string,
  kinds: readonly PageKind[],
): Promise<({ kind: PageKind; url: string; signedIn?: boolean } | { kind: PageKind; skipped: string })[]> {
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
    'console-login': async () => `${base}/console/login`,
    'console-explore': async () => `${base}/console/explore`,
  };
  const pages: ({ kind: PageKind; url: string; signedIn?: boolean } | { kind: PageKind; skipped: string })[] = [];
  for (const kind of kinds) {
    const url = await candidates[kind]();
    if (!url) {
      pages.push({ kind, skipped: 'the dataset has no such record' });
      continue;
    }
    const status = (await fetch(url)).status;
    pages.push(
      status === 404
        ? { kind, skipped: `${new URL(url).pathname} answers 404: the page is not on this branch yet` }
        : { kind, url, signedIn: kind === 'console-explore' },
    );
  }
  return pages;
}

function lighthouseVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(ROOT, 'node_modules/lighthouse/package.json'), 'utf8')) as { version: string }).version;
}
