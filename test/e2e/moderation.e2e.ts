import { describe, expect, it } from 'vitest';
import { accessibilityViolations, ADMIN, consoleSuite, MAIN_PAGES, newAccount, openPage, signIn } from './harness.js';

describe('moderation and the administrators’ pages', () => {
  const suite = consoleSuite({ demo: true });

  it('an administrator approves a pending listing from the queue, and it appears in Explore', async () => {
    const owner = await newAccount(suite.server, 'owner', 'owner');
    const title = 'Zanzibar lighthouse keeper’s cottage';
    await suite.server.api('POST', '/properties', { title, price: 310000, latitude: -6.16, longitude: 39.19 }, owner.token);

    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });

    await nav.getByRole('link', { name: 'Explore' }).click();
    await page.getByRole('heading', { level: 1, name: 'Explore' }).waitFor();
    await page.getByRole('searchbox', { name: 'Keyword' }).fill('Zanzibar lighthouse');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Listings found: 0' }).waitFor();

    await nav.getByRole('link', { name: 'Moderation queue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Moderation queue' }).waitFor();
    const row = page.getByRole('row', { name: new RegExp(title) });
    // The review shows every field (the empty ones as such) and the map with the pin, before the decision.
    await row.getByRole('link', { name: 'View', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Details' }).waitFor();
    expect(await page.getByText('Not given').count()).toBeGreaterThan(5);
    await page.getByRole('region', { name: 'On the map' }).locator('.listing-pin').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'Back to the moderation queue' }).click();
    await page.getByRole('heading', { level: 1, name: 'Moderation queue' }).waitFor();
    await row.getByRole('button', { name: 'Approve', exact: true }).click();
    await page
      .getByRole('status')
      .filter({ hasText: `Approved “${title}”.` })
      .waitFor();
    await expect.poll(() => row.count()).toBe(0);
    expect(await accessibilityViolations(page)).toEqual([]);

    await nav.getByRole('link', { name: 'Explore' }).click();
    await page.getByRole('searchbox', { name: 'Keyword' }).fill('Zanzibar lighthouse');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('status').filter({ hasText: 'Listings found: 1' }).waitFor();
    await page.getByRole('link', { name: title }).click();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(problems()).toEqual([]);
  });

  it('shows clusters and facets on Explore', async () => {
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    await page.goto(`${suite.server.url}/console/explore`);
    await page
      .getByRole('button', { name: /listings here/ })
      .first()
      .waitFor();
    await page.getByRole('checkbox', { name: /^Apartment/ }).waitFor();
    expect(problems()).toEqual([]);
  });

  it('opens a listing from Explore at once, leaving no live Explore page behind while its code arrives', async () => {
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    // The listing page's code is held back, as on a slow network: a stale Explore page left working meanwhile
    // (its map settling and replacing the address) sent the user back to Explore.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/ListingPage-[^/]*\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`${suite.server.url}/console/explore`);
    const first = page.locator('.explore-list a').first();
    const title = (await first.textContent()) ?? '';
    await first.click();
    await page.getByRole('heading', { level: 1, name: 'Explore' }).waitFor({ state: 'detached' });
    await expect.poll(() => page.locator('.explore-map').count()).toBe(0);
    release();
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/console\/explore\/\d+$/);
    expect(problems()).toEqual([]);
  });

  // Twenty pages each: longer than one flow on a busy machine.
  it.each(['en', 'ar'])('every main page passes axe (%s)', { timeout: 180_000 }, async (language) => {
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    if (language === 'ar') await page.getByLabel('Language').selectOption('ar');
    for (const [path, heading] of MAIN_PAGES) {
      await page.goto(`${suite.server.url}/console${path}`);
      if (language === 'en') await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      else await page.locator('h1').first().waitFor();
      // Loaded: no "Loading…" placeholder left (the live notification stream keeps the network busy for good).
      await expect.poll(() => page.locator('[data-loading]').count(), { message: `${language} ${path} still loading` }).toBe(0);
      expect(await accessibilityViolations(page), `${language} ${path}`).toEqual([]);
    }
    expect(problems()).toEqual([]);
  });

  it('refuses a buyer on the administrators’ pages with the 403 page, and the API refuses the data', async () => {
    const buyer = await newAccount(suite.server, 'buyer', 'buyer');
    const { page } = await openPage(suite.browser);
    await signIn(page, suite.server, buyer.login, buyer.password);
    const requests: string[] = [];
    page.on('response', (response) => {
      if (response.url().includes('/realty-api/v1/') && response.status() === 200) requests.push(new URL(response.url()).pathname);
    });
    for (const path of [
      '/moderation',
      '/users',
      '/dashboard',
      '/taxonomy',
      '/invoices',
      '/deliveries',
      '/broadcast',
      '/redirects',
      '/imports',
    ]) {
      await page.goto(`${suite.server.url}/console${path}`);
      await page.getByRole('heading', { level: 1, name: 'Not allowed (403)' }).waitFor();
    }
    expect(requests.filter((path) => /\/(stats|users$|notifications\/deliveries|redirects|imports)/.test(path))).toEqual([]);
    await expect(suite.server.api('GET', '/stats/listings', undefined, buyer.token)).rejects.toThrow(/403/);
    await expect(suite.server.api('GET', '/redirects', undefined, buyer.token)).rejects.toThrow(/403/);
    expect(await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Moderation queue' }).count()).toBe(0);
  });
});
