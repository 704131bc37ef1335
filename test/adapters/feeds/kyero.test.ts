import { PassThrough, Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type FeedListing, type FeedRecord, FeedSyntaxError } from '../../../src/adapters/feeds/feed-records.js';
import { kyeroWriter, readKyeroFeed, writeKyeroFeed } from '../../../src/adapters/feeds/kyero.js';

/** The text as a stream of small byte chunks, so that elements and multi-byte characters straddle chunks. */
function streamOf(text: string, size = 7): Readable {
  const bytes = Buffer.from(text, 'utf8');
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return Readable.from(chunks);
}

async function read(text: string, chunkSize?: number): Promise<FeedRecord[]> {
  const records: FeedRecord[] = [];
  for await (const record of readKyeroFeed(streamOf(text, chunkSize))) records.push(record);
  return records;
}

async function* each<T>(items: readonly T[]): AsyncIterable<T> {
  yield* items;
}

async function write(listings: readonly FeedListing[], writer = writeKyeroFeed): Promise<string> {
  let text = '';
  for await (const piece of writer({ agencies: each([]), agents: each([]), listings: each(listings) })) text += piece;
  return text;
}

async function listingsOf(text: string, chunkSize?: number): Promise<FeedListing[]> {
  return (await read(text, chunkSize)).map((record) => {
    if (record.kind !== 'listing') throw new Error(`not a listing: ${JSON.stringify(record)}`);
    return record.listing;
  });
}

const SAMPLE = `<?xml version="1.0" encoding="UTF-8"?>
<root>
  <kyero>
    <feed_version>3</feed_version>
  </kyero>
  <property>
    <id>V-1001</id>
    <date>2024-03-05 14:30:00</date>
    <ref>MAR-1001</ref>
    <price>495000</price>
    <currency>EUR</currency>
    <price_freq>sale</price_freq>
    <part_ownership>0</part_ownership>
    <leasehold>0</leasehold>
    <new_build>1</new_build>
    <type>Villa</type>
    <town>Marbella</town>
    <province>Málaga</province>
    <country>Spain</country>
    <location_detail>Nueva Andalucía</location_detail>
    <location>
      <latitude>36.5101</latitude>
      <longitude>-4.8824</longitude>
    </location>
    <beds>4</beds>
    <baths>3</baths>
    <pool>1</pool>
    <surface_area>
      <built>240.5</built>
      <plot>1100</plot>
    </surface_area>
    <energy_rating><consumption>B</consumption></energy_rating>
    <url><en>https://agency.example/villa-1001</en></url>
    <desc>
      <es><![CDATA[Villa <b>luminosa</b> con vistas.]]></es>
      <en><![CDATA[Bright villa with <b>sea views</b> & a garden.]]></en>
    </desc>
    <features>
      <feature>Air Conditioning</feature>
      <feature> Sea Views </feature>
    </features>
    <images>
      <image id="2"><url>https://img.example/1001-b.jpg</url></image>
      <image id="1"><url>https://img.example/1001-a.jpg</url></image>
    </images>
  </property>
  <property>
    <id>V-1002</id>
    <ref>EST-2</ref>
    <price>1200</price>
    <price_freq>month</price_freq>
    <new_build>0</new_build>
    <type>Apartment</type>
    <pool>0</pool>
    <desc>
      <fr>Appartement au centre.</fr>
      <de>Wohnung im Zentrum.</de>
    </desc>
  </property>
  <property>
    <id>V-1003</id>
    <price>850</price>
    <price_freq>week</price_freq>
    <town>Nerja</town>
  </property>
</root>
`;

describe('readKyeroFeed', () => {
  it('maps each property of a Kyero v3 feed to a listing, at the line where it starts', async () => {
    const records = await read(SAMPLE);
    expect(records.map((record) => [record.kind, record.at])).toEqual([
      ['listing', 'line 6'],
      ['listing', 'line 47'],
      ['listing', 'line 60'],
    ]);
    expect(await listingsOf(SAMPLE)).toEqual([
      {
        key: 'V-1001',
        status: 'publish',
        title: 'Villa in Marbella',
        updated_at: '2024-03-05T14:30:00.000Z',
        reference: 'MAR-1001',
        price: 495000,
        currency: 'EUR',
        statuses: ['For Sale'],
        types: ['Villa'],
        city: 'Marbella',
        state: 'Málaga',
        country: 'Spain',
        area: 'Nueva Andalucía',
        latitude: 36.5101,
        longitude: -4.8824,
        bedrooms: 4,
        bathrooms: 3,
        size: 240.5,
        size_unit: 'm2',
        land_size: 1100,
        land_size_unit: 'm2',
        description: 'Bright villa with <b>sea views</b> & a garden.',
        features: ['Air Conditioning', 'Sea Views', 'Pool', 'New Build'],
        images: ['https://img.example/1001-a.jpg', 'https://img.example/1001-b.jpg'],
      },
      {
        key: 'V-1002',
        status: 'publish',
        title: 'Apartment',
        reference: 'EST-2',
        price: 1200,
        statuses: ['For Rent'],
        price_postfix: '/month',
        types: ['Apartment'],
        features: [],
        description: 'Appartement au centre.',
      },
      { key: 'V-1003', status: 'publish', title: 'Nerja', price: 850, statuses: ['For Rent'], price_postfix: '/week', city: 'Nerja' },
    ]);
  });

  it('names "Property {ref or id}" when neither type nor town is given', async () => {
    const feed = '<root><property><id>A</id><ref>R-9</ref></property><property><id>B</id></property></root>';
    expect((await listingsOf(feed)).map((listing) => listing.title)).toEqual(['Property R-9', 'Property B']);
  });

  it('reports a property without an id as unreadable, and goes on with the next', async () => {
    const feed = [
      '<root>',
      '  <property><ref>NO-ID</ref><price>100</price></property>',
      '  <property><id>P-2</id></property>',
      '</root>',
    ].join('\n');
    expect(await read(feed)).toEqual([
      { kind: 'unreadable', at: 'line 2', field: 'key', reason: 'is required' },
      { kind: 'listing', at: 'line 3', listing: { key: 'P-2', status: 'publish', title: 'Property P-2' } },
    ]);
  });

  it('leaves out an optional value it cannot read, with a warning naming the field: the listing is still read', async () => {
    const feed = [
      '<root>',
      '  <property><id>P-2</id><price>abc</price><beds>3</beds></property>',
      '  <property><id>P-3</id><price>-5</price></property>',
      '  <property><id>P-4</id><price_freq>year</price_freq></property>',
      '  <property><id>P-5</id><pool>yes</pool></property>',
      '  <property><id>P-6</id><beds>2.5</beds><baths>two</baths></property>',
      '  <property><id>P-7</id><location><latitude>91</latitude><longitude>36,5</longitude></location></property>',
      '  <property><id>P-8</id><date>2024-02-30 10:00:00</date></property>',
      '  <property><id>P-9</id><price>0x10</price><surface_area><built>120 m²</built></surface_area></property>',
      '  <property><id>P-10</id><price>250,000</price><surface_area><built>1 200</built></surface_area></property>',
      '</root>',
    ].join('\n');
    const listing = (id: string, fields: object = {}) => ({ key: id, status: 'publish', title: `Property ${id}`, ...fields });
    const number = 'must be of type number';
    expect(await read(feed)).toEqual([
      { kind: 'listing', at: 'line 2', listing: listing('P-2', { bedrooms: 3 }), warnings: [{ field: 'price', reason: number }] },
      { kind: 'listing', at: 'line 3', listing: listing('P-3'), warnings: [{ field: 'price', reason: 'must be at least 0' }] },
      {
        kind: 'listing',
        at: 'line 4',
        listing: listing('P-4'),
        warnings: [{ field: 'statuses', reason: 'must be one of: sale, month, week' }],
      },
      {
        kind: 'listing',
        at: 'line 5',
        listing: listing('P-5'),
        warnings: [{ field: 'features', reason: 'must be one of: 0, 1 (in <pool>)' }],
      },
      {
        kind: 'listing',
        at: 'line 6',
        listing: listing('P-6'),
        warnings: [
          { field: 'bedrooms', reason: 'must be of type integer' },
          { field: 'bathrooms', reason: number },
        ],
      },
      {
        kind: 'listing',
        at: 'line 7',
        listing: listing('P-7'),
        warnings: [
          { field: 'latitude', reason: 'must be at most 90' },
          { field: 'longitude', reason: number },
        ],
      },
      {
        kind: 'listing',
        at: 'line 8',
        listing: listing('P-8'),
        warnings: [{ field: 'updated_at', reason: 'must be a valid date-time (YYYY-MM-DD HH:MM:SS)' }],
      },
      {
        kind: 'listing',
        at: 'line 9',
        listing: listing('P-9'),
        warnings: [
          { field: 'price', reason: number },
          { field: 'size', reason: 'must be of type number (a number alone: the unit and currency have fields of their own)' },
        ],
      },
      { kind: 'listing', at: 'line 10', listing: listing('P-10', { price: 250000, size: 1200, size_unit: 'm2' }) },
    ]);
  });

  it('throws FeedSyntaxError on a document that is not well-formed XML', async () => {
    await expect(read('id,price\n1,2\n')).rejects.toThrow(FeedSyntaxError);
    await expect(read('<root><property><id>1</id></property>')).rejects.toThrow(FeedSyntaxError);
    await expect(read('<root><property><id>1</price></property></root>')).rejects.toThrow(FeedSyntaxError);
    await expect(read('<root><property><id>&nbsp;</id></property></root>')).rejects.toThrow(FeedSyntaxError);
    await expect(read('')).rejects.toThrow(FeedSyntaxError);
  });

  it('says on which line the document breaks', async () => {
    const error = await read('<root>\n<property>\n<id>1</id>\n</propertyx>\n</root>').catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FeedSyntaxError);
    expect((error as FeedSyntaxError).at).toBe('line 4');
  });

  it('refuses a root other than <root>', async () => {
    await expect(read('<properties><property><id>1</id></property></properties>')).rejects.toThrow(
      "the root element is <properties>; a Kyero feed's is <root>",
    );
  });

  it('refuses a DOCTYPE declaring entities (billion laughs, external entities)', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE root [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<root><property><id>&lol2;</id></property></root>`;
    const external = '<!DOCTYPE root [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><root><property><id>&xxe;</id></property></root>';
    for (const feed of [laughs, external]) {
      await expect(read(feed)).rejects.toThrow(FeedSyntaxError);
      await expect(read(feed)).rejects.toThrow(/DOCTYPE is not allowed/);
    }
  });

  it('refuses an encoding other than UTF-8 rather than misreading it', async () => {
    await expect(read('<?xml version="1.0" encoding="ISO-8859-1"?><root/>')).rejects.toThrow(/convert the file to UTF-8/);
  });

  it('yields a property as soon as it is closed, before the input has ended', async () => {
    const input = new PassThrough();
    const records = readKyeroFeed(input)[Symbol.asyncIterator]();
    input.write('<root>\n  <property><id>S-1</id><price>10</price></property>\n  <property><id>S-');
    const first = await records.next();
    expect(first.value).toMatchObject({ kind: 'listing', at: 'line 2', listing: { key: 'S-1', price: 10 } });
    expect(input.writableEnded).toBe(false);
    input.end('2</id></property>\n</root>\n');
    expect((await records.next()).value).toMatchObject({ kind: 'listing', at: 'line 3', listing: { key: 'S-2' } });
    expect((await records.next()).done).toBe(true);
  });
});

const FULL: FeedListing = {
  key: 'L-1',
  status: 'publish',
  title: 'Townhouse in Estepona',
  updated_at: '2024-06-01T08:09:10.000Z',
  reference: `R&D <"quoted"> 'single' ]]> end`,
  price: 315000,
  currency: 'EUR',
  statuses: ['For Sale'],
  types: ['Townhouse'],
  city: 'Estepona & Co <old town>',
  state: 'Málaga',
  country: 'Spain',
  area: 'Casco Antiguo',
  latitude: 36.4257,
  longitude: -5.1463,
  bedrooms: 3,
  bathrooms: 2,
  size: 145,
  size_unit: 'm2',
  land_size: 60,
  land_size_unit: 'm2',
  description: '<p>Charming "casa" with a <b>roof terrace</b> & a ]]> marker, it\'s 5 > 3.</p>\nSecond line\r\nthird',
  features: ['Roof Terrace', 'Pool', 'Garage', 'New Build'],
  images: ['https://img.example/a.jpg?w=1&h=2', 'https://img.example/b.jpg'],
};

describe('writeKyeroFeed', () => {
  it('writes a Kyero v3 document', async () => {
    const xml = await write([FULL]);
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<root>\n {2}<kyero><feed_version>3<\/feed_version><\/kyero>\n/);
    expect(xml).toContain('<price_freq>sale</price_freq>');
    expect(xml).toContain('<new_build>1</new_build>');
    expect(xml).toContain('<pool>1</pool>');
    expect(xml).toContain('<features><feature>Roof Terrace</feature><feature>Garage</feature></features>');
    expect(xml).toContain('<date>2024-06-01 08:09:10</date>');
    expect(xml).toContain('<ref>R&amp;D &lt;&quot;quoted&quot;&gt; &apos;single&apos; ]]&gt; end</ref>');
    expect(xml).not.toContain('<title>');
    expect(xml.trimEnd().endsWith('</root>')).toBe(true);
  });

  it('reads back every mapped field (round trip), special characters included', async () => {
    const [listing] = await listingsOf(await write([FULL]));
    expect(listing).toEqual({
      ...FULL,
      title: 'Townhouse in Estepona & Co <old town>',
      features: ['Roof Terrace', 'Garage', 'Pool', 'New Build'],
    });
  });

  it('round-trips a rental by the month and by the week', async () => {
    const monthly: FeedListing = { key: 'M', status: 'publish', price: 1500, statuses: ['To Let'], price_postfix: '/month' };
    const weekly: FeedListing = { key: 'W', status: 'publish', price: 700, statuses: ['For Rent'], price_postfix: 'per week' };
    const completed: FeedListing = { key: 'C', status: 'publish', price: 9, statuses: ['Completed'] };
    const xml = await write([monthly, weekly, completed]);
    expect(xml.match(/<price_freq>\w+<\/price_freq>/g)).toEqual([
      '<price_freq>month</price_freq>',
      '<price_freq>week</price_freq>',
      '<price_freq>sale</price_freq>',
    ]);
    expect((await listingsOf(xml)).map(({ statuses, price_postfix }) => ({ statuses, price_postfix }))).toEqual([
      { statuses: ['For Rent'], price_postfix: '/month' },
      { statuses: ['For Rent'], price_postfix: '/week' },
      { statuses: ['For Sale'], price_postfix: undefined },
    ]);
  });

  it('writes areas in whole square metres and prices as integers', async () => {
    const listing: FeedListing = { key: 'F', status: 'publish', price: 199999.6, size: 1500, size_unit: 'sqft', land_size: 10.4 };
    const xml = await write([listing]);
    expect(xml).toContain('<price>200000</price>');
    expect(xml).toContain('<surface_area><built>139</built><plot>10</plot></surface_area>');
  });

  it('writes only published listings', async () => {
    const states = ['draft', 'pending', 'publish', 'on_hold', 'disapproved', 'expired', 'sold'] as const;
    const xml = await write(states.map((status) => ({ key: `K-${status}`, status })));
    expect((await listingsOf(xml)).map((listing) => listing.key)).toEqual(['K-publish']);
  });

  it('writes the listing URL the caller gives, and none by default', async () => {
    const listing: FeedListing = { key: 'U-1', status: 'publish' };
    const withUrl = kyeroWriter({ listingUrl: (item) => `https://homes.example/listing/${item.key}?a=1&b=2` });
    expect(await write([listing], withUrl)).toContain('<url><en>https://homes.example/listing/U-1?a=1&amp;b=2</en></url>');
    expect(await write([listing])).not.toContain('<url>');
  });

  it('keeps any text of reference, description and city through write → read', async () => {
    // What comes back: XML 1.0 cannot carry most control characters or lone surrogates, and values are trimmed.
    const carried = (text: string) => text.replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '').trim() || undefined;
    const text = fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.constantFrom(']]>', '&amp;', '<![CDATA[x]]>', ' \r\n '));
    await fc.assert(
      fc.asyncProperty(text, text, text, async (reference, description, city) => {
        const [listing] = await listingsOf(await write([{ key: 'P', status: 'publish', reference, description, city }]), 4096);
        const back = { reference: listing?.reference, description: listing?.description, city: listing?.city };
        expect(back).toEqual({ reference: carried(reference), description: carried(description), city: carried(city) });
      }),
      { numRuns: 200 },
    );
  });
});
