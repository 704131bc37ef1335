import { describe, expect, it } from 'vitest';
import { accessibilityViolations, adminToken, consoleSuite, newAccount, openPage, signIn } from './harness.js';

describe('a buyer’s saved search', () => {
  const suite = consoleSuite();

  it('is saved from the console, and its live notification arrives when a matching listing is approved', async () => {
    const buyer = await newAccount(suite.server, 'buyer', 'buyer');
    const owner = await newAccount(suite.server, 'owner', 'owner');
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, buyer.login, buyer.password);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Saved searches' }).click();
    await page.getByRole('link', { name: 'Save a search' }).click();
    await page.getByRole('heading', { level: 1, name: 'Save a search' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByLabel('Keyword').fill('lighthouse');
    await page.getByLabel('Name', { exact: true }).fill('Lighthouse homes');
    await page.getByLabel('Alert frequency').selectOption('instant');
    await page.getByRole('button', { name: 'Save search' }).click();
    await page.getByRole('status').filter({ hasText: 'Saved search “Lighthouse homes” created.' }).waitFor();
    expect(await page.getByTestId('unread-count').textContent()).toBe('0');
    expect(await accessibilityViolations(page)).toEqual([]);

    // Elsewhere: an owner submits a matching listing and an administrator approves it.
    const listing = await suite.server.api<{ id: number }>(
      'POST',
      '/properties',
      { title: 'Lighthouse cottage by the bay', price: 250000 },
      owner.token,
    );
    const unrelated = await suite.server.api<{ id: number }>(
      'POST',
      '/properties',
      { title: 'Garden flat downtown', price: 150000 },
      owner.token,
    );
    const admin = await adminToken(suite.server);
    await suite.server.api('POST', `/users/approve-property/${unrelated.id}`, {}, admin);
    await suite.server.api('POST', `/users/approve-property/${listing.id}`, {}, admin);

    // The open page hears of it over the live stream: no reload.
    await page.getByRole('status').filter({ hasText: 'New match for “Lighthouse homes”' }).waitFor();
    await expect.poll(() => page.getByTestId('unread-count').textContent()).toBe('1');
    await page.getByRole('link', { name: 'View matches' }).first().click();
    await page
      .getByRole('cell', { name: /Lighthouse cottage by the bay/ })
      .first()
      .waitFor();
    expect(await page.getByText('Garden flat downtown').count()).toBe(0);
    expect(problems()).toEqual([]);
  });
});
