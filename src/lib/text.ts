import sanitize from 'sanitize-html';

/**
 * Plain-text field (API.md 12): HTML tags and comments removed, white space trimmed. Only real tags count:
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

/** Rich-text field (`description`, `content`; API.md 0.4): reduced to a small allow-list of tags. */
export function richText(value: string): string {
  return sanitize(value, RICH_TEXT).trim();
}
