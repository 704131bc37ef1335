import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminToken, type E2eServer, launchBrowser, newAccount, openPage, signIn, startServer } from './harness.js';

/**
 * The public website in a real Chromium against a real server with the demo data (300 listings, agents and
 * agencies): axe-core on every page kind in English and Arabic at a desktop's and a phone's size, no sideways
 * scrolling on a phone, right-to-left Arabic, the home search without JavaScript, and a visitor's whole way from
 * a search to an enquiry that the agent reads in the console, with JavaScript and without.
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
  /** Each kind's plain path. */
  const paths = new Map<string, string>();

  beforeAll(async () => {
    [server, browser] = await Promise.all([startServer({ demo: true }), launchBrowser()]);
    for (const { kind, plainPath } of PAGE_KINDS) paths.set(kind, await plainPath(server));
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
        it(`${kind} page (${lang}, ${viewport.width}×${viewport.height}): no axe violation, no sideways scrolling, its direction`, async () => {
          const { page, problems, close } = await visit(`${server.url}${localPath(lang, paths.get(kind)!)}`, { viewport });
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
      // A keyword naming a place lands on that place's page, with the type kept.
      await page.waitForURL((url) => url.pathname.startsWith('/properties/') && url.pathname.endsWith('/city/miami'));
      expect(await page.locator('h1').textContent()).toContain('Miami');
      expect(await page.locator('.card').count()).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  describe.each([
    { javaScript: true, label: 'with JavaScript: the map filters the list' },
    { javaScript: false, label: 'without JavaScript: links and forms only' },
  ])('a visitor searches, opens a listing and sends an enquiry, which its agent reads in the console ($label)', ({ javaScript }) => {
    it('works end to end', async () => {
      // An agent with an account and a published listing of theirs, with a word no demo listing has.
      const word = `Harbourview${javaScript ? 'Js' : 'Plain'}${Date.now().toString(36)}`;
      const agent = await newAccount(server, 'agent', javaScript ? 'marina' : 'oliver');
      const [agentRecord] = (await server.api<{ agents: { id: number }[] }>('GET', `/agents/search?keyword=${agent.login}`)).agents;
      const admin = await adminToken(server);
      await server.api(
        'POST',
        '/properties',
        {
          title: `${word} loft with a terrace`,
          price: 640000,
          currency: 'USD',
          city: 'Miami',
          latitude: 25.7743,
          longitude: -80.1937,
          agent_display: 'agent_info',
          agent_ids: [agentRecord!.id],
        },
        admin,
      );
      const sender = `Visitor ${word}`;

      const { page, problems, close } = await visit(`${server.url}/`, { javaScriptEnabled: javaScript, viewport: VIEWPORTS[1] });
      try {
        await page.getByRole('search').getByLabel('Place or keyword').fill(word);
        await page.getByRole('search').getByRole('button', { name: 'Search' }).click();
        await page.waitForURL((url) => url.pathname === '/properties' && url.searchParams.get('keyword') === word);
        const result = page.locator('.card').filter({ hasText: word });
        await expect.poll(() => result.count()).toBe(1);

        if (javaScript) {
          // The map draws the search's clusters; moving it offers "Search this area", which filters by its box.
          const map = page.locator('.results-map .leaflet-container');
          await map.scrollIntoViewIfNeeded();
          await page.locator('.leaflet-control-zoom-in').click();
          await page.getByRole('button', { name: 'Search this area' }).click();
          await page.waitForURL((url) => url.searchParams.has('ne_lat') && url.searchParams.has('sw_lng'));
          await expect.poll(() => page.locator('.card').filter({ hasText: word }).count()).toBe(1);
        }

        await page.locator('.card').filter({ hasText: word }).getByRole('link').first().click();
        await page.waitForURL((url) => url.pathname.startsWith('/property/'));
        const form = page.locator('form').filter({ has: page.getByRole('button', { name: 'Send my message' }) });
        await form.getByLabel('Your name').fill(sender);
        await form.getByLabel('Your e-mail').fill('visitor@example.com');
        await form.getByRole('button', { name: 'Send my message' }).click();
        await page.getByText('Thank you: your message was sent.').waitFor();
        expect(problems).toEqual([]);
      } finally {
        await close();
      }

      // The agent signs in to the console and finds the enquiry among their leads.
      const consolePage = await openPage(browser);
      try {
        await signIn(consolePage.page, server, agent.login, agent.password);
        await consolePage.page.goto(`${server.url}/console/leads`);
        await consolePage.page.getByText(sender).waitFor();
        expect(consolePage.problems()).toEqual([]);
      } finally {
        await consolePage.page.context().close();
      }
    });
  });
});
