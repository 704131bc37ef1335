import { describe, expect, it } from 'vitest';
import { accessibilityViolations, consoleSuite, openPage } from './harness.js';

/** Fills the account form of the set-up and sign-up pages. */
async function fillAccount(page: import('playwright-core').Page, username: string, password: string): Promise<void> {
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('E-mail').fill(`${username}@example.test`);
  await page.getByLabel('New password (8 to 128 characters)').fill(password);
  await page.getByLabel('Repeat the new password').fill(password);
}

describe('a first run with no administrator', () => {
  // Plain `npm start`: no ADMIN_EMAIL, so the server prints a one-time set-up link.
  const suite = consoleSuite({ env: { ADMIN_EMAIL: '', ADMIN_PASSWORD: '' } });

  it('prints a set-up link that makes the first administrator, signed in, once', async () => {
    const link = /Set-up:\s+(http:\/\/\S+\/console\/setup#token=[A-Za-z0-9_-]{43})\s/.exec(suite.server.output())?.[1];
    expect(link, suite.server.output()).toBeDefined();

    const { page, problems } = await openPage(suite.browser);
    await page.goto(link!);
    await page.getByRole('heading', { level: 1, name: 'Set up realty-api' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await fillAccount(page, 'founder', 'a long founding password');
    await page.getByRole('button', { name: 'Create the administrator' }).click();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    await expect.poll(() => page.getByRole('link', { name: 'Users' }).count()).toBeGreaterThan(0);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();

    // The same link again, in another browser: refused, and nobody else is made administrator.
    const other = await openPage(suite.browser);
    await other.page.goto(link!);
    await fillAccount(other.page, 'latecomer', 'another long password');
    await other.page.getByRole('button', { name: 'Create the administrator' }).click();
    await expect.poll(() => other.page.getByRole('alert').textContent()).toMatch(/token: is not the set-up link/);
    expect(problems()).toEqual([]);
    expect(other.problems()).toEqual([]);
  });

  it('leads from the sign-in page to signing up with a self-service role', async () => {
    const { page, problems } = await openPage(suite.browser);
    await page.goto(`${suite.server.url}/console/login`);
    await page.getByRole('link', { name: 'No account yet? Create one' }).click();
    await page.getByRole('heading', { level: 1, name: 'Create an account' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await fillAccount(page, 'newagent', 'a long agent password');
    await page.getByLabel('I am').selectOption('agent');
    await page.getByRole('button', { name: 'Create the account' }).click();
    await page.getByRole('heading', { level: 1, name: /^Welcome/ }).waitFor();
    expect(problems()).toEqual([]);
  });
});
