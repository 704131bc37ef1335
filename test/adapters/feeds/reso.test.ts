import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type FeedAgency,
  type FeedAgent,
  type FeedContent,
  type FeedListing,
  type FeedListingState,
  type FeedRecord,
  FeedSyntaxError,
} from '../../../src/adapters/feeds/feed-records.js';
import { readResoFeed, writeResoFeed } from '../../../src/adapters/feeds/reso.js';

/** The text as a stream of small byte chunks, so that tokens and multi-byte characters straddle chunks. */
function streamOf(text: string, size = 7): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

async function read(text: string, chunkSize?: number): Promise<FeedRecord[]> {
  const records: FeedRecord[] = [];
  for await (const record of readResoFeed(streamOf(text, chunkSize))) records.push(record);
  return records;
}

async function readError(text: string): Promise<FeedSyntaxError> {
  const error: unknown = await read(text).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FeedSyntaxError);
  return error as FeedSyntaxError;
}

async function* each<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

function contentOf(content: { agencies?: FeedAgency[]; agents?: FeedAgent[]; listings?: FeedListing[] }): FeedContent {
  return { agencies: each(content.agencies ?? []), agents: each(content.agents ?? []), listings: each(content.listings ?? []) };
}

async function pieces(content: FeedContent): Promise<string[]> {
  const written: string[] = [];
  for await (const piece of writeResoFeed(content)) written.push(piece);
  return written;
}

async function write(content: Parameters<typeof contentOf>[0]): Promise<string> {
  return (await pieces(contentOf(content))).join('');
}

const SAMPLE = {
  '@reso.context': 'urn:reso:metadata:2.0:resource:property',
  Office: [
    {
      OfficeKey: 'OFF-1',
      OfficeName: 'Harbour Realty',
      OfficeEmail: 'desk@harbour.example',
      OfficePhone: '+1 305 555 0100',
      OfficeAddress1: '12 Ocean Drive, Miami',
      X_Realty_Website: 'https://harbour.example',
      OfficeStatus: 'Active',
    },
    { OfficeKey: 'OFF-2', OfficeName: 'Élan Immobilier', SocialMediaWebsiteUrlOrId: 'https://elan.example', OfficeEmail: null },
  ],
  Member: [
    {
      MemberKey: 'MEM-1',
      MemberFullName: 'Ana Ruiz',
      MemberEmail: 'ana@harbour.example',
      MemberDirectPhone: '+1 305 555 0101',
      MemberMobilePhone: '+1 305 555 0199',
      JobTitle: 'Broker',
      OfficeKey: 'OFF-1',
    },
    { MemberKey: 'MEM-2', MemberFirstName: 'Luc', MemberLastName: 'Moreau', OfficeKey: 'OFF-2' },
    { MemberKey: 'MEM-3', MemberFullName: 'Sam Lee', OfficeKey: null, MemberStateLicense: 'SL-1' },
  ],
  Property: [
    {
      ListingKey: 'P-100',
      ListingId: 'MLS-100',
      StandardStatus: 'Active',
      ListPrice: 495000,
      PublicRemarks: '<p>Bright villa near the beach.</p>',
      BedroomsTotal: 3,
      BathroomsTotalInteger: 2,
      LivingArea: 1850.5,
      LivingAreaUnits: 'Square Feet',
      PropertyType: 'Residential',
      PropertySubType: 'Single Family Residence',
      ListAgentKey: 'MEM-1',
      ListAgentFullName: 'Ana Ruiz',
      ListOfficeKey: 'OFF-1',
      Latitude: 25.7617,
      Longitude: -80.1918,
      UnparsedAddress: '1 Palm Way',
      City: 'Miami',
      StateOrProvince: 'FL',
      Country: 'US',
      PostalCode: '33101',
      ModificationTimestamp: '2024-03-05T14:30:00Z',
      Media: [
        { MediaKey: 'M-3', MediaURL: 'https://img.example/3.jpg', Order: 3, MediaCategory: 'Photo' },
        { MediaKey: 'M-9', MediaURL: 'https://img.example/plan.pdf', Order: 0, MediaCategory: 'Floor Plan' },
        { MediaKey: 'M-1', MediaURL: 'https://img.example/1.jpg', Order: 1, MediaCategory: 'Photo' },
        { MediaKey: 'M-2', MediaURL: 'https://img.example/2.jpg', Order: 2 },
      ],
    },
    {
      ListingKey: 'P-101',
      StandardStatus: 'Hold',
      ListPrice: 2500,
      X_Realty_Title: 'Loft in the old port',
      X_Realty_Currency: 'EUR',
      X_Realty_SecondPrice: 2300,
      X_Realty_PricePrefix: 'From',
      X_Realty_PricePostfix: '/month',
      X_Realty_GarageSize: '2 cars',
      X_Realty_Featured: true,
      X_Realty_VideoURL: 'https://video.example/loft',
      X_Realty_AgentDisplay: 'agency_info',
      X_Realty_Statuses: ['For Rent'],
      X_Realty_Labels: ['Hot Offer'],
      X_Realty_Features: ['Balcony', 'Lift'],
      PropertyType: 'Apartment',
      PropertySubType: 'Loft',
      X_Realty_Types: ['Apartment', 'Loft', 'Duplex'],
      ListAgentKey: 'MEM-2',
      CoListAgentKey: 'MEM-1',
      X_Realty_Agents: ['MEM-2', 'MEM-1', 'MEM-3'],
      X_Realty_AdditionalFeatures: [{ title: 'Deposit', value: '2 months' }],
      X_Realty_FloorPlans: [{ title: 'Ground floor', rooms: 2, size: 60, size_postfix: 'm²', extra: 'dropped' }],
      GarageSpaces: 1,
      RoomsTotal: 4,
      YearBuilt: 1898,
      SubdivisionName: 'Vieux-Port',
      City: 'Marseille',
      Country: 'FR',
    },
    {
      ListingKey: 'P-102',
      StandardStatus: 'Closed',
      ListPrice: null,
      LotSizeArea: 0.25,
      LotSizeUnits: 'Acres',
      City: null,
      PublicRemarks: null,
      PropertyType: 'Land',
      PropertySubType: null,
      ListAgentKey: null,
      OriginalEntryTimestamp: '2023-11-30T08:00:00.000+01:00',
    },
  ],
};

const SAMPLE_RECORDS: FeedRecord[] = [
  {
    kind: 'agency',
    at: 'Office[0]',
    agency: {
      key: 'OFF-1',
      name: 'Harbour Realty',
      email: 'desk@harbour.example',
      phone: '+1 305 555 0100',
      website: 'https://harbour.example',
      address: '12 Ocean Drive, Miami',
    },
  },
  { kind: 'agency', at: 'Office[1]', agency: { key: 'OFF-2', name: 'Élan Immobilier', email: '', website: 'https://elan.example' } },
  {
    kind: 'agent',
    at: 'Member[0]',
    agent: {
      key: 'MEM-1',
      name: 'Ana Ruiz',
      email: 'ana@harbour.example',
      phone: '+1 305 555 0101',
      mobile: '+1 305 555 0199',
      position: 'Broker',
      agency: 'OFF-1',
    },
  },
  { kind: 'agent', at: 'Member[1]', agent: { key: 'MEM-2', name: 'Luc Moreau', agency: 'OFF-2' } },
  { kind: 'agent', at: 'Member[2]', agent: { key: 'MEM-3', name: 'Sam Lee', agency: null } },
  {
    kind: 'listing',
    at: 'Property[0]',
    listing: {
      key: 'P-100',
      reference: 'MLS-100',
      status: 'publish',
      price: 495000,
      description: '<p>Bright villa near the beach.</p>',
      bedrooms: 3,
      bathrooms: 2,
      size: 1850.5,
      size_unit: 'sqft',
      types: ['Residential', 'Single Family Residence'],
      agents: ['MEM-1'],
      agency: 'OFF-1',
      latitude: 25.7617,
      longitude: -80.1918,
      address: '1 Palm Way',
      city: 'Miami',
      state: 'FL',
      country: 'US',
      zipcode: '33101',
      updated_at: '2024-03-05T14:30:00Z',
      images: ['https://img.example/1.jpg', 'https://img.example/2.jpg', 'https://img.example/3.jpg'],
    },
  },
  {
    kind: 'listing',
    at: 'Property[1]',
    listing: {
      key: 'P-101',
      status: 'on_hold',
      price: 2500,
      title: 'Loft in the old port',
      currency: 'EUR',
      second_price: 2300,
      price_prefix: 'From',
      price_postfix: '/month',
      garage_size: '2 cars',
      featured: true,
      video_url: 'https://video.example/loft',
      agent_display: 'agency_info',
      statuses: ['For Rent'],
      labels: ['Hot Offer'],
      features: ['Balcony', 'Lift'],
      types: ['Apartment', 'Loft', 'Duplex'],
      agents: ['MEM-2', 'MEM-1', 'MEM-3'],
      additional_features: [{ title: 'Deposit', value: '2 months' }],
      floor_plans: [{ title: 'Ground floor', rooms: 2, size: 60, size_postfix: 'm²' }],
      garage: 1,
      rooms: 4,
      year_built: 1898,
      area: 'Vieux-Port',
      city: 'Marseille',
      country: 'FR',
    },
  },
  {
    kind: 'listing',
    at: 'Property[2]',
    listing: {
      key: 'P-102',
      status: 'sold',
      price: null,
      land_size: 10890,
      land_size_unit: 'sqft',
      city: null,
      description: '',
      types: ['Land'],
      agents: [],
      created_at: '2023-11-30T08:00:00.000+01:00',
    },
  },
];

describe('readResoFeed', () => {
  it('reads offices, members and properties into records that say where they were', async () => {
    expect(await read(JSON.stringify(SAMPLE, null, 2))).toStrictEqual(SAMPLE_RECORDS);
  });

  it('reads the arrays in any order, and the same records from one chunk or from single bytes', async () => {
    const reordered = JSON.stringify({ Property: SAMPLE.Property, Member: SAMPLE.Member, '@odata.count': 3, Office: SAMPLE.Office });
    const expected = [...SAMPLE_RECORDS.slice(5), ...SAMPLE_RECORDS.slice(2, 5), ...SAMPLE_RECORDS.slice(0, 2)];
    expect(await read(reordered, 1 << 20)).toStrictEqual(expected);
    expect(await read(reordered, 1)).toStrictEqual(expected);
  });

  it('reads an OData page of properties, at value[n]', async () => {
    const page = {
      '@odata.context': 'https://api.example/odata/$metadata#Property',
      value: [{ ListingKey: 'A', StandardStatus: 'Active', ListPrice: 1 }, { ListingKey: 'B' }],
      '@odata.nextLink': 'https://api.example/odata/Property?$skip=2',
    };
    expect(await read(JSON.stringify(page))).toStrictEqual([
      { kind: 'listing', at: 'value[0]', listing: { key: 'A', status: 'publish', price: 1 } },
      { kind: 'listing', at: 'value[1]', listing: { key: 'B' } },
    ]);
  });

  it.each([
    ['Active', 'publish'],
    ['Hold', 'on_hold'],
    ['Closed', 'sold'],
    ['Expired', 'expired'],
    ['Pending', 'on_hold'],
    ['Active Under Contract', 'on_hold'],
    ['ActiveUnderContract', 'on_hold'],
    ['Withdrawn', 'expired'],
    ['Canceled', 'expired'],
    ['Coming Soon', 'draft'],
  ])('reads StandardStatus %s as %s', async (standardStatus, status) => {
    const [record] = await read(JSON.stringify({ Property: [{ ListingKey: 'A', StandardStatus: standardStatus }] }));
    expect(record).toStrictEqual({ kind: 'listing', at: 'Property[0]', listing: { key: 'A', status } });
  });

  it.each([
    ['Property', { ListingKey: undefined }, 'key', 'is required'],
    ['Property', { ListingKey: 42 }, 'key', 'must be of type string'],
    [
      'Property',
      { StandardStatus: 'Sold' },
      'status',
      'must be one of: Active, Hold, Closed, Expired, Pending, Active Under Contract, Withdrawn, Canceled, Coming Soon',
    ],
    ['Property', { X_Realty_Title: 7 }, 'title', 'must be of type string'],
    ['Member', { MemberFullName: undefined }, 'name', 'is required'],
    ['Member', { MemberEmail: false }, 'email', 'must be of type string'],
    ['Office', { OfficeName: '  ' }, 'name', 'is required'],
  ] as const)('reports a %s with %j as unreadable (%s %s) and reads the next one', async (array, fields, field, reason) => {
    const good = {
      Property: { ListingKey: 'A', ListPrice: 1 },
      Member: { MemberKey: 'M', MemberFullName: 'Ana' },
      Office: { OfficeKey: 'O', OfficeName: 'Harbour' },
    }[array];
    const bad = { ...good, ListingKey: 'B', MemberKey: 'N', OfficeKey: 'P', ...fields };
    const records = await read(JSON.stringify({ [array]: [JSON.parse(JSON.stringify(bad)), good] }));
    expect(records[0]).toStrictEqual({ kind: 'unreadable', at: `${array}[0]`, field, reason });
    expect(records[1]).toMatchObject({ at: `${array}[1]` });
    expect(records[1]!.kind).not.toBe('unreadable');
  });

  it.each([
    [{ ListPrice: 'call us' }, {}, 'price', 'must be of type number'],
    [{ ListPrice: true }, {}, 'price', 'must be of type number'],
    [{ BedroomsTotal: 2.5 }, {}, 'bedrooms', 'must be of type integer'],
    [{ BedroomsTotal: 'two' }, {}, 'bedrooms', 'must be of type number'],
    [{ X_Realty_Featured: 'yes' }, {}, 'featured', 'must be of type boolean'],
    [
      { LivingArea: 120, LivingAreaUnits: 'Furlongs' },
      { size: 120 },
      'size_unit',
      'must be one of: Square Feet, Square Meters, Acres, Hectares',
    ],
    [{ X_Realty_AgentDisplay: 'everyone' }, {}, 'agent_display', 'must be one of: agent_info, agency_info, author_info, none'],
    [{ X_Realty_Features: ['Pool', 3] }, {}, 'features[1]', 'must be of type string'],
    [{ City: ['Miami'] }, {}, 'city', 'must be of type string'],
    [{ ModificationTimestamp: 'yesterday' }, {}, 'updated_at', 'must be a valid date-time'],
    [
      { Media: [{ MediaURL: 7 }, { MediaURL: 'https://x.example/1.jpg' }] },
      { images: ['https://x.example/1.jpg'] },
      'images',
      'must be of type string (Media[0].MediaURL)',
    ],
    [
      { X_Realty_FloorPlans: [{ rooms: 2 }, { title: 'Ground' }] },
      { floor_plans: [{ title: 'Ground' }] },
      'floor_plans[0].title',
      'is required',
    ],
    [
      { X_Realty_FloorPlans: [{ title: 'Ground', size: 'n/a', rooms: 2 }] },
      { floor_plans: [{ title: 'Ground', rooms: 2 }] },
      'floor_plans[0].size',
      'must be of type number',
    ],
  ] as const)(
    "leaves out a Property's %j it cannot read, with a warning (%s %s): the listing is read",
    async (fields, read_, field, reason) => {
      const [record] = await read(JSON.stringify({ Property: [{ ListingKey: 'B', ...fields, ListingId: 'R-1' }] }));
      expect(record).toStrictEqual({
        kind: 'listing',
        at: 'Property[0]',
        listing: { key: 'B', reference: 'R-1', ...read_ },
        warnings: [{ field, reason }],
      });
    },
  );

  it('reads a number given as a string, as OData servers write decimals (IEEE754Compatible)', async () => {
    const [record] = await read(
      JSON.stringify({ Property: [{ ListingKey: 'B', ListPrice: '350000.50', LivingArea: '1,200', BedroomsTotal: '3' }] }),
    );
    expect(record).toStrictEqual({ kind: 'listing', at: 'Property[0]', listing: { key: 'B', price: 350000.5, size: 1200, bedrooms: 3 } });
  });

  it('reports an item that is not an object, and an array that is not one', async () => {
    expect(await read('{"Office":{"OfficeKey":"O"},"Property":[7,{"ListingKey":"A"}]}')).toStrictEqual([
      { kind: 'unreadable', at: 'Office', reason: 'must be of type array' },
      { kind: 'unreadable', at: 'Property[0]', reason: 'must be of type object' },
      { kind: 'listing', at: 'Property[1]', listing: { key: 'A' } },
    ]);
  });

  it.each([
    ['not JSON', '<?xml version="1.0"?><root/>', 'document'],
    ['empty', '', 'document'],
    ['truncated', '{"Property":[{"ListingKey":"A"},{"ListingKey":', 'Property[1]'],
    // The last place the reader knew of: the closing brace came in the chunk that failed.
    ['followed by more', '{"Property":[]} {}', 'Property'],
  ])('throws FeedSyntaxError for a document that is %s', async (_what, text, at) => {
    const error = await readError(text);
    expect(error.at).toBe(at);
    expect(error.message).toMatch(/is not valid JSON/);
  });

  it.each([
    ['an array', '[{"ListingKey":"A"}]'],
    ['a string', '"Property"'],
    ['null', 'null'],
    ['a number', '42'],
  ])('throws FeedSyntaxError for a document that is %s', async (what, text) => {
    const error = await readError(text);
    expect(error.at).toBe('document');
    expect(error.message).toBe(`document: must be a JSON object (RESO resources by name), not ${what}`);
  });

  it('throws FeedSyntaxError for an object with none of the arrays', async () => {
    expect((await readError('{"listings":[{"key":"A"}]}')).message).toMatch(/none of the arrays Office, Member, Property or value/);
  });

  it('passes on a failure of the input itself', async () => {
    const failure = new Error('connection reset');
    const input = new Readable({ read() {} });
    input.push('{"Property":[{"ListingKey":"A"},');
    setTimeout(() => input.destroy(failure), 10);
    const records: FeedRecord[] = [];
    await expect(
      (async () => {
        for await (const record of readResoFeed(input)) records.push(record);
      })(),
    ).rejects.toBe(failure);
    expect(records).toHaveLength(1);
  });

  it('hands out a record before the input has ended', async () => {
    const input = new PassThrough();
    const records = readResoFeed(input)[Symbol.asyncIterator]();
    input.write('{"@reso.context":"urn:reso:metadata:2.0:resource:property","Office":[{"OfficeKey":"O1",');
    input.write('"OfficeName":"Harbour"},{"OfficeKey":"O2"');
    const first = await records.next();
    expect(first.value).toStrictEqual({ kind: 'agency', at: 'Office[0]', agency: { key: 'O1', name: 'Harbour' } });
    expect(input.writableEnded).toBe(false);
    input.end(',"OfficeName":"Élan"}]}');
    expect((await records.next()).value).toMatchObject({ at: 'Office[1]' });
    expect((await records.next()).done).toBe(true);
  });
});

describe('writeResoFeed', () => {
  it('writes one JSON document, offices, members, then properties, one record per piece', async () => {
    const written = await pieces(
      contentOf({
        agencies: [{ key: 'O', name: 'Harbour' }],
        agents: [
          { key: 'M1', name: 'Ana', agency: 'O' },
          { key: 'M2', name: 'Luc' },
        ],
        listings: [{ key: 'A', status: 'publish', images: ['https://img.example/1.jpg', 'https://img.example/2.jpg'] }],
      }),
    );
    const document = JSON.parse(written.join('')) as Record<string, unknown>;
    expect(Object.keys(document)).toEqual(['@reso.context', 'Office', 'Member', 'Property']);
    expect(document).toStrictEqual({
      '@reso.context': 'urn:reso:metadata:2.0:resource:property',
      Office: [{ OfficeKey: 'O', OfficeName: 'Harbour' }],
      Member: [
        { MemberKey: 'M1', MemberFullName: 'Ana', OfficeKey: 'O' },
        { MemberKey: 'M2', MemberFullName: 'Luc' },
      ],
      Property: [
        {
          ListingKey: 'A',
          StandardStatus: 'Active',
          Media: [
            { MediaKey: 'A-1', MediaURL: 'https://img.example/1.jpg', Order: 1, MediaCategory: 'Photo' },
            { MediaKey: 'A-2', MediaURL: 'https://img.example/2.jpg', Order: 2, MediaCategory: 'Photo' },
          ],
        },
      ],
    });
    // Every record is a piece of its own: a piece is a whole JSON object once its separator is taken off.
    const records = written.filter((piece) => /^,?\n\{/.test(piece));
    expect(records.map((piece) => JSON.parse(piece.replace(/^,?\n/, '')) as unknown)).toStrictEqual([
      ...(document.Office as unknown[]),
      ...(document.Member as unknown[]),
      ...(document.Property as unknown[]),
    ]);
  });

  it('writes an empty document that reads as nothing', async () => {
    const text = await write({});
    expect(JSON.parse(text)).toStrictEqual({
      '@reso.context': 'urn:reso:metadata:2.0:resource:property',
      Office: [],
      Member: [],
      Property: [],
    });
    expect(await read(text)).toStrictEqual([]);
  });

  it('leaves out listings in draft, pending or disapproved', async () => {
    const states: FeedListingState[] = ['draft', 'pending', 'publish', 'on_hold', 'disapproved', 'expired', 'sold'];
    const records = await read(await write({ listings: states.map((status) => ({ key: status, status })) }));
    expect(records.map((record) => (record.kind === 'listing' ? [record.listing.key, record.listing.status] : record))).toEqual([
      ['publish', 'publish'],
      ['on_hold', 'on_hold'],
      ['expired', 'expired'],
      ['sold', 'sold'],
    ]);
  });

  it('writes the local extensions and the RESO pair for two types and agents or fewer', async () => {
    const text = await write({ listings: [{ key: 'A', types: ['Villa'], agents: [], featured: false, statuses: [] }] });
    expect((JSON.parse(text) as { Property: unknown[] }).Property[0]).toStrictEqual({
      ListingKey: 'A',
      X_Realty_Featured: false,
      X_Realty_Statuses: [],
      PropertyType: 'Villa',
      PropertySubType: null,
      ListAgentKey: null,
      CoListAgentKey: null,
    });
  });
});

describe('write then read', () => {
  /** Any text, lone surrogates, quotes, backslashes and control characters included. */
  const oddText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 20 }),
    fc.constantFrom('', ' ', '"', '\\', '\u0000', '\u2028', '\ud800', '</script>', '__proto__', '{"a":1}', 'é😀'),
  );
  const name = oddText.filter((text) => text.trim() !== '');
  // JSON has no -0: it reads back as 0.
  const double = (range: { min?: number; max?: number } = {}) =>
    fc.double({ ...range, noNaN: true, noDefaultInfinity: true }).map((value) => (value === 0 ? 0 : value));
  const number = double();
  const count = fc.integer({ min: 0, max: 1000 });
  const nullable = <T>(arbitrary: fc.Arbitrary<T>) => fc.option(arbitrary, { nil: null });
  const dateTime = fc
    .date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2199-12-31T00:00:00Z'), noInvalidDate: true })
    .map((date) => date.toISOString());
  const unit = fc.constantFrom('sqft' as const, 'm2' as const);

  const listing: fc.Arbitrary<FeedListing> = fc.record(
    {
      key: name,
      title: oddText,
      description: oddText,
      status: fc.constantFrom('publish' as const, 'on_hold' as const, 'sold' as const, 'expired' as const),
      reference: oddText,
      price: nullable(number),
      second_price: nullable(number),
      currency: oddText,
      price_prefix: oddText,
      price_postfix: oddText,
      bedrooms: nullable(count),
      bathrooms: nullable(count),
      rooms: nullable(count),
      garage: nullable(count),
      garage_size: oddText,
      size: nullable(number),
      size_unit: unit,
      land_size: nullable(number),
      land_size_unit: unit,
      year_built: nullable(fc.integer({ min: 1000, max: 2100 })),
      featured: fc.boolean(),
      address: oddText,
      zipcode: oddText,
      latitude: nullable(double({ min: -90, max: 90 })),
      longitude: nullable(double({ min: -180, max: 180 })),
      video_url: oddText,
      virtual_tour: oddText,
      agent_display: fc.constantFrom('agent_info' as const, 'agency_info' as const, 'author_info' as const, 'none' as const),
      additional_features: fc.array(fc.record({ title: oddText, value: oddText }, { noNullPrototype: true }), { maxLength: 3 }),
      floor_plans: fc.array(
        fc.record(
          {
            title: oddText,
            rooms: nullable(count),
            bathrooms: nullable(count),
            price: nullable(number),
            price_postfix: oddText,
            size: nullable(number),
            size_postfix: oddText,
            description: oddText,
            image_url: oddText,
          },
          { requiredKeys: ['title'], noNullPrototype: true },
        ),
        { maxLength: 3 },
      ),
      types: fc.array(name, { maxLength: 4 }),
      statuses: fc.array(oddText, { maxLength: 3 }),
      labels: fc.array(oddText, { maxLength: 3 }),
      features: fc.array(oddText, { maxLength: 3 }),
      country: nullable(oddText),
      state: nullable(oddText),
      city: nullable(oddText),
      area: nullable(oddText),
      images: fc.array(oddText, { maxLength: 4 }).map((urls) => urls.map((url) => `https://img.example/${url}`)),
      agents: fc.array(name, { maxLength: 4 }),
      agency: nullable(name),
      created_at: dateTime,
      updated_at: dateTime,
    },
    { requiredKeys: ['key'], noNullPrototype: true },
  );
  const agent: fc.Arbitrary<FeedAgent> = fc.record(
    { key: name, name, email: oddText, phone: oddText, mobile: oddText, position: oddText, agency: nullable(name) },
    { requiredKeys: ['key', 'name'], noNullPrototype: true },
  );
  const agency: fc.Arbitrary<FeedAgency> = fc.record(
    { key: name, name, email: oddText, phone: oddText, website: oddText, address: oddText },
    { requiredKeys: ['key', 'name'], noNullPrototype: true },
  );

  it('gives back every field of agencies, agents and listings', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(agency, { maxLength: 3 }),
        fc.array(agent, { maxLength: 3 }),
        fc.array(listing, { maxLength: 4 }),
        fc.integer({ min: 1, max: 64 }),
        async (agencies, agents, listings, chunkSize) => {
          const records = await read(await write({ agencies, agents, listings }), chunkSize);
          expect(records).toStrictEqual([
            ...agencies.map((item, n) => ({ kind: 'agency', at: `Office[${n}]`, agency: item })),
            ...agents.map((item, n) => ({ kind: 'agent', at: `Member[${n}]`, agent: item })),
            ...listings.map((item, n) => ({ kind: 'listing', at: `Property[${n}]`, listing: item })),
          ]);
        },
      ),
      { numRuns: 200 },
    );
  });
});
