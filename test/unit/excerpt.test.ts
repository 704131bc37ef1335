import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { richText, excerptOf } from '../../src/lib/text.js';

/** The excerpt as the listing code derives it: from the sanitized description. */
const excerpt = (description: string) => excerptOf(richText(description));

describe('excerptOf', () => {
  it('is the plain text of the description, blocks separated by one space', () => {
    expect(excerpt('<p>Bright flat.</p><p>Near the <strong>beach</strong>.</p><ul><li>Pool</li><li>Garden</li></ul>')).toBe(
      'Bright flat. Near the beach. Pool Garden',
    );
    expect(excerpt('Line one<br>Line two')).toBe('Line one Line two');
    expect(excerpt('')).toBe('');
    expect(excerpt('  <p>  </p>  ')).toBe('');
  });

  it('adds no space where an inline tag sits inside a word', () => {
    expect(excerpt('<strong>W</strong>onderful <em>ex</em>tra <a href="https://example.test">li</a>nk')).toBe('Wonderful extra link');
  });

  it('decodes the entities the sanitizer writes, once', () => {
    expect(excerpt('AT&amp;T &lt;b&gt; 5 &gt; 3')).toBe('AT&T b> 5 > 3');
    // The text "&lt;" written as HTML is "&amp;lt;": decoding must not turn it into "<".
    expect(excerpt('the entity &amp;lt; and &amp;amp;')).toBe('the entity &lt; and &amp;');
    expect(excerpt('"quoted" it\'s a&nbsp;b')).toBe('"quoted" it\'s a b');
  });

  it('keeps text of 160 characters whole', () => {
    const text = 'a'.repeat(160);
    expect(excerpt(text)).toBe(text);
  });

  it('cuts longer text at a word boundary to at most 160 characters, marked with an ellipsis', () => {
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' '); // 269 characters
    const result = excerpt(`<p>${words}</p>`);
    expect([...result].length).toBeLessThanOrEqual(160);
    expect(result.endsWith('…')).toBe(true);
    const kept = result.slice(0, -1);
    expect(words.startsWith(kept)).toBe(true);
    expect(words[kept.length]).toBe(' '); // cut before a space, not inside a word
    expect(kept).toBe(Array.from({ length: 24 }, (_, i) => `word${i}`).join(' '));
  });

  it('cuts one very long word at 159 characters', () => {
    expect(excerpt('x'.repeat(300))).toBe(`${'x'.repeat(159)}…`);
  });

  it('counts characters, not UTF-16 units, and never splits a surrogate pair', () => {
    const text = '🏠'.repeat(200);
    const result = excerpt(text);
    expect(result).toBe(`${'🏠'.repeat(159)}…`);
    expect([...result].length).toBe(160);
  });

  it('is, for any description, at most 160 characters of trimmed text with single spaces and no tags', () => {
    // No "&" in the free text: "&lt;p&gt;" is the text "<p>" an author may write, which the excerpt rightly keeps.
    const text = fc.string().map((value) => value.replaceAll('&', ''));
    const html = fc.array(
      fc.oneof(text, fc.constantFrom('<p>', '</p>', '<br>', '<strong>', '</em>', '<a href="https://x.test">', '&amp;', ' ', '\n')),
      {
        maxLength: 80,
      },
    );
    fc.assert(
      fc.property(html, (parts) => {
        const result = excerpt(parts.join(''));
        expect([...result].length).toBeLessThanOrEqual(160);
        expect(result).toBe(result.trim());
        expect(result).not.toMatch(/\s{2}/);
        expect(result).not.toMatch(/<\/?(p|br|strong|em|a)\b/);
      }),
    );
  });
});
