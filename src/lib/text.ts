/** Plain-text field (API.md 12): HTML tags removed, white space trimmed. */
export function plainText(value: string): string {
  return value.replace(/<[^>]*>?/g, '').trim();
}
