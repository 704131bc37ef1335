import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keywordMatches, queryTerms, searchTextOf, titleTokensOf, tokenize } from '../../src/lib/search-tokens.js';

describe('tokenize', () => {
  it.each([
    ['The Houses, 3 bedrooms!', ['hou', '3', 'bedroom']],
    // Stemmed until stable: every form of a word ends on one stem.
    ['house houses housing housed', ['hou', 'hou', 'hou', 'hou']],
    ['apartments apartment flats flat', ['apart', 'apart', 'flat', 'flat']],
    ['Équipée CAFÉ naïve İstanbul', ['equip', 'cafe', 'naiv', 'istanbul']],
    // Runs of letters and runs of digits are separate words; digits are never stemmed.
    ['abc123 x² 2024s', ['abc', '123', 'x', '2', '2024', 's']],
    ['شقة فاخرة', ['شقة', 'فاخرة']],
    ['ΣΟΦΊΑ σοφία', ['σοφια', 'σοφια']],
    ['the a of and to with', []],
    ['', []],
  ])('%j → %j', (text, tokens) => {
    expect(tokenize(text)).toEqual(tokens);
  });

  it('leaves out runs longer than 64 characters', () => {
    expect(tokenize(`${'x'.repeat(65)} villa ${'7'.repeat(64)}`)).toEqual(['villa', '7'.repeat(64)]);
  });

  it('gives only letters or only digits, lower-cased, without marks', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'grapheme' }), (text) => {
        for (const token of tokenize(text)) {
          expect(token).toMatch(/^(\p{L}+|\p{N}+)$/u);
          expect(token).toBe(token.toLowerCase());
          expect(token.normalize('NFKD')).not.toMatch(/\p{M}/u);
          expect(token.length).toBeLessThanOrEqual(64);
        }
      }),
    );
  });
});

describe('searchTextOf', () => {
  it('joins the words of title, description text, address, zipcode and reference in that order', () => {
    const text = searchTextOf({
      title: 'Sunny Flat',
      description: '<p>Sea&nbsp;view &amp; <strong>pool</strong>s</p><ul><li>garden</li><li>garage</li></ul>',
      address: '12 Rue de l’Église',
      zipcode: '75001',
      reference: 'AB-001',
    });
    expect(text).toBe('sunni flat sea view pool garden garag 12 rue de l egli 75001 ab 001');
  });

  it('is empty for a title of stopwords and no other text', () => {
    expect(searchTextOf({ title: 'The' })).toBe('');
  });

  it('keeps the title words apart in titleTokensOf', () => {
    expect(titleTokensOf('Three Houses by the Sea')).toBe('three hou sea');
  });
});

describe('queryTerms and keywordMatches', () => {
  it('gives the distinct words of a keyword, in order', () => {
    expect(queryTerms('Houses near the house, NEAR parks')).toEqual(['hou', 'near', 'park']);
    expect(queryTerms('the of')).toEqual([]);
  });

  it('matches whole words, every one of them', () => {
    const text = searchTextOf({ title: 'Two Houses with a Garden', address: 'Main Street' });
    expect(keywordMatches(text, queryTerms('house'))).toBe(true);
    expect(keywordMatches(text, queryTerms('garden houses'))).toBe(true);
    expect(keywordMatches(text, queryTerms('garden pool'))).toBe(false);
    // "main" is a word; "mai" is only a prefix of one.
    expect(keywordMatches(text, ['mai'])).toBe(false);
    expect(keywordMatches(text, [])).toBe(true);
  });

  it('always finds a listing by words of its own title', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ maxLength: 12, unit: 'grapheme' }), { minLength: 1, maxLength: 10 }),
        fc.array(fc.nat()),
        (words, picks) => {
          const title = words.join(' ');
          const keyword = picks.map((pick) => words[pick % words.length]).join(' ');
          const terms = queryTerms(keyword);
          return (
            keywordMatches(searchTextOf({ title, description: '<p>Other words</p>' }), terms) && keywordMatches(titleTokensOf(title), terms)
          );
        },
      ),
    );
  });
});
