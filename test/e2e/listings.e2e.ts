import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { accessibilityViolations, consoleSuite, newAccount, openPage, signIn } from './harness.js';

/** A small real PNG of one colour: uploads are checked by their bytes. */
function photo(name: string, red: number): Promise<{ name: string; mimeType: string; buffer: Buffer }> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: red, g: 120, b: 90 } } })
    .png()
    .toBuffer()
    .then((buffer) => ({ name, mimeType: 'image/png', buffer }));
}

describe('an agent’s listing', () => {
  const suite = consoleSuite({ demo: true });

  it('is created with two photos uploaded through the page and a pin set on the map, then submitted', async () => {
    const agent = await newAccount(suite.server, 'agent', 'agent');
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, agent.login, agent.password);

    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'My listings' }).click();
    await page.getByRole('heading', { level: 1, name: 'My listings' }).waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'New listing' }).click();
    await page.getByRole('heading', { level: 1, name: 'New listing' }).waitFor();

    await page.getByLabel('Title').fill('Harbour view loft with two photos');
    await page.getByLabel('Price', { exact: true }).fill('420000');
    await page.getByLabel('Add photos').setInputFiles([await photo('front.png', 200), await photo('kitchen.png', 40)]);
    await page.getByRole('group', { name: 'Photo 2 of 2' }).waitFor();
    // No tiles load here (no internet): the map takes the click all the same.
    const map = page.getByTestId('listing-map');
    await map.waitFor();
    await map.click({ position: { x: 120, y: 90 } });
    await expect.poll(() => page.getByLabel('Latitude').inputValue()).not.toBe('');
    expect(await accessibilityViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Save as draft' }).click();
    await page.waitForURL(/\/console\/listings\/\d+\/edit$/);
    const id = Number(/listings\/(\d+)\/edit/.exec(page.url())![1]);
    await page.getByRole('button', { name: 'Submit for approval' }).click();
    await page.getByText('Done: the listing is now Pending approval.').waitFor();
    expect(await accessibilityViolations(page)).toEqual([]);

    const listing = await suite.server.api<{
      status: string;
      gallery: unknown[];
      featured_image: unknown;
      address: { latitude: number | null; longitude: number | null };
    }>('GET', `/properties/${id}`, undefined, agent.token);
    expect(listing.status).toBe('pending');
    expect(listing.gallery).toHaveLength(2);
    expect(listing.address.latitude).not.toBeNull();
    expect(listing.address.longitude).not.toBeNull();
    expect(problems()).toEqual([]);
  });

  it('asks for what a submission needs before sending it, and its map goes to the place chosen', async () => {
    const agent = await newAccount(suite.server, 'agent', 'agent');
    const { page, problems } = await openPage(suite.browser);
    await signIn(page, suite.server, agent.login, agent.password);
    await page.goto(`${suite.server.url}/console/listings/new`);
    await page.getByRole('heading', { level: 1, name: 'New listing' }).waitFor();

    await page.getByLabel('Title').fill('Corner flat, price on request');
    await page.getByRole('button', { name: 'Create listing' }).click();
    // Price, type and city are marked, and nothing is sent.
    await page.getByText('Fill in the fields marked above to submit the listing, or save it as a draft.').waitFor();
    expect(await page.getByText('Needed before the listing is submitted.').count()).toBe(3);
    expect(page.url()).toMatch(/\/listings\/new$/);
    expect(await accessibilityViolations(page)).toEqual([]);

    // Choosing a city fills its state and country and takes the map there (the demo's Miami listings' centre).
    const map = page.getByTestId('listing-map');
    await map.waitFor();
    await page.getByLabel('City').selectOption({ label: 'Miami' });
    await expect.poll(() => map.getAttribute('data-view')).toMatch(/^12\/25\.\d+\/-80\.\d+$/);
    expect(await page.getByLabel('State or region').locator('option:checked').textContent()).toBe('Florida');
    expect(await page.getByLabel('Country').locator('option:checked').textContent()).toBe('United States');
    // A country alone narrows the cities to its own.
    await page.getByLabel('Country').selectOption({ label: 'Spain' });
    await expect.poll(() => page.getByLabel('City').locator('option').allTextContents()).not.toContain('Miami');
    await page.getByLabel('City').selectOption({ label: 'Barcelona' });
    await expect.poll(() => map.getAttribute('data-view')).toMatch(/^12\/41\.\d+\/2\.\d+$/);

    await page.getByLabel('Price on request').check();
    await page.getByRole('group', { name: 'Property type' }).getByLabel('Apartment').check();
    await page.getByRole('button', { name: 'Create listing' }).click();
    await page.waitForURL(/\/console\/listings\/\d+\/edit$/);
    const id = Number(/listings\/(\d+)\/edit/.exec(page.url())![1]);
    const listing = await suite.server.api<{ status: string; price: number | null }>('GET', `/properties/${id}`, undefined, agent.token);
    expect(listing).toMatchObject({ status: 'pending', price: null });
    expect(problems()).toEqual([]);
  });
});
