import { SaxesParser, type SaxesOptions, type TagForOptions } from 'saxes';
import { FeedSyntaxError, PARSER_MESSAGE_MAX, shortened } from './feed-records.js';
import { utf8Text } from './utf8-text.js';

/**
 * How deep elements may nest, the root being at depth 1. A feed needs a handful of levels (a WordPress post meta
 * value is at 5, a Kyero image URL at 5); a description's HTML goes in CDATA. The cap is what keeps a hostile file
 * of 80,000 nested elements from costing anything: it is refused at the 65th, as that element opens.
 */
export const MAX_XML_DEPTH = 64;

/** What a reader hears of the document; the parser's own events stay here. */
export interface FeedXmlHandlers<O extends SaxesOptions> {
  /** An element opens at `depth` (the root's is 1); its start tag is on `line`. */
  open(tag: TagForOptions<O>, depth: number, line: number): void;
  /** The element at `depth` closes. */
  close(depth: number): void;
  /** Text or CDATA inside the root, in pieces. */
  text(text: string): void;
}

export interface FeedXmlSettings<O extends SaxesOptions> {
  /** The format's name in messages: "a Kyero feed". */
  documentName: string;
  /**
   * The longest stretch the parser may read without reporting anything (a text or CDATA section, a start tag with
   * its attributes, a comment), in characters: the parser holds such a stretch whole before it reports it.
   */
  maxPiece: number;
  parser?: O;
}

/**
 * A feed document parsed by saxes, with the refusals every XML format here shares: any DOCTYPE (no feed needs one,
 * and refusing it rules out entity tricks such as billion laughs), an encoding other than UTF-8, bytes that are
 * not UTF-8, elements nested deeper than MAX_XML_DEPTH, a piece longer than `maxPiece`, and every parse error,
 * each thrown as `FeedSyntaxError` at its line. The work per element is constant: the reader is told the depth,
 * so that it needs to keep no path it would copy.
 */
export class FeedXmlDocument<O extends SaxesOptions = Record<never, never>> {
  private readonly parser: SaxesParser<O>;
  private depth = 0;
  private tagLine = 1;
  /** Where the parser last reported something, to measure the stretch it is reading now. */
  private reportedAt = 0;
  private reportedLine = 1;

  constructor(
    private readonly settings: FeedXmlSettings<O>,
    handlers: FeedXmlHandlers<O>,
  ) {
    const parser = new SaxesParser<O>(settings.parser);
    this.parser = parser;
    // saxes prefixes "line:column: "; the error says the line already.
    parser.on('error', (error) => this.failAt(shortened(error.message.replace(/^\d+:\d+: /, ''), PARSER_MESSAGE_MAX)));
    parser.on('doctype', () => this.failAt(`a DOCTYPE is not allowed in ${settings.documentName} (entity declarations are refused)`));
    parser.on('xmldecl', ({ encoding }) => {
      if (encoding !== undefined && !/^(utf-?8|us-ascii)$/i.test(encoding)) {
        this.failAt(`the encoding ${shortened(encoding)} is not supported: convert the file to UTF-8`);
      }
    });
    // The start tag's name is read, its attributes not yet: the place to refuse one level too many.
    parser.on('opentagstart', () => {
      this.reported();
      if (++this.depth > MAX_XML_DEPTH) {
        this.failAt(`elements are nested more than ${MAX_XML_DEPTH} levels deep; ${settings.documentName} needs a few`);
      }
      this.tagLine = parser.line;
    });
    parser.on('opentag', (tag) => {
      this.reported();
      handlers.open(tag, this.depth, this.tagLine);
    });
    parser.on('closetag', () => {
      this.reported();
      handlers.close(this.depth--);
    });
    const text = (piece: string) => {
      this.reported();
      handlers.text(piece);
    };
    parser.on('text', text);
    parser.on('cdata', text);
  }

  /** Refuses the document at the parser's line (for a reader's own checks). */
  failAt(reason: string): never {
    throw new FeedSyntaxError(`line ${this.parser.line}`, reason);
  }

  /**
   * Feeds `input` to the parser chunk by chunk and yields what the handlers put in `ready` after each chunk, so
   * that one record at a time is held.
   */
  async *records<T>(input: NodeJS.ReadableStream, ready: T[]): AsyncGenerator<T> {
    for await (const text of utf8Text(input)) {
      this.parser.write(text);
      // A stretch still unreported at the chunk's end is measured too: it is being held.
      this.checkStretch();
      yield* ready.splice(0);
    }
    this.parser.close();
    yield* ready.splice(0);
  }

  /** The parser reported something: the stretch it read before is measured, and the next one starts here. */
  private reported(): void {
    this.checkStretch();
    this.reportedAt = this.parser.position;
    this.reportedLine = this.parser.line;
  }

  private checkStretch(): void {
    if (this.parser.position - this.reportedAt <= this.settings.maxPiece) return;
    throw new FeedSyntaxError(
      `line ${this.reportedLine}`,
      `a text, tag or comment longer than ${this.settings.maxPiece.toLocaleString('en')} characters begins here; ` +
        `${this.settings.documentName} needs none that long`,
    );
  }
}
