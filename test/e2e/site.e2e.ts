import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type E2eServer, launchBrowser, startServer } from './harness.js';

/**
 * The public website in a real Chromium against a real server with the demo data (300 listings, agents and
 * agencies): axe-core on every page kind in English and Arabic at a desktop's and a phone's size, no sideways
 * scrolling on a phone, right-to-left Arabic, and the home search without JavaScript. Each page kind is found by
 * its URL (PAGE_KINDS): a kind whose page answers 404 (not on this branch yet) skips its tests, and they run as
 * soon as its routes exist. Add a kind to PAGE_KINDS; the visitor's whole flow is the todo at the end.
 */

const VIEWPORTS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
] as const;
const LANGUAGES = ['en', 'ar'] as const;
type Lang = (typeof LANGUAGES)[number];

interface PageKind {
  kind: string;
  /** The page's plain path (English), found on the server: a record's `url` for the record pages. */
  plainPath(server: E2eServer): Promise<string>;
}

/** The first record of a list of the API, by its `url`'s path. */
const firstUrlOf = async (server: E2eServer, route: string) => {
  const data = await server.api<Record<string, unknown>>('GET', route);
  const first = ((Object.values(data).find(Array.isArray) ?? []) as { url: string }[])[0];
  if (!first) throw new Error(`${route} lists nothing`);
  return new URL(first.url).pathname;
};

const PAGE_KINDS: readonly PageKind[] = [
  { kind: 'home', plainPath: async () => '/' },
  { kind: 'results', plainPath: async () => '/properties' },
  { kind: 'listing', plainPath: (server) => firstUrlOf(server, '/properties?per_page=1&featured=true') },
  { kind: 'agent', plainPath: (server) => firstUrlOf(server, '/agents?per_page=1') },
];

const localPath = (lang: Lang, plain: string) => (lang === 'en' ? plain : `/${lang}${plain}`);

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Every axe-core violation on the page, of any impact, with axe's default rules (WCAG 2 A/AA and best practices).
 * axe is put in through the DevTools protocol, which the page's CSP does not govern.
 */
async function everyViolation(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run(context: Document): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const { violations } = await axe.run(document);
    return violations.map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} at ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(', ')}`,
    );
  });
}

describe('the public website', () => {
  let server: E2eServer;
  let browser: Browser;
  /** Each kind's plain path, or null when its page is not there yet. */
  const paths = new Map<string, string | null>();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ demo: true }), launchBrowser()]);
    for (const { kind, plainPath } of PAGE_KINDS) {
      const plain = await plainPath(server);
      const status = (await fetch(`${server.url}${plain}`)).status;
      paths.set(kind, status === 404 ? null : plain);
    }
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  /** A page opened as a visitor's browser would, collecting uncaught errors and CSP refusals. */
  async function visit(
    url: string,
    options: BrowserContextOptions = {},
  ): Promise<{ page: Page; problems: string[]; close(): Promise<void> }> {
    const context = await browser.newContext({ locale: 'en-US', ...options });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text())) problems.push(`CSP: ${message.text()}`);
    });
    const response = await page.goto(url, { waitUntil: 'load' });
    expect(response?.status(), url).toBe(200);
    return { page, problems, close: () => context.close() };
  }

  for (const { kind } of PAGE_KINDS)
    for (const lang of LANGUAGES)
      for (const viewport of VIEWPORTS)
        it(`${kind} page (${lang}, ${viewport.width}×${viewport.height}): no axe violation, no sideways scrolling, its direction`, async (ctx) => {
          const plain = paths.get(kind);
          if (!plain) return ctx.skip();
          const { page, problems, close } = await visit(`${server.url}${localPath(lang, plain)}`, { viewport });
          try {
            expect(await everyViolation(page)).toEqual([]);
            const { scrollWidth, clientWidth, dir, htmlLang } = await page.evaluate(() => ({
              scrollWidth: document.documentElement.scrollWidth,
              clientWidth: document.documentElement.clientWidth,
              dir: document.documentElement.dir,
              htmlLang: document.documentElement.lang,
            }));
            expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(clientWidth);
            expect(htmlLang).toBe(lang);
            expect(dir).toBe(lang === 'ar' ? 'rtl' : 'ltr');
            expect(problems).toEqual([]);
          } finally {
            await close();
          }
        });

  it('lays Arabic out right to left: the brand on the right, the menu on the left', async () => {
    const { page, close } = await visit(`${server.url}/ar/`, { viewport: VIEWPORTS[0] });
    try {
      const brand = await page.locator('.site-header .brand').boundingBox();
      const menu = await page.locator('.site-header .menu').boundingBox();
      expect(brand!.x).toBeGreaterThan(menu!.x);
      expect(await page.evaluate(() => getComputedStyle(document.body).direction)).toBe('rtl');
    } finally {
      await close();
    }
  });

  it('submits the home search with JavaScript disabled and lands on the results', async () => {
    const { page, close } = await visit(`${server.url}/`, { javaScriptEnabled: false, viewport: VIEWPORTS[1] });
    try {
      const search = page.getByRole('search');
      await search.getByLabel('Place or keyword').fill('Miami');
      const type = search.getByLabel('Type');
      const firstType = await type.locator('option').nth(1).getAttribute('value');
      await type.selectOption(firstType!);
      await search.getByRole('button', { name: 'Search' }).click();
      await page.waitForURL((url) => url.pathname === '/properties');
      const url = new URL(page.url());
      expect(url.searchParams.get('keyword')).toBe('Miami');
      expect(url.searchParams.get('type')).toBe(firstType);
      // Once the results pages are on the branch, the search lands on one of them.
      if (paths.get('results')) expect(await page.locator('h1').count()).toBe(1);
    } finally {
      await close();
    }
  });

  // NOTE: for the lead once the results, listing and console-leads pages are merged: the same flow twice, with
  // JavaScript and with `javaScriptEnabled: false` (where "filter by map" becomes the map's bounding-box links).
  it.todo('a visitor searches, filters by the map, opens a listing and sends an enquiry, which its agent then sees in the console’s leads');
});
