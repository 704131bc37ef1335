import { createRequire } from 'node:module';
import { decodeHTML } from 'entities';
import type sanitize from 'sanitize-html';

/** Comments, including one left open at the end of the text. */
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
/** A whole tag: `<` then a letter, `/`, `!` or `?`, up to the next `>`. */
const TAG = /<[A-Za-z/!?][^<>]*>/g;
/** A `<` that would begin a tag in a browser (a letter, `/`, `!` or `?` after it), with any `<` just before it. */
const TAG_OPENER = /<+(?=[A-Za-z/!?])/g;

/**
 * Plain-text field (docs/api.md 0.4): no HTML tag survives, however it is written. Tags and comments are removed
 * until none is left (so `<<b>img …>` cannot rebuild one), entities are decoded once (`&amp;` → `&`, as
 * WordPress writes titles), tags spelled with entities are removed in turn, and any `<` that could still open a
 * tag (an unclosed `<img src=x onerror=…`) is dropped. A `<` before anything else is text: `Beds < 3` and
 * `I <3 gardens` keep theirs. White space is trimmed.
 */
export function plainText(value: string): string {
  return withoutTagOpeners(withoutTags(decodeHTML(withoutTags(value)))).trim();
}

/** Removes comments and whole tags until none is left: each pass shortens the text, so this ends. */
function withoutTags(value: string): string {
  let text = value;
  for (;;) {
    const next = text.replace(COMMENT, '').replace(TAG, '');
    if (next === text) return text;
    text = next;
  }
}

/** Drops every `<` that could open a tag; a run of `<` goes whole, so no new opener is left behind. */
function withoutTagOpeners(value: string): string {
  return value.replace(TAG_OPENER, '');
}

const RICH_TEXT: sanitize.IOptions = {
  allowedTags: ['p', 'br', 'strong', 'em', 'ul', 'ol', 'li', 'a'],
  allowedAttributes: { a: ['href'] },
  allowedSchemes: ['http', 'https'],
  allowedSchemesAppliedToAttributes: ['href'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
};

/** Rich-text field (`description`, `content`; docs/api.md 0.4): reduced to a small allow-list of tags. */
export function richText(value: string): string {
  return sanitizer()(value, RICH_TEXT).trim();
}

let sanitizeHtml: typeof sanitize | undefined;
/**
 * sanitize-html, required at the first rich text rather than at start: it brings an HTML parser and PostCSS,
 * and a restarting server reads before it writes. CommonJS, so it loads synchronously.
 */
function sanitizer(): typeof sanitize {
  return (sanitizeHtml ??= createRequire(import.meta.url)('sanitize-html') as typeof sanitize);
}

const EXCERPT_LENGTH = 160;
/** Tags that separate blocks of text; the inline ones (strong, em, a) may sit inside a word. */
const BLOCK_TAGS = /<\/?(?:p|br|ul|ol|li)\b[^>]*>/gi;
/** The entities the sanitizer writes (richText), decoded in one pass so that `&amp;lt;` stays `&lt;`. */
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** Plain text of the (sanitized) description, cut at a word boundary to at most 160 characters. */
export function excerptOf(html: string): string {
  const text = html
    .replace(BLOCK_TAGS, ' ')
    .replace(/<[^>]*>/g, '')
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\s+/g, ' ')
    .trim();
  return cutExcerpt(withoutTagOpeners(text));
}

/** `text` cut at a word boundary to at most 160 characters. */
function cutExcerpt(text: string): string {
  // Counted in characters (code points), walking only as far as the cut.
  let end = 0;
  for (let kept = 0; kept < EXCERPT_LENGTH - 1 && end < text.length; kept++) end += codePointUnits(text, end);
  if (end >= text.length || end + codePointUnits(text, end) >= text.length) return text;
  const cut = text.slice(0, end);
  const boundary = cut.lastIndexOf(' ');
  return `${(boundary > EXCERPT_LENGTH / 2 ? cut.slice(0, boundary) : cut).trimEnd()}…`;
}

/** UTF-16 units of the character at `index`: 2 for a surrogate pair, else 1 (a lone surrogate counts alone). */
function codePointUnits(text: string, index: number): number {
  return text.codePointAt(index)! > 0xffff ? 2 : 1;
}
