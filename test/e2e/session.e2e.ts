import { describe, expect, it } from 'vitest';
import { accessibilityViolations, ADMIN, consoleSuite, openPage, signIn } from './harness.js';

describe('signing in to the console', () => {
  const suite = consoleSuite();

  it('keeps the session across a reload without any credential page script can read, and ends it on sign-out', async () => {
    const { page, problems } = await openPage(suite.browser);
    await page.goto(`${suite.server.url}/console/`);
    await page.waitForURL('**/console/login**');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByLabel('E-mail or username').fill(ADMIN.email);
    await page.getByLabel('Password').fill('a wrong password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBeTruthy();

    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    expect(await accessibilityViolations(page)).toEqual([]);
    const stored = await page.evaluate(() => ({
      cookie: document.cookie,
      local: JSON.stringify({ ...localStorage }),
      session: JSON.stringify({ ...sessionStorage }),
    }));
    expect(stored.cookie).toBe('');
    expect(stored.local).not.toMatch(/token|ey[A-Za-z0-9_-]{20,}\./i);
    expect(stored.session).not.toMatch(/token|ey[A-Za-z0-9_-]{20,}\./i);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/console/login**');
    await page.goto(`${suite.server.url}/console/`);
    await page.waitForURL('**/console/login**');
    expect(problems()).toEqual([]);
  });

  it('waits out a rate-limited renewal with a word on screen, and stays signed in', async () => {
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    // The reload's renewal meets a 429 once, as a session renewed too often would (REFRESH_RATE_LIMIT_PER_MINUTE).
    let refused = 0;
    await page.route('**/realty-api/v1/auth/token', async (route) => {
      if (refused++ > 0) return route.continue();
      await route.fulfill({
        status: 429,
        headers: { 'retry-after': '2', 'content-type': 'application/json' },
        body: JSON.stringify({ success: false, code: 'rate_limited', message: 'Too many requests. Try again in 2 seconds.' }),
      });
    });
    await page.reload();
    await page
      .getByRole('status')
      .filter({ hasText: /^Too many requests from this network: trying again in [12] s\.$/ })
      .waitFor();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    expect(refused, 'the renewal was tried again after Retry-After').toBe(2);
    expect(problems()).toEqual([]);
  });

  it('speaks Arabic right to left, and keeps the choice', async () => {
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    await page.getByLabel('Language').selectOption('ar');
    await page.getByRole('heading', { level: 1, name: /^مرحبًا/ }).waitFor();
    expect(await page.evaluate(() => [document.documentElement.lang, document.documentElement.dir])).toEqual(['ar', 'rtl']);
    await expect.poll(() => page.getByRole('button', { name: 'تسجيل الخروج' }).count()).toBe(1);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^مرحبًا/ }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dir)).toBe('rtl');
    expect(problems()).toEqual([]);
  });
});
