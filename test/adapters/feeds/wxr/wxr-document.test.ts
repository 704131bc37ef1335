import { existsSync, readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FeedSyntaxError } from '../../../../src/adapters/feeds/feed-records.js';
import { type WxrRecord, readWxrSite } from '../../../../src/adapters/feeds/wxr/wxr-reader.js';
import { item, only, read, spoolFile, streamOf, wxr } from './wxr-test-helpers.js';

const SITE = readFileSync(new URL('./fixtures/houzez-site.xml', import.meta.url), 'utf8');

describe('readWxrSite streams', () => {
  it('reads the same records whatever the chunk size (multi-byte characters split between chunks)', async () => {
    const whole = await read(SITE, 1 << 20);
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 97 }), async (size) => {
        expect(await read(SITE, size)).toEqual(whole);
      }),
      { numRuns: 25 },
    );
  });

  it('reads the file once, chunk by chunk', async () => {
    let chunks = 0;
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of streamOf(SITE, 7)) {
          chunks += 1;
          yield chunk as Buffer;
        }
      })(),
    );
    const records: WxrRecord[] = [];
    for await (const record of readWxrSite(counted, spoolFile())) records.push(record);
    expect(chunks).toBe(Math.ceil(Buffer.byteLength(SITE) / 7));
    expect(only(records, 'listing')).toHaveLength(2);
  });

  it('sets the properties aside on disk until the file is read, and removes them however the reading ends', async () => {
    const text = wxr(
      [
        item('1', 'property', { meta: { fave_property_price: '10', fave_property_images: '9' } }),
        item('2', 'property'),
        item('9', 'attachment', { extra: '<wp:attachment_url>https://img.example/9.jpg</wp:attachment_url>' }),
      ].join('\n'),
    );
    const spool = spoolFile();
    const records = readWxrSite(Readable.from([text]), spool)[Symbol.asyncIterator]();
    const first = await records.next();
    // The picture comes after the property in the file: the property waited for it.
    expect(first.value).toMatchObject({
      kind: 'listing',
      at: 'line 4',
      listing: { key: '1', price: 10, images: ['https://img.example/9.jpg'] },
    });
    expect(existsSync(spool)).toBe(true);
    await records.return?.();
    expect(existsSync(spool)).toBe(false);

    const whole = spoolFile();
    expect(only(await collect(readWxrSite(Readable.from([text]), whole)), 'listing').map((record) => record.listing.key)).toEqual([
      '1',
      '2',
    ]);
    expect(existsSync(whole)).toBe(false);

    const broken = spoolFile();
    await expect(collect(readWxrSite(Readable.from([text.replace('</rss>', '</rs>')]), broken))).rejects.toThrow(FeedSyntaxError);
    expect(existsSync(broken)).toBe(false);
  });
});

async function collect(records: AsyncIterable<WxrRecord>): Promise<WxrRecord[]> {
  const all: WxrRecord[] = [];
  for await (const record of records) all.push(record);
  return all;
}

describe('readWxrSite refuses what is not a WordPress export', () => {
  it('throws FeedSyntaxError on malformed XML, before yielding anything', async () => {
    for (const text of [
      'id,price\n1,2\n',
      '',
      SITE.slice(0, 9000),
      SITE.replace('</wp:post_type>', '</wp:post_typo>'),
      '<rss><channel><wp:term/></channel></rss>',
    ]) {
      const received: WxrRecord[] = [];
      const error = await (async () => {
        for await (const record of readWxrSite(streamOf(text), spoolFile())) received.push(record);
      })().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(FeedSyntaxError);
      expect(received).toEqual([]);
    }
  });

  it('says on which line the document breaks', async () => {
    const error = await read(wxr('<item>\n<title>x</titel>\n</item>')).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(FeedSyntaxError);
    expect((error as FeedSyntaxError).at).toBe('line 5');
  });

  it('refuses a root other than <rss>', async () => {
    await expect(read('<feed><entry/></feed>')).rejects.toThrow("the root element is <feed>; a WordPress export's is <rss>");
  });

  it('refuses a DOCTYPE declaring entities (billion laughs, external entities)', async () => {
    const laughs = `<?xml version="1.0"?>
<!DOCTYPE rss [
  <!ENTITY lol "lol">
  <!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
]>
<rss><channel><item><title>&lol2;</title></item></channel></rss>`;
    const external =
      '<!DOCTYPE rss [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><rss><channel><item><title>&xxe;</title></item></channel></rss>';
    for (const text of [laughs, external]) {
      await expect(read(text)).rejects.toThrow(FeedSyntaxError);
      await expect(read(text)).rejects.toThrow(/DOCTYPE is not allowed/);
    }
  });

  it('refuses an encoding other than UTF-8 rather than misreading it', async () => {
    await expect(read('<?xml version="1.0" encoding="ISO-8859-1"?><rss/>')).rejects.toThrow(/convert the file to UTF-8/);
  });
});
