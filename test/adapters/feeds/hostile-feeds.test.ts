import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CSV_MAX_RECORD_SIZE, readCsvFeed } from '../../../src/adapters/feeds/csv.js';
import { type FeedReader, FeedSyntaxError } from '../../../src/adapters/feeds/feed-records.js';
import { KYERO_MAX_PIECE, readKyeroFeed } from '../../../src/adapters/feeds/kyero.js';
import { readResoFeed } from '../../../src/adapters/feeds/reso.js';
import { readWxrEntries } from '../../../src/adapters/feeds/wxr/wxr-xml.js';
import { MAX_XML_DEPTH } from '../../../src/adapters/feeds/xml-parser.js';
import { item, wxr } from './wxr/wxr-test-helpers.js';

/**
 * What an attacker's probe sent the readers (issue 38): elements nested tens of thousands deep, a header cell of
 * megabytes, bytes that are not UTF-8. Each is refused at its place in the file, with a short message.
 */

type Reader = (input: NodeJS.ReadableStream) => AsyncIterable<unknown>;
/** A WordPress export's XML layer: the refusals are its. */
const wxrReader: Reader = readWxrEntries;

/** The chunks as a stream of bytes (a string stands for its UTF-8). */
function streamOf(...chunks: (string | Buffer)[]): Readable {
  return Readable.from(chunks.map((chunk) => (typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk)));
}

async function recordsOf(read: Reader | FeedReader, ...chunks: (string | Buffer)[]): Promise<unknown[]> {
  const records: unknown[] = [];
  for await (const record of read(streamOf(...chunks))) records.push(record);
  return records;
}

async function refusalOf(read: Reader | FeedReader, ...chunks: (string | Buffer)[]): Promise<FeedSyntaxError> {
  const error = await recordsOf(read, ...chunks).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(FeedSyntaxError);
  return error as FeedSyntaxError;
}

/** A Kyero feed of one property whose description nests `levels` elements below `<en>` (at depth 4), on line 3. */
function kyeroNested(levels: number): string {
  return (
    '<?xml version="1.0"?>\n<root><kyero><feed_version>3</feed_version></kyero>\n' +
    `<property><id>D</id><price>1</price><desc><en>${'<b>'.repeat(levels)}x${'</b>'.repeat(levels)}</en></desc></property></root>\n`
  );
}

/** A WordPress export of one property whose content nests `levels` elements below `<content:encoded>` (depth 4), on line 4. */
function wxrNested(levels: number): string {
  return wxr(item('1', 'property', { extra: `<content:encoded>${'<a>'.repeat(levels)}x${'</a>'.repeat(levels)}</content:encoded>` }));
}

describe('nesting', () => {
  it(`reads elements ${MAX_XML_DEPTH} deep and refuses one deeper, at its line`, async () => {
    const deepest = MAX_XML_DEPTH - 4;
    const [kyero] = (await recordsOf(readKyeroFeed, kyeroNested(deepest))) as { kind: string; listing: { key: string } }[];
    expect(kyero).toMatchObject({ kind: 'listing', at: 'line 3', listing: { key: 'D', price: 1 } });
    expect((await refusalOf(readKyeroFeed, kyeroNested(deepest + 1))).message).toBe(
      `line 3: elements are nested more than ${MAX_XML_DEPTH} levels deep; a Kyero feed needs a few`,
    );
    expect(await recordsOf(wxrReader, wxrNested(deepest))).toEqual([expect.objectContaining({ kind: 'item', at: 'line 4' })]);
    expect((await refusalOf(wxrReader, wxrNested(deepest + 1))).message).toBe(
      `line 4: elements are nested more than ${MAX_XML_DEPTH} levels deep; a WordPress export needs a few`,
    );
  });

  it('reads a property nested within the cap as the same listing as one nested one level', async () => {
    // Text inside child elements of <en> is not the description's, at any depth.
    expect(await recordsOf(readKyeroFeed, kyeroNested(MAX_XML_DEPTH - 4))).toEqual(await recordsOf(readKyeroFeed, kyeroNested(1)));
  });

  it('refuses the probe’s files, 80,000 deep (Kyero) and 20,000 deep (WordPress), at their line, reading no further', async () => {
    let chunksRead = 0;
    const chunks = (text: string) =>
      Readable.from(
        (function* () {
          const bytes = Buffer.from(text);
          for (let at = 0; at < bytes.length; at += 64 * 1024) {
            chunksRead++;
            yield bytes.subarray(at, at + 64 * 1024);
          }
        })(),
      );
    const kyero = kyeroNested(80_000);
    const error = await (async () => {
      for await (const _ of readKyeroFeed(chunks(kyero)));
    })().catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(FeedSyntaxError);
    expect((error as FeedSyntaxError).at).toBe('line 3');
    // The file is 560 KB, nine chunks; the refusal comes in the first.
    expect(chunksRead).toBe(1);
    expect((await refusalOf(wxrReader, wxrNested(20_000))).at).toBe('line 4');
  });
});

describe('sizes', () => {
  it('refuses an XML text longer than the format’s longest piece, at the line where it begins', async () => {
    const long = 'x'.repeat(KYERO_MAX_PIECE + 1);
    const feed = (description: string, ...pieces: string[]) => [
      `<root>\n<property><id>A</id>\n<desc><en>${description}`,
      ...pieces,
      '</en></desc></property></root>',
    ];
    expect((await refusalOf(readKyeroFeed, ...feed(long))).message).toBe(
      'line 3: a text, tag or comment longer than 1,048,576 characters begins here; a Kyero feed needs none that long',
    );
    // In one chunk or in many, as a CDATA section or in a start tag, alike.
    const inPieces = Array.from({ length: 20 }, () => 'y'.repeat(64 * 1024));
    expect((await refusalOf(readKyeroFeed, ...feed('', ...inPieces))).at).toBe('line 3');
    expect((await refusalOf(readKyeroFeed, ...feed(`<![CDATA[${long}]]>`))).at).toBe('line 3');
    expect((await refusalOf(readKyeroFeed, `<root>\n<property id="${long}"/></root>`)).at).toBe('line 2');
    // A description at the API's limit is nowhere near it.
    expect(await recordsOf(readKyeroFeed, ...feed('z'.repeat(20_000)))).toHaveLength(1);
  });

  it('refuses a 20 MB header name in under a kilobyte, and a record past CSV_MAX_RECORD_SIZE at its line', async () => {
    const name = 'n'.repeat(20 * 1024 * 1024);
    const refusal = await refusalOf(readCsvFeed, `key,${name}\nA,1\n`);
    expect(refusal.message.length).toBeLessThan(1024);
    expect(refusal.message).toMatch(/^line 1: a record is longer than 1,048,576 characters/);

    const unknown = await refusalOf(readCsvFeed, `key,${'u'.repeat(5000)}\nA,1\n`);
    expect(unknown.message).toMatch(/^line 1: unknown column "u{100}…"; the columns are: key, title/);
    expect(unknown.message.length).toBeLessThan(1024);

    const row = await refusalOf(readCsvFeed, `key,title\nA,First house\nB,${'t'.repeat(CSV_MAX_RECORD_SIZE + 10)}\n`);
    expect(row.at).toBe('line 3');
  });

  it('cuts what a parser quotes of the file', async () => {
    const refusal = await refusalOf(readCsvFeed, `key,"tit"${'e'.repeat(5000)}\nA,1\n`);
    expect(refusal.message).toMatch(/^line 1: Invalid Closing Quote/);
    expect(refusal.message.length).toBeLessThan(400);
    const rss = await refusalOf(wxrReader, `<${'r'.repeat(5000)}/>`);
    expect(rss.message).toBe(`line 1: the root element is <${'r'.repeat(100)}…>; a WordPress export's is <rss>`);
  });
});

describe('UTF-8', () => {
  const LATIN_1_E = Buffer.from([0xe9]);
  const cases: [string, Reader | FeedReader, string, string, string][] = [
    ['CSV', readCsvFeed, 'key,title,city\nA,First house,Paris\nB,Second house,Caf', ' Noir\n', 'line 3, column 19'],
    ['Kyero', readKyeroFeed, '<root>\n<property><id>A</id>\n<town>Caf', '</town></property></root>\n', 'line 3, column 10'],
    ['RESO', readResoFeed, '{"Property": [\n{"ListingKey": "A",\n "City": "Caf', '"}]}\n', 'line 3, column 14'],
    ['WordPress', wxrReader, wxr(item('1', 'property', { title: 'Caf' })).split('Caf')[0]! + 'Caf', 'x', 'line 4, column 26'],
  ];

  it.each(cases)('refuses a %s file with a byte that is not UTF-8 at its line and column', async (_format, read, before, after, at) => {
    const refusal = await refusalOf(read, Buffer.concat([Buffer.from(before), LATIN_1_E, Buffer.from(after)]));
    expect(refusal.message).toBe(`${at}: the file is not valid UTF-8 (byte 0xE9): save it as UTF-8`);
    // Split between chunks, and at the very end of the file, alike.
    expect((await refusalOf(read, before, LATIN_1_E, after)).at).toBe(at);
    expect((await refusalOf(read, before, LATIN_1_E)).at).toBe(at);
  });

  it('counts the column in characters, whatever their bytes', async () => {
    // "É1,Maison à " is 12 characters (14 bytes); the lead byte 0xC3 that "(" does not continue is the 13th.
    const refusal = await refusalOf(readCsvFeed, 'key,title\nÉ1,Maison à ', Buffer.from([0xc3]), '(\n');
    expect(refusal.message).toBe('line 2, column 13: the file is not valid UTF-8 (byte 0xC3): save it as UTF-8');
  });

  it('takes a byte-order mark at the start of any format, split or not', async () => {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    expect(await recordsOf(readCsvFeed, bom, 'key,title\nA,Café house\n')).toEqual([
      { kind: 'listing', at: 'line 2', listing: { key: 'A', title: 'Café house' } },
    ]);
    expect(await recordsOf(readCsvFeed, bom.subarray(0, 1), bom.subarray(1), 'key\nA\n')).toHaveLength(1);
    expect(await recordsOf(readKyeroFeed, bom, '<root><property><id>A</id><town>Málaga</town></property></root>')).toEqual([
      expect.objectContaining({ listing: expect.objectContaining({ key: 'A', city: 'Málaga' }) }),
    ]);
    expect(await recordsOf(readResoFeed, bom, '{"Property":[{"ListingKey":"A"}]}')).toHaveLength(1);
    expect(await recordsOf(wxrReader, bom, wxr(item('1', 'property')))).toHaveLength(1);
  });

  it('still refuses an XML declaration of another encoding', async () => {
    const refusal = await refusalOf(readKyeroFeed, '<?xml version="1.0" encoding="ISO-8859-1"?>\n<root/>');
    expect(refusal.message).toBe('line 1: the encoding ISO-8859-1 is not supported: convert the file to UTF-8');
  });
});
