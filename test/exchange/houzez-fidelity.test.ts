import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readWxrSite } from '../../src/adapters/feeds/wxr/wxr-reader.js';
import type { UserRow } from '../../src/db/schema/index.js';
import { item, spoolFile, streamOf, wxr } from '../adapters/feeds/wxr/wxr-test-helpers.js';
import { buildTestApp, type TestApp } from '../helpers/app.js';
import { DIALECTS } from '../helpers/database.js';
import { newUser } from '../helpers/factories.js';

/** A PHP-serialized array of rows, as WordPress writes Houzez's repeaters (lengths in UTF-8 bytes). */
const phpString = (text: string) => `s:${Buffer.byteLength(text, 'utf8')}:"${text}";`;
const rows = (list: readonly Record<string, string>[]) =>
  `a:${list.length}:{${list
    .map(
      (row, n) =>
        `i:${n};a:${Object.keys(row).length}:{${Object.entries(row)
          .map(([key, value]) => phpString(key) + phpString(value))
          .join('')}}`,
    )
    .join('')}}`;

/** A Houzez site of 30 properties, one in five with floor plans whose figures are text, as Houzez keeps them. */
function siteWithPlans(): string {
  const properties = Array.from({ length: 30 }, (_, n) => {
    const id = String(1000 + n);
    const meta: Record<string, string | string[]> = { fave_property_price: `€${(250 + n).toLocaleString('de-DE')}.000` };
    if (n % 5 === 0) {
      meta.floor_plans = rows([
        { fave_plan_title: 'Ground floor', fave_plan_size: '497 m²', fave_plan_price: '€250.000', fave_plan_bathrooms: '1.5' },
        { fave_plan_title: 'Attic', fave_plan_size: '1,200 Sq Ft', fave_plan_rooms: '2', fave_plan_price_postfix: '/month' },
      ]);
      meta.fave_energy_class = 'B';
      meta.fave_multi_units = rows([{ fave_mu_title: 'Unit 1', fave_mu_beds: '2', fave_mu_size: '85 m²', fave_mu_price: '310,000' }]);
      meta.fave_virtual_tour = '<iframe src="https://my.matterport.com/show/?m=abc&amp;play=1" width="100%"></iframe>';
    }
    return item(id, 'property', { title: `Property number ${n}`, meta });
  });
  return wxr(properties.join('\n'));
}

describe.each(DIALECTS)('a Houzez site whose floor plans have text sizes (%s)', (dialect) => {
  let t: TestApp;
  let admin: UserRow;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await newUser(t.database.db, { role: 'administrator' });
  });
  afterAll(() => t.close());

  const importSite = (text: string, options: { dryRun?: boolean; strict?: boolean } = {}) =>
    t.services.wordpressSiteImporter.run(readWxrSite(streamOf(text, 4096), spoolFile()), {
      source: 'plans-site',
      actorId: admin.id,
      ...options,
    });

  it('imports every listing, each with its plans, units as plans, energy class and tour', async () => {
    const summary = await importSite(siteWithPlans());
    expect(summary).toMatchObject({ created: 30, rejected: 0 });
    const [source] = await t.database.db.selectFrom('listing_sources').select('listing_id').where('source_key', '=', '1005').execute();
    const { body } = await t.app.inject({ method: 'GET', url: `/realty-api/v1/properties/${source!.listing_id}` });
    const listing = JSON.parse(body).data;
    expect(listing).toMatchObject({
      price: 255000,
      currency: 'EUR',
      virtual_tour: 'https://my.matterport.com/show/?m=abc&play=1',
      additional_features: [{ title: 'Energy class', value: 'B' }],
    });
    expect(listing.floor_plans).toEqual([
      {
        title: 'Ground floor',
        rooms: null,
        bathrooms: 1.5,
        price: 250000,
        price_postfix: '',
        size: 497,
        size_postfix: 'm²',
        description: '',
        image_url: '',
      },
      {
        title: 'Attic',
        rooms: 2,
        bathrooms: null,
        price: null,
        price_postfix: '/month',
        size: 1200,
        size_postfix: 'sq ft',
        description: '',
        image_url: '',
      },
      {
        title: 'Unit 1',
        rooms: 2,
        bathrooms: null,
        price: 310000,
        price_postfix: '',
        size: 85,
        size_postfix: 'm²',
        description: '',
        image_url: '',
      },
    ]);
  });
});
