import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { FeedListing } from '../../../../src/adapters/feeds/feed-records.js';
import { featureRows, item, only, phpString, read, wxr } from './wxr-test-helpers.js';

const SITE = readFileSync(new URL('./fixtures/houzez-site.xml', import.meta.url), 'utf8');
const UPLOADS = 'https://costa-homes.example/wp-content/uploads';

const VILLA: FeedListing = {
  key: '101',
  title: 'Villa with sea views in Nueva Andalucía',
  description: '<p>Bright villa with <strong>sea views</strong> &amp; a garden.</p>\n<p>Cerca del golf.</p>',
  status: 'publish',
  reference: 'CH-101',
  price: 1495000,
  second_price: 1350000,
  price_prefix: 'From',
  price_postfix: 'negotiable',
  currency: 'EUR',
  bedrooms: 4,
  bathrooms: 3,
  rooms: 9,
  garage: 2,
  garage_size: '40 m²',
  size: 2150,
  size_unit: 'sqft',
  // 0.5 acres.
  land_size: 21780,
  land_size_unit: 'sqft',
  year_built: 2019,
  featured: true,
  address: 'Calle del Sol 5, 29660 Marbella, España',
  zipcode: '29660',
  latitude: 36.5101,
  longitude: -4.8824,
  video_url: 'https://www.youtube.com/watch?v=abc123',
  virtual_tour: 'https://my.matterport.com/show/?m=xyz',
  agent_display: 'agent_info',
  additional_features: [
    { title: 'Orientación', value: 'Sur' },
    { title: 'Año de reforma', value: '2021' },
  ],
  floor_plans: [
    {
      title: 'Planta baja',
      rooms: 3,
      bathrooms: 2,
      price: 250000,
      price_postfix: '',
      size: 120,
      size_postfix: 'm²',
      image_url: `${UPLOADS}/2024/05/plano-baja.jpg`,
      description: 'Salón y cocina',
    },
    {
      title: 'Ático',
      rooms: null,
      bathrooms: 1,
      price: null,
      price_postfix: '/mes',
      size: 45.5,
      size_postfix: 'm²',
      image_url: '',
      description: 'Terraza de 30 m² con vistas al mar',
    },
  ],
  types: ['Villa'],
  statuses: ['For Sale'],
  labels: ['Hot Offer'],
  features: ['Sea Views', 'Pool'],
  country: 'Spain',
  state: 'Málaga',
  city: 'Marbella',
  area: 'Nueva Andalucía',
  images: [`${UPLOADS}/2024/03/villa-terrace.jpg`, `${UPLOADS}/2024/03/villa-pool.jpg`],
  agents: ['302', '301'],
  agency: '201',
  created_at: '2024-03-05T14:30:00.000Z',
  updated_at: '2024-05-20T09:15:00.000Z',
};

const APARTMENT: FeedListing = {
  key: '102',
  title: 'Apartment in the old town',
  description: 'Two bedrooms, <em>near the beach</em>.',
  status: 'draft',
  reference: '',
  price: 1200,
  second_price: null,
  price_prefix: '',
  price_postfix: '/mes',
  bedrooms: 2,
  bathrooms: null,
  rooms: null,
  garage: null,
  garage_size: '',
  size: 85.5,
  size_unit: 'm2',
  land_size: null,
  year_built: null,
  featured: false,
  address: 'Calle Ancha 3',
  zipcode: '',
  latitude: 36.5093,
  longitude: -4.8857,
  video_url: '',
  // An embed code in the export: its iframe's address.
  virtual_tour: 'https://my.matterport.com/show/?m=old',
  agent_display: 'author_info',
  additional_features: [],
  floor_plans: [],
  types: ['Apartment'],
  statuses: [],
  labels: [],
  features: [],
  country: null,
  state: null,
  city: null,
  area: null,
  images: [`${UPLOADS}/2024/05/salón-1.jpg`],
  agents: [],
  agency: null,
  updated_at: '2024-05-31T10:00:00.000Z',
};

const term = (at: number, taxonomy: string, slug: string, name: string, parentSlug?: string) => ({
  kind: 'term',
  at: `line ${at}`,
  taxonomy,
  slug,
  name,
  ...(parentSlug ? { parentSlug } : {}),
});

describe('readWxrSite', () => {
  it('reads a Houzez site: its address, terms (parents first), authors, agencies, agents, then listings, each at its line', async () => {
    expect(await read(SITE)).toEqual([
      { kind: 'site', at: 'line 19', url: 'https://costa-homes.example' },
      term(38, 'property_type', 'residential', 'Residential'),
      term(37, 'property_type', 'villa', 'Villa', 'residential'),
      term(44, 'property_status', 'for-sale', 'For Sale'),
      term(45, 'property_feature', 'pool', 'Pool'),
      term(46, 'property_feature', 'sea-views', 'Sea Views'),
      term(47, 'property_label', 'hot-offer', 'Hot Offer'),
      term(48, 'property_country', 'spain', 'Spain'),
      term(49, 'property_state', 'malaga', 'Málaga'),
      term(50, 'property_city', 'marbella', 'Marbella'),
      term(51, 'property_area', 'nueva-andalucia', 'Nueva Andalucía'),
      {
        kind: 'author',
        at: 'line 22',
        login: 'admin',
        email: 'admin@costa-homes.example',
        displayName: 'Site Admin',
        firstName: 'Ana',
        lastName: 'García',
      },
      {
        kind: 'author',
        at: 'line 23',
        login: 'maria',
        email: 'maria@costa-homes.example',
        displayName: 'María Núñez',
        firstName: 'María',
        lastName: 'Núñez',
      },
      {
        kind: 'agency',
        at: 'line 103',
        authorLogin: 'admin',
        agency: {
          key: '201',
          name: 'Costa Homes Marbella',
          email: 'office@costa-homes.example',
          phone: '+34 952 000 111',
          website: 'https://costa-homes.example',
          address: 'Avenida Ricardo Soriano 12, Marbella',
          // The post's <link>: its old address, kept as a redirect by the import.
          url: 'https://costa-homes.example/agency/costa-homes-marbella/',
        },
      },
      {
        kind: 'agent',
        at: 'line 118',
        authorLogin: 'maria',
        agent: {
          key: '301',
          name: 'Lucía Fernández',
          email: 'lucia@costa-homes.example',
          phone: '+34 952 000 112',
          mobile: '+34 600 000 112',
          position: 'Directora comercial',
          agency: '201',
          url: 'https://costa-homes.example/agent/lucia-fernandez/',
        },
      },
      // A draft agent is still one; "-1" is Houzez's "no agency". The trashed agent 303 is left out.
      {
        kind: 'agent',
        at: 'line 132',
        authorLogin: 'admin',
        agent: { key: '302', name: 'Tom Baker', email: 'tom@costa-homes.example', agency: null },
      },
      // The trashed property 103 (whose price is not even a number) is left out.
      {
        kind: 'listing',
        at: 'line 148',
        authorLogin: 'maria',
        listing: { ...VILLA, url: 'https://costa-homes.example/property/villa-nueva-andalucia/' },
        documents: [],
        warnings: [],
      },
      {
        kind: 'listing',
        at: 'line 212',
        authorLogin: 'admin',
        listing: { ...APARTMENT, url: 'https://costa-homes.example/?post_type=property&p=102' },
        documents: [],
        warnings: [],
      },
    ]);
  });

  it('maps WordPress and Houzez post statuses; a trashed property gives nothing, an unknown status is reported', async () => {
    const statuses = [
      'publish',
      'draft',
      'auto-draft',
      'pending',
      'private',
      'future',
      'expired',
      'disapproved',
      'on_hold',
      'houzez_sold',
      'trash',
      'inherit',
    ];
    const records = await read(wxr(statuses.map((status, n) => item(String(n + 1), 'property', { status })).join('\n')));
    expect(
      records.map((record) => (record.kind === 'listing' ? [record.listing.key, record.listing.status] : [record.at, record.kind])),
    ).toEqual([
      ['1', 'publish'],
      ['2', 'draft'],
      ['3', 'draft'],
      ['4', 'pending'],
      ['5', 'draft'],
      ['6', 'pending'],
      ['7', 'expired'],
      ['8', 'disapproved'],
      ['9', 'on_hold'],
      ['10', 'sold'],
      ['line 15', 'unreadable'],
    ]);
    expect(records.at(-1)).toMatchObject({ field: 'status', reason: expect.stringContaining('(not "inherit")') });
  });

  it('leaves a number that is not one out of its property, with a warning naming the field, and reads on', async () => {
    const records = await read(
      wxr(
        [
          item('1', 'property', { meta: { fave_property_price: 'call us' } }),
          item('2', 'property', { meta: { fave_property_bedrooms: '2 or 3' } }),
          item('3', 'property', { meta: { fave_property_location: 'north,-4.8,15' } }),
          item('4', 'property', { meta: { fave_property_price: '1,200,50', fave_property_sec_price: '900' } }),
          item('5', 'property', { meta: { fave_property_price: '250,000', fave_property_sec_price: '' } }),
        ].join('\n'),
      ),
    );
    const listings = only(records, 'listing');
    expect(listings.map((record) => [record.at, record.warnings])).toEqual([
      ['line 4', [{ field: 'price', reason: 'must be of type number' }]],
      ['line 5', [{ field: 'bedrooms', reason: 'must be of type number' }]],
      ['line 6', [{ field: 'latitude', reason: 'must be of type number' }]],
      ['line 7', [{ field: 'price', reason: 'must be of type number' }]],
      ['line 8', []],
    ]);
    // Left out (undefined), not cleared (null): a re-import keeps what the listing has.
    expect(listings[0]!.listing).toMatchObject({ key: '1', title: 'Post 1' });
    expect(listings[0]!.listing.price).toBeUndefined();
    expect(listings[1]!.listing.bedrooms).toBeUndefined();
    expect(listings[2]!.listing.latitude).toBeUndefined();
    expect(listings[2]!.listing.longitude).toBeUndefined();
    expect(listings[3]!.listing).toMatchObject({ second_price: 900 });
    expect(listings[4]).toMatchObject({ listing: { key: '5', price: 250000, second_price: null } });
  });

  it('reads prices, sizes and plans as Houzez users type them: separators, symbols, "From", units', async () => {
    const plans =
      'a:2:{i:0;a:3:{s:15:"fave_plan_title";s:1:"A";s:14:"fave_plan_size";s:7:"497 m²";s:15:"fave_plan_price";s:10:"€250.000";}' +
      'i:1;a:3:{s:15:"fave_plan_title";s:1:"B";s:14:"fave_plan_size";s:11:"1,200 Sq Ft";s:19:"fave_plan_bathrooms";s:3:"1.5";}}';
    const [record] = await read(
      wxr(
        item('1', 'property', {
          meta: {
            fave_property_price: 'From €1.495.000',
            fave_property_sec_price: '1 350 000 €',
            fave_property_size: '2,150 Sq Ft',
            fave_property_land: '0.5 ac',
            floor_plans: plans,
          },
        }),
      ),
    );
    expect(record).toMatchObject({
      kind: 'listing',
      listing: {
        price: 1495000,
        second_price: 1350000,
        currency: 'EUR',
        price_prefix: 'From',
        size: 2150,
        size_unit: 'sqft',
        land_size: 21780,
        land_size_unit: 'sqft',
        floor_plans: [
          { title: 'A', size: 497, size_postfix: 'm²', price: 250000 },
          { title: 'B', size: 1200, size_postfix: 'sq ft', bathrooms: 1.5 },
        ],
      },
    });
  });

  it('carries energy fields as additional features, multi-units as plans, PDF attachments as documents', async () => {
    const unit = {
      fave_mu_title: 'Unit 2',
      fave_mu_beds: '2',
      fave_mu_baths: '1.5',
      fave_mu_price: '€310,000',
      fave_mu_size: '85 m²',
      fave_mu_type: 'Apartment',
      fave_mu_availability_date: '2025-06-01',
    };
    const units = `a:1:{i:0;a:7:{${Object.entries(unit)
      .map(([key, value]) => phpString(key) + phpString(value))
      .join('')}}}`;
    const attachment = (id: string, file: string) =>
      item(id, 'attachment', { status: 'inherit', extra: `<wp:attachment_url>https://site.example/${file}</wp:attachment_url>` });
    const records = await read(
      wxr(
        [
          item('1', 'property', {
            meta: {
              additional_features: featureRows([['Energy class', 'A (own)']]),
              fave_energy_class: 'B',
              fave_energy_global_index: '120 kWh/m²a',
              fave_epc_current_rating: '',
              fave_multi_units: units,
              fave_attachments: ['50', '51', '99', '52', '53'],
            },
          }),
          attachment('50', 'brochure.pdf'),
          attachment('51', 'plan.pdf'),
          attachment('52', 'terms.docx'),
          item('53', 'attachment', {
            status: 'inherit',
            extra:
              '<wp:post_mime_type>application/pdf</wp:post_mime_type><wp:attachment_url>https://site.example/download?id=53</wp:attachment_url>',
          }),
        ].join('\n'),
      ),
    );
    expect(only(records, 'listing')[0]).toMatchObject({
      // In order; 99 is no attachment of the export; 52 is no PDF (a warning); 53 is one by its type.
      documents: ['https://site.example/brochure.pdf', 'https://site.example/plan.pdf', 'https://site.example/download?id=53'],
      warnings: [{ field: 'attachments', reason: 'must be a PDF document (attachment 52 is not one, left out)' }],
      listing: {
        // The site's own row of a title comes first and is kept; an empty energy field is left out.
        additional_features: [
          { title: 'Energy class', value: 'A (own)' },
          { title: 'Global energy performance index', value: '120 kWh/m²a' },
        ],
        floor_plans: [
          {
            title: 'Unit 2',
            rooms: 2,
            bathrooms: 1.5,
            price: 310000,
            size: 85,
            size_postfix: 'm²',
            description: 'Apartment · Available from 2025-06-01',
          },
        ],
      },
    });
  });

  it('leaves out serialized meta that does not unserialize, and a plan figure that is no number, with warnings', async () => {
    const records = await read(
      wxr(
        [
          item('1', 'property', { meta: { additional_features: 'a:2:{i:0;s:1:"a";}' } }),
          // A length in characters where PHP counts bytes.
          item('2', 'property', {
            meta: { additional_features: 'a:1:{i:0;a:1:{s:29:"fave_additional_feature_title";s:11:"Orientación";}}' },
          }),
          item('3', 'property', { meta: { floor_plans: 'Planta baja, 3 rooms' } }),
          item('4', 'property', {
            meta: { floor_plans: 'a:1:{i:0;a:2:{s:15:"fave_plan_title";s:1:"A";s:15:"fave_plan_price";s:3:"ask";}}' },
          }),
          item('5', 'property', { meta: { floor_plans: 'a:1:{i:0;s:4:"text";}' } }),
          item('6', 'property'),
        ].join('\n'),
      ),
    );
    const listings = only(records, 'listing');
    expect(listings.map((record) => record.warnings)).toEqual([
      [{ field: 'additional_features', reason: 'is not a valid PHP-serialized array' }],
      [{ field: 'additional_features', reason: 'is not a valid PHP-serialized array' }],
      [{ field: 'floor_plans', reason: 'is not a valid PHP-serialized array' }],
      [{ field: 'floor_plans', reason: 'must be of type number (in plan 1, fave_plan_price)' }],
      [{ field: 'floor_plans', reason: 'must be an array of rows (row 1 is not an array of fields)' }],
      [],
    ]);
    expect(listings[0]!.listing.additional_features).toBeUndefined();
    expect(listings[2]!.listing.floor_plans).toBeUndefined();
    // The plan stays, without the figure it could not read.
    expect(listings[3]!.listing.floor_plans).toMatchObject([{ title: 'A', price: null }]);
    expect(listings[5]).toMatchObject({ kind: 'listing', listing: { key: '6', additional_features: [], floor_plans: [] } });
  });

  it('reads serialized text whose CR LF line ends the XML parser turned into LF', async () => {
    const plans = 'a:1:{i:0;a:2:{s:15:"fave_plan_title";s:5:"Plant";s:21:"fave_plan_description";s:18:"Line one\r\nLine two";}}';
    const [record] = await read(wxr(item('1', 'property', { meta: { floor_plans: plans } })));
    expect(record).toMatchObject({ kind: 'listing', listing: { floor_plans: [{ title: 'Plant', description: 'Line one\r\nLine two' }] } });
  });

  it('puts the featured image first, skips unknown attachments, and reads the location from "lat,lng,zoom"', async () => {
    const attachment = (id: string) =>
      item(id, 'attachment', { status: 'inherit', extra: `<wp:attachment_url>https://img.example/${id}.jpg</wp:attachment_url>` });
    const records = await read(
      wxr(
        [
          item('1', 'property', {
            meta: {
              fave_property_images: ['7', '8', '6'],
              _thumbnail_id: '6',
              fave_property_location: '40.4168, -3.7038, 12',
              houzez_geolocation_lat: '40.1',
            },
          }),
          item('2', 'property', { meta: { fave_property_images: ['6', '404', '7'], _thumbnail_id: '6' } }),
          item('3', 'property', { meta: { _thumbnail_id: '8', fave_property_images: '' } }),
          attachment('6'),
          attachment('7'),
          attachment('8'),
        ].join('\n'),
      ),
    );
    expect(only(records, 'listing').map(({ listing }) => [listing.images, listing.latitude, listing.longitude])).toEqual([
      [['https://img.example/6.jpg', 'https://img.example/7.jpg', 'https://img.example/8.jpg'], 40.4168, -3.7038],
      [['https://img.example/6.jpg', 'https://img.example/7.jpg'], null, null],
      [['https://img.example/8.jpg'], null, null],
    ]);
  });

  it('orders terms so that a parent comes first, and survives a loop of parents', async () => {
    const wpTerm = (taxonomy: string, slug: string, parent = '') =>
      `<wp:term><wp:term_taxonomy>${taxonomy}</wp:term_taxonomy><wp:term_slug>${slug}</wp:term_slug><wp:term_parent>${parent}</wp:term_parent><wp:term_name>${slug.toUpperCase()}</wp:term_name></wp:term>`;
    const records = await read(
      wxr(
        [
          wpTerm('property_type', 'villa', 'detached'),
          wpTerm('property_type', 'detached', 'residential'),
          wpTerm('property_status', 'residential'),
          wpTerm('property_type', 'residential'),
          wpTerm('property_type', 'a', 'b'),
          wpTerm('property_type', 'b', 'a'),
          wpTerm('property_label', 'orphan', 'missing'),
          wpTerm('property_city', ''),
        ].join('\n'),
      ),
    );
    expect(records.map((record) => (record.kind === 'term' ? `${record.taxonomy}/${record.slug}` : `${record.kind} ${record.at}`))).toEqual(
      [
        'property_type/residential',
        'property_type/detached',
        'property_type/villa',
        'property_status/residential',
        'property_type/b',
        'property_type/a',
        'property_label/orphan',
        'unreadable line 11',
      ],
    );
  });

  it('reads WXR 1.1 whatever prefix the file gives the WordPress namespace', async () => {
    const text = wxr(item('1', 'property', { meta: { fave_property_price: '5' } }))
      .replace('xmlns:wp="http://wordpress.org/export/1.2/"', 'xmlns:wxr="http://wordpress.org/export/1.1/"')
      .replace(/(<\/?)wp:/g, '$1wxr:');
    expect(await read(text)).toMatchObject([{ kind: 'listing', listing: { key: '1', price: 5 } }]);
  });

  it('reports an agent or author it cannot name, and goes on', async () => {
    const author = '<wp:author><wp:author_login></wp:author_login><wp:author_email>x@example.com</wp:author_email></wp:author>';
    const records = await read(
      wxr([author, item('7', 'houzez_agent', { title: '' }), item('8', 'houzez_agency', { title: 'Agency', creator: '' })].join('\n')),
    );
    expect(records).toEqual([
      { kind: 'unreadable', at: 'line 4', field: 'login', reason: 'is required' },
      { kind: 'agency', at: 'line 6', agency: { key: '8', name: 'Agency' } },
      { kind: 'unreadable', at: 'line 5', field: 'name', reason: 'is required' },
    ]);
  });
});
