import { StringDecoder } from 'node:string_decoder';
import { SaxesParser, type SaxesOptions } from 'saxes';
import { FeedSyntaxError } from './feed-records.js';

/**
 * A saxes parser for a feed document, with the refusals every XML format here shares: any DOCTYPE (no feed
 * needs one, and refusing it rules out entity tricks such as billion laughs), an encoding other than UTF-8, and
 * every parse error thrown as `FeedSyntaxError` at its line. `failAt` throws one for the caller's own checks.
 */
export function feedXmlParser<O extends SaxesOptions = Record<never, never>>(
  documentName: string,
  options?: O,
): { parser: SaxesParser<O>; failAt: (reason: string) => never } {
  const parser = new SaxesParser<O>(options);
  const failAt = (reason: string): never => {
    throw new FeedSyntaxError(`line ${parser.line}`, reason);
  };
  // saxes prefixes "line:column: "; `at` says the line already.
  parser.on('error', (error) => failAt(error.message.replace(/^\d+:\d+: /, '')));
  parser.on('doctype', () => failAt(`a DOCTYPE is not allowed in ${documentName} (entity declarations are refused)`));
  parser.on('xmldecl', ({ encoding }) => {
    if (encoding !== undefined && !/^(utf-?8|us-ascii)$/i.test(encoding)) {
      failAt(`the encoding ${encoding} is not supported: convert the file to UTF-8`);
    }
  });
  return { parser, failAt };
}

/**
 * Feeds `input` to the parser chunk by chunk and yields what its handlers put in `ready` after each chunk, so
 * that one record at a time is held. Bytes are decoded as UTF-8 across chunk boundaries.
 */
export async function* parsedRecords<T, O extends SaxesOptions>(
  parser: SaxesParser<O>,
  input: NodeJS.ReadableStream,
  ready: T[],
): AsyncGenerator<T> {
  const decoder = new StringDecoder('utf8');
  for await (const chunk of input) {
    parser.write(typeof chunk === 'string' ? chunk : decoder.write(chunk as Buffer));
    yield* ready.splice(0);
  }
  parser.write(decoder.end());
  parser.close();
  yield* ready.splice(0);
}
