import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessibilityViolations, ADMIN, consoleSuite, newAccount, openPage, signIn } from './harness.js';

/** A receiver on this machine that answers 200 and keeps what it was sent. */
const received: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    received.push({ headers: request.headers, body });
    response.writeHead(200).end('ok');
  });
});

describe('the webhooks pages', () => {
  // The receiver listens on 127.0.0.1, which the outbound guard refuses unless the host is named.
  const suite = consoleSuite({ env: { WEBHOOK_ALLOWED_HOSTS: '127.0.0.1', WEBHOOK_POLL_MS: '200' } });
  let hook = '';
  beforeAll(async () => {
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    hook = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('add an endpoint (its secret shown once), test it, and show the deliveries of a listing’s events', async () => {
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, ADMIN.email, ADMIN.password);
    await page.goto(`${suite.server.url}/console/webhooks`);
    await page.getByRole('heading', { level: 1, name: 'Webhooks' }).waitFor();
    await page.getByLabel('Address').fill(hook);
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByRole('button', { name: 'Add the endpoint' }).click();
    await page.getByText(`The endpoint ${hook} was added.`).waitFor();
    expect(await page.locator('.shown-once-secret').textContent()).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Send a test' }).click();
    await page.getByText(/^The receiver answered 200 in \d+ ms\.$/).waitFor();
    expect(received.at(-1)?.headers['webhook-signature']).toMatch(/^v1,/);

    // A listing written through the API becomes an event, delivered, and listed on the endpoint's page.
    const owner = await newAccount(suite.server, 'owner', 'owner');
    await suite.server.api('POST', '/properties', { title: 'Quayside loft', price: 200000 }, owner.token);
    await page.getByRole('link', { name: hook }).click();
    await page.getByRole('heading', { level: 1, name: `Deliveries to ${hook}` }).waitFor();
    await expect
      .poll(
        async () => {
          await page.reload();
          // Loaded: the table of deliveries, or the word that there is none yet.
          await page
            .getByText('No delivery yet.')
            .or(page.getByRole('table', { name: 'Deliveries' }))
            .waitFor();
          return page.getByRole('row').filter({ hasText: 'listing.created' }).filter({ hasText: 'Delivered' }).count();
        },
        { timeout: 20_000, interval: 1_000 },
      )
      .toBe(1);
    expect(received.some((message) => message.body.includes('"listing.created"'))).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
    expect(problems()).toEqual([]);
  });
});
