import { describe, expect, it } from 'vitest';
import { accessibilityViolations, ADMIN, consoleSuite, openPage, signIn } from './harness.js';

describe('the API clients page', () => {
  const suite = consoleSuite();

  it('makes a client whose secret, shown once, opens the API; a new secret and a revocation take effect', async () => {
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    await page.goto(`${suite.server.url}/console/api-clients`);
    await page.getByRole('heading', { level: 1, name: 'API clients' }).waitFor();
    await page.getByLabel('Name').fill('CRM sync');
    await page.getByLabel('Allowed addresses').fill('127.0.0.1\n::1');
    await page.getByRole('button', { name: 'Make the client' }).click();
    await page.getByText('The client CRM sync was made.').waitFor();
    const secret = (await page.locator('.shown-once-secret').textContent()) ?? '';
    expect(secret).toMatch(/^rak_[A-Za-z0-9_-]{43}$/);
    expect(await accessibilityViolations(page)).toEqual([]);

    const search = (credential: string) =>
      fetch(`${suite.server.url}/realty-api/v1/properties/search`, { headers: { authorization: `Bearer ${credential}` } });
    expect((await search(secret)).status).toBe(200);
    // The table shows the client once the list is read again: its scopes, its state and its secret's first characters.
    const row = page.getByRole('row').filter({ hasText: 'CRM sync' });
    await row.getByText('Active').waitFor();
    await row.getByText(`${secret.slice(0, 8)}…`).waitFor();

    await row.getByRole('button', { name: 'New secret' }).click();
    await page.getByRole('group').getByRole('button', { name: 'New secret' }).click();
    await page.getByText(/^CRM sync has a new secret; the previous one works until /).waitFor();
    const rotated = (await page.locator('.shown-once-secret').textContent()) ?? '';
    expect(rotated).not.toBe(secret);
    expect((await search(rotated)).status).toBe(200);
    expect((await search(secret)).status).toBe(200); // the overlap

    await row.getByRole('button', { name: 'Revoke CRM sync' }).click();
    await page.getByRole('group').getByRole('button', { name: 'Revoke' }).click();
    await page.getByText('CRM sync was revoked: its secrets and tokens no longer work.').waitFor();
    expect((await search(rotated)).status).toBe(401);
    expect((await search(secret)).status).toBe(401);
    await row.getByText(/^Revoked /).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems()).toEqual([]);
  });
});
