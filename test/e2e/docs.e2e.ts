import { describe, expect, it } from 'vitest';
import { consoleSuite, openPage } from './harness.js';

// issue 40 item 8: the reference page app makers read carries the product's name and runs within its CSP.
describe('the API reference page', () => {
  const suite = consoleSuite({ demo: false });

  it('is the product’s, lists the operations, and breaks no rule of its Content-Security-Policy', async () => {
    const { page, problems } = await openPage(suite.browser);
    await page.goto(`${suite.server.url}/docs/`);
    await page
      .getByRole('heading', { name: /^realty-api/ })
      .first()
      .waitFor();
    expect(await page.title()).toBe('realty-api — API reference');
    // The top bar's logo is the product's name, not Swagger's.
    const logo = (await page.locator('.topbar img').first().getAttribute('src')) ?? '';
    expect(Buffer.from(logo.replace(/^data:image\/svg\+xml;base64,/, ''), 'base64').toString()).toContain('>realty-api</text>');
    // An operation opens with its generated example request body and answers.
    await page
      .getByRole('button', { name: /POST \/realty-api\/v1\/properties Create a listing/ })
      .first()
      .click();
    await page.getByText('Example Value').first().waitFor();
    // The examples are the document's own (src/http/openapi-examples.ts), not Swagger UI's guesses: a currency
    // fits its pattern and the answer is the contract's envelope around the listing.
    const operation = page.locator('.opblock.is-open').first();
    await operation
      .locator('pre')
      .filter({ hasText: /"currency":\s*"USD"/ })
      .first()
      .waitFor();
    await operation
      .locator('.responses-wrapper pre')
      .filter({ hasText: /"success":\s*true/ })
      .first()
      .waitFor();
    expect(await operation.locator('.responses-wrapper pre').first().textContent()).toMatch(/"created_at":\s*"2026-01-15T09:30:00\.000Z"/);
    expect(problems()).toEqual([]);
  });
});
