import { FeedSyntaxError } from './feed-records.js';

/**
 * A feed file's text, decoded as UTF-8 chunk by chunk (a byte-order mark at its start is dropped). A byte that is
 * not UTF-8 refuses the file at its line and column, after the text before it: a Latin-1 file read as UTF-8 would
 * otherwise import "Caf\uFFFD" into listings and terms without a word. Strings (a test's stream) are taken as the
 * UTF-8 bytes they stand for.
 */
export async function* utf8Text(input: AsyncIterable<Buffer | string>): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const place = new TextPlace();
  // The bytes of a character that the last chunk began and did not finish.
  let carry: Uint8Array = new Uint8Array(0);
  for await (const chunk of input) {
    const bytes = joined(carry, typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
    const end = wholeCharactersEnd(bytes);
    carry = bytes.subarray(end);
    yield* decodedOrRefused(decoder, bytes.subarray(0, end), place);
  }
  // The file ends inside a character.
  if (carry.length > 0) throw refusal(place, carry[0]!);
}

/** Where the text decoded so far ends: lines and the column after the last line break (both from 1). */
class TextPlace {
  line = 1;
  column = 1;

  advance(text: string): void {
    let lastBreak = -1;
    for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) {
      this.line++;
      lastBreak = at;
    }
    this.column = lastBreak === -1 ? this.column + text.length : text.length - lastBreak;
  }
}

/** The bytes' text, or (when one of them is not UTF-8) the text before it and then the refusal. */
function* decodedOrRefused(decoder: TextDecoder, bytes: Uint8Array, place: TextPlace): Generator<string> {
  if (bytes.length === 0) return;
  let text: string;
  try {
    // `stream` keeps the decoder's place in the file, so that the byte-order mark is dropped at its start only.
    text = decoder.decode(bytes, { stream: true });
  } catch {
    const bad = firstBadByte(bytes);
    const before = new TextDecoder('utf-8', { ignoreBOM: place.line > 1 || place.column > 1 }).decode(bytes.subarray(0, bad));
    place.advance(before);
    if (before !== '') yield before;
    throw refusal(place, bytes[bad]!);
  }
  place.advance(text);
  if (text !== '') yield text;
}

function refusal(place: TextPlace, byte: number): FeedSyntaxError {
  const hex = byte.toString(16).toUpperCase().padStart(2, '0');
  return new FeedSyntaxError(`line ${place.line}, column ${place.column}`, `the file is not valid UTF-8 (byte 0x${hex}): save it as UTF-8`);
}

/**
 * Where the last whole character of `bytes` ends: an unfinished one at the end waits for the next chunk. A UTF-8
 * character is a lead byte (not 10xxxxxx) that says its length, then up to three continuation bytes (10xxxxxx).
 */
function wholeCharactersEnd(bytes: Uint8Array): number {
  for (let back = 1; back <= Math.min(4, bytes.length); back++) {
    const byte = bytes[bytes.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return length > back ? bytes.length - back : bytes.length;
  }
  // Only continuation bytes at the end: not UTF-8, which the decoder says.
  return bytes.length;
}

/** The first byte of the character that makes `bytes` fail to decode (searched only once the file is refused). */
function firstBadByte(bytes: Uint8Array): number {
  // The longest start that decodes, allowing an unfinished character at its end, then back to that character's start.
  let good = 0;
  let bad = bytes.length;
  while (bad - good > 1) {
    const middle = (good + bad) >>> 1;
    if (decodes(bytes.subarray(0, middle), true)) good = middle;
    else bad = middle;
  }
  let start = good;
  while (start > 0 && !decodes(bytes.subarray(0, start), false)) start--;
  return start;
}

function decodes(bytes: Uint8Array, unfinishedEnd: boolean): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: unfinishedEnd });
    return true;
  } catch {
    return false;
  }
}

function joined(carry: Uint8Array, chunk: Uint8Array): Uint8Array {
  if (carry.length === 0) return chunk;
  const bytes = new Uint8Array(carry.length + chunk.length);
  bytes.set(carry);
  bytes.set(chunk, carry.length);
  return bytes;
}
