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
    expect(problems()).toEqual([]);
  });
});
