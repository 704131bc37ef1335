import sanitize from 'sanitize-html';

/**
 * Plain-text field (docs/api.md 12): HTML tags and comments removed, white space trimmed. Only real tags count:
 * `Beds < 3` and `I <3 gardens` keep their text.
 */
export function plainText(value: string): string {
  return value
    .replace(/<!--[\s\S]*?(-->|$)/g, '')
    .replace(/<\/?[A-Za-z][^<>]*>/g, '')
    .trim();
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
  return sanitize(value, RICH_TEXT).trim();
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
