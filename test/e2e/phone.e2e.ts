import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import {
  accessibilityViolations,
  ADMIN,
  adminToken,
  consoleSuite,
  MAIN_PAGES,
  newAccount,
  openPage,
  sidewaysOverflow,
  signIn,
} from './harness.js';

/** A phone (an iPhone 12 to 15's CSS size) and a laptop. */
const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 900 };
const VIEWPORTS = [PHONE, LAPTOP];

/** E2E_SCREENSHOTS=<dir> keeps a full-page picture of every page checked here, to look at. */
const SCREENSHOTS = process.env.E2E_SCREENSHOTS;

/**
 * Waits for the page at `path` to show its heading and finish loading, then returns what is wrong with it at this
 * width: sideways scrolling and axe-core's serious or critical violations.
 */
async function checkPage(page: Page, url: string, heading: string | RegExp, label: string): Promise<string[]> {
  await page.goto(url);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  // Loaded: no "Loading…" placeholder left (the live notification stream keeps the network busy for good).
  await expect.poll(() => page.locator('[data-loading]').count(), { message: `${label} still loading` }).toBe(0);
  if (SCREENSHOTS) {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.screenshot({ path: path.join(SCREENSHOTS, `${label.replace(/[^a-z0-9]+/gi, '-')}.png`), fullPage: true });
  }
  return [
    ...(await sidewaysOverflow(page)).map((line) => `${label}: ${line}`),
    ...(await accessibilityViolations(page)).map((line) => `${label}: ${line}`),
  ];
}

describe('the console on a phone and on a laptop', () => {
  const suite = consoleSuite({ demo: true });

  /** A listing waiting for approval (the moderation page of one listing) and one published (Explore's listing page). */
  async function listings(): Promise<{ pending: number; published: number }> {
    const owner = await newAccount(suite.server, 'owner', 'owner');
    const pending = await suite.server.api<{ id: number }>(
      'POST',
      '/properties',
      {
        title: 'Harbour loft with a very long title that has to wrap on a narrow screen',
        price: 410000,
        latitude: 36.72,
        longitude: -4.42,
      },
      owner.token,
    );
    const found = await suite.server.api<{ properties: { id: number }[] }>(
      'GET',
      '/properties/search?per_page=1',
      undefined,
      await adminToken(suite.server),
    );
    return { pending: pending.id, published: found.properties[0]!.id };
  }

  // Two dozen pages each, with axe on every one: longer than one flow on a busy machine.
  it.each(VIEWPORTS)(
    'every administrator page fits $width px without sideways scrolling and passes axe',
    { timeout: 300_000 },
    async (viewport) => {
      const { pending, published } = await listings();
      const { page, problems } = await openPage(suite.browser);
      await page.setViewportSize(viewport);
      await signIn(page, suite.server, ADMIN.email, ADMIN.password);
      const pages: [string, string | RegExp][] = [
        ...MAIN_PAGES,
        [`/moderation/${pending}`, /^Harbour loft/],
        [`/listings/${pending}/edit`, /^Edit/],
        [`/explore/${published}`, /./],
      ];
      const found: string[] = [];
      for (const [route, heading] of pages) {
        found.push(...(await checkPage(page, `${suite.server.url}/console${route}`, heading, `${viewport.width} admin ${route}`)));
      }
      expect(found).toEqual([]);
      expect(problems()).toEqual([]);
    },
  );

  it.each(VIEWPORTS)('the buyer’s and the agency’s own pages fit $width px and pass axe', { timeout: 180_000 }, async (viewport) => {
    const found: string[] = [];
    for (const [role, routes] of [
      [
        'buyer',
        [
          ['/', /^Welcome/],
          ['/explore', 'Explore'],
          ['/favorites', 'Favorites'],
          ['/profile', 'My profile'],
        ],
      ],
      [
        'agency',
        [
          ['/', /^Welcome/],
          ['/agency/agents', 'My agents'],
          ['/listings', 'My listings'],
          ['/membership', 'Membership'],
        ],
      ],
    ] as const) {
      const account = await newAccount(suite.server, role, role);
      const { page, problems } = await openPage(suite.browser);
      await page.setViewportSize(viewport);
      await signIn(page, suite.server, account.login, account.password);
      for (const [route, heading] of routes) {
        found.push(...(await checkPage(page, `${suite.server.url}/console${route}`, heading, `${viewport.width} ${role} ${route}`)));
      }
      expect(problems()).toEqual([]);
      await page.context().close();
    }
    expect(found).toEqual([]);
  });

  it('the sign-in page fits a phone', async () => {
    const { page, problems } = await openPage(suite.browser);
    await page.setViewportSize(PHONE);
    expect(await checkPage(page, `${suite.server.url}/console/login`, /Sign in/, '390 signed-out /login')).toEqual([]);
    expect(problems()).toEqual([]);
  });

  it('folds the navigation behind a menu button on a phone: it opens and closes, Escape closes it and gives focus back', async () => {
    const { page, problems } = await openPage(suite.browser);
    await page.setViewportSize(PHONE);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    const toggle = page.getByRole('button', { name: 'Menu' });
    // Folded, the navigation is out of the accessibility tree: found by its element, not its role.
    const nav = page.locator('nav.sidebar');
    const explore = nav.getByRole('link', { name: 'Explore' });

    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    const controls = (await toggle.getAttribute('aria-controls'))?.split(' ') ?? [];
    expect(controls).toContain(await nav.getAttribute('id'));
    expect(await explore.isVisible()).toBe(false);

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    await explore.waitFor();
    // Focus goes into the opened menu, at its first entry.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Home');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.keyboard.press('Escape');
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await explore.waitFor({ state: 'hidden' });
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Menu');

    // Choosing a page closes the menu.
    await toggle.click();
    expect(await nav.getAttribute('aria-label')).toBe('Main navigation');
    await nav.getByRole('link', { name: 'Moderation queue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Moderation queue' }).waitFor();
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');
    await explore.waitFor({ state: 'hidden' });

    // The button closes it too.
    await toggle.click();
    await explore.waitFor();
    await toggle.click();
    await explore.waitFor({ state: 'hidden' });
    expect(problems()).toEqual([]);
  });

  it('keeps the navigation open beside the page on a laptop, with no menu button', async () => {
    const { page } = await openPage(suite.browser);
    await page.setViewportSize(LAPTOP);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    expect(await page.getByRole('button', { name: 'Menu' }).isVisible()).toBe(false);
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Explore' }).isVisible()).toBe(true);
  });

  it('shows Explore’s map and its first results in a phone’s first screen, and its filters behind a button', async () => {
    const { page, problems } = await openPage(suite.browser);
    await page.setViewportSize(PHONE);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    await page.goto(`${suite.server.url}/console/explore`);
    await page.locator('.explore-list li').first().waitFor();
    await page.locator('.explore-map.leaflet-container').waitFor();
    const map = (await page.locator('.explore-map').boundingBox())!;
    const first = (await page.locator('.explore-list li').first().boundingBox())!;
    expect(map.y + map.height).toBeLessThanOrEqual(PHONE.height);
    expect(map.height).toBeGreaterThanOrEqual(200);
    expect(first.y).toBeLessThan(PHONE.height);

    const filters = page.getByRole('button', { name: /^Filters/ });
    const apartment = page.getByRole('checkbox', { name: /^Apartment/ });
    expect(await filters.getAttribute('aria-expanded')).toBe('false');
    expect(await apartment.isVisible()).toBe(false);
    await filters.click();
    await apartment.waitFor();
    expect(await filters.getAttribute('aria-expanded')).toBe('true');
    // No bedrooms is a studio, not "0" (the demo data has some).
    await page.getByRole('radio', { name: /^Studio \(\d+\)$/ }).waitFor();
    expect(await page.getByRole('radio', { name: /^0 \(/ }).count()).toBe(0);
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(problems()).toEqual([]);
  });

  it('fits the listing editor’s photo box to a phone, with photos in it', async () => {
    const agent = await newAccount(suite.server, 'agent', 'agent');
    const { page, problems } = await openPage(suite.browser);
    await page.setViewportSize(PHONE);
    await signIn(page, suite.server, agent.login, agent.password);
    await page.goto(`${suite.server.url}/console/listings/new`);
    await page.getByLabel('Title').fill('Loft with photos on a phone');
    const photos = await Promise.all(
      ['front.png', 'a-kitchen-photo-with-a-very-long-file-name-from-a-camera-roll.png'].map(async (name, index) => ({
        name,
        mimeType: 'image/png',
        buffer: await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 80 * index, g: 120, b: 90 } } })
          .png()
          .toBuffer(),
      })),
    );
    await page.getByLabel('Add photos').setInputFiles(photos);
    await expect.poll(() => page.locator('.listings-gallery li').count(), { timeout: 20_000 }).toBe(2);
    for (const box of ['.listings-dropzone', '.listings-gallery']) {
      const { x, width } = (await page.locator(box).boundingBox())!;
      expect(x + width, box).toBeLessThanOrEqual(PHONE.width);
    }
    expect(await sidewaysOverflow(page)).toEqual([]);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems()).toEqual([]);
  });
});
