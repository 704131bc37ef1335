import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { excerptOf, plainText, richText } from '../../src/lib/text.js';

/** What a browser could read as the start of a tag, comment or processing instruction. */
const TAG_START = /<[A-Za-z/!?]/;

describe('plainText', () => {
  it('removes tags and comments and trims', () => {
    expect(plainText('  <b>Bright</b> villa <!-- note --> ')).toBe('Bright villa');
    expect(plainText('Sea view <!-- left open')).toBe('Sea view');
  });

  it('keeps a < that cannot open a tag', () => {
    expect(plainText('Beds < 3')).toBe('Beds < 3');
    expect(plainText('I <3 gardens')).toBe('I <3 gardens');
    expect(plainText('5 > 3 and 2 <= 4')).toBe('5 > 3 and 2 <= 4');
  });

  it('cannot be beaten by a tag rebuilt from the pieces of another', () => {
    expect(plainText('Nested <<b>img src=x onerror=alert(document.domain)> title')).toBe('Nested  title');
    expect(plainText('<scr<script>ipt>alert(1)</scr</script>ipt>')).toBe('alert(1)');
    expect(plainText('<<<b>>b>x')).toBe('<<>b>x');
  });

  it('drops the < of an unclosed tag', () => {
    expect(plainText('<img src=x onerror=alert(1)')).toBe('img src=x onerror=alert(1)');
    expect(plainText('<svg onload=alert(1)')).toBe('svg onload=alert(1)');
    expect(plainText('From <</a')).toBe('From /a');
  });

  it('decodes entities once, and a tag written with entities is removed too', () => {
    expect(plainText('Villa &#8211; sea &amp; golf')).toBe('Villa – sea & golf');
    expect(plainText('&lt;img src=x onerror=alert(1)&gt;Title')).toBe('Title');
    expect(plainText('the text &amp;lt;b&amp;gt;')).toBe('the text &lt;b&gt;');
  });

  it('leaves nothing a browser would read as a tag, whatever the input', () => {
    const piece = fc.oneof(
      fc.string({ maxLength: 6 }),
      fc.constantFrom('<', '>', '<b>', '</', '<!--', '-->', '<?', '<!', '&lt;', '&gt;', '&amp;', '&#60;', '&#x3c;', 'img', ' ', '/'),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = plainText(pieces.join(''));
        expect(text).not.toMatch(TAG_START);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('excerptOf', () => {
  it('keeps no tag that the description spelled with entities', () => {
    expect(excerptOf(richText('&lt;img src=x onerror=alert(1)&gt; and &lt;b&gt;bold'))).toBe('img src=x onerror=alert(1)> and b>bold');
  });

  it('leaves nothing a browser would read as a tag, whatever the description', () => {
    const piece = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('<p>', '&lt;', '&gt;', '&amp;', 'img', '/', '!', ' '));
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        expect(excerptOf(richText(pieces.join('')))).not.toMatch(TAG_START);
      }),
      { numRuns: 1000 },
    );
  });
});
