import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findCookie, parseCookieHeader, serializeSetCookie, type SetCookieAttributes } from '../../src/http/cookies.js';

/** RFC 6265's grammar, written out again here so that the parser is held against the RFC, not against itself. */
const TOKEN_CHARS = "!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".split('');
const OCTET_CHARS = Array.from({ length: 0x7f - 0x21 }, (_, i) => String.fromCharCode(0x21 + i)).filter((c) => !'",;\\'.includes(c));
const NOT_OCTETS = [' ', '"', ',', '\\', '\t', '\x00', '\x1f', '\x7f', 'é', '☃'];

const cookieName = fc.string({ unit: fc.constantFrom(...TOKEN_CHARS), minLength: 1, maxLength: 20 });
const cookieValue = fc.string({ unit: fc.constantFrom(...OCTET_CHARS), maxLength: 60 });
/** Optional white space, which senders put around pairs and `=` now and then. */
const ows = fc.constantFrom('', ' ', '\t', '  ');
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ maxLength: 200 }));

const ATTRIBUTES: SetCookieAttributes = {
  path: '/realty-api/v1/auth/token',
  maxAgeSeconds: 60,
  httpOnly: true,
  secure: false,
  sameSite: 'Strict',
};

describe('parseCookieHeader', () => {
  it('reads back every well-formed header, in order, whatever the white space and quoting', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ name: cookieName, value: cookieValue, quoted: fc.boolean(), before: ows, after: ows }), {
          minLength: 1,
          maxLength: 8,
        }),
        (pairs) => {
          const header = pairs
            .map(({ name, value, quoted, before, after }) => `${before}${name}=${quoted ? `"${value}"` : value}${after}`)
            .join(';');
          expect(parseCookieHeader(header)).toEqual(pairs.map(({ name, value }) => ({ name, value })));
        },
      ),
    );
  });

  it('never throws, and answers only token names and cookie-octet values (or null) for any text', () => {
    fc.assert(
      fc.property(anyText, (header) => {
        for (const { name, value } of parseCookieHeader(header)) {
          expect(name).toMatch(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/);
          if (value !== null) expect(value).toMatch(/^[\x21\x23-\x2B\x2D-\x3A\x3C-\x5B\x5D-\x7E]*$/);
        }
      }),
    );
  });

  it('marks a value holding a character no cookie may hold as null rather than cutting it', () => {
    fc.assert(
      fc.property(cookieName, cookieValue, fc.constantFrom(...NOT_OCTETS), cookieValue, (name, head, bad, tail) => {
        // White space at either end is padding, not part of the value.
        fc.pre(!((bad === ' ' || bad === '\t') && (head === '' || tail === '')));
        expect(parseCookieHeader(`${name}=${head}${bad}${tail}`)).toEqual([{ name, value: null }]);
      }),
    );
  });

  it('skips parts that are not pairs of a token name', () => {
    expect(parseCookieHeader('')).toEqual([]);
    expect(parseCookieHeader(';;  ; novalue; =x; a b=1; (x)=2; ok=1;')).toEqual([{ name: 'ok', value: '1' }]);
    expect(parseCookieHeader('a=1;b=2 ;  c = 3')).toEqual([
      { name: 'a', value: '1' },
      { name: 'b', value: '2' },
      { name: 'c', value: '3' },
    ]);
    expect(parseCookieHeader('a="x"y"; b="; c=""')).toEqual([
      { name: 'a', value: null },
      { name: 'b', value: null },
      { name: 'c', value: '' },
    ]);
  });
});

describe('findCookie', () => {
  it('finds one cookie among others', () => {
    expect(findCookie('theme=dark; realty_refresh=abc_DEF-123; lang=fr', 'realty_refresh', 200)).toEqual({
      status: 'present',
      value: 'abc_DEF-123',
    });
    expect(findCookie('theme=dark', 'realty_refresh', 200)).toEqual({ status: 'absent' });
    expect(findCookie(undefined, 'realty_refresh', 200)).toEqual({ status: 'absent' });
    expect(findCookie('', 'realty_refresh', 200)).toEqual({ status: 'absent' });
    // Names are case-sensitive (RFC 6265 5.4 compares them octet by octet).
    expect(findCookie('REALTY_REFRESH=abc', 'realty_refresh', 200)).toEqual({ status: 'absent' });
  });

  it('refuses an empty, over-long, malformed or repeated cookie', () => {
    for (const header of [
      'realty_refresh=',
      'realty_refresh=""',
      `realty_refresh=${'a'.repeat(201)}`,
      'realty_refresh=a b',
      'realty_refresh=a,b',
      'realty_refresh=abc; realty_refresh=abc',
      'realty_refresh=abc; realty_refresh=',
    ]) {
      expect(findCookie(header, 'realty_refresh', 200), header).toEqual({ status: 'malformed' });
    }
    expect(findCookie(`realty_refresh=${'a'.repeat(200)}`, 'realty_refresh', 200)).toEqual({ status: 'present', value: 'a'.repeat(200) });
  });

  it('answers a value only when it is the one pair of that name, well formed and short enough, for any text', () => {
    const text = fc.oneof(
      anyText,
      fc.tuple(anyText, anyText).map(([a, b]) => `${a}realty_refresh=${b}`),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 100 }), (header, maxLength) => {
        const named = parseCookieHeader(header).filter((pair) => pair.name === 'realty_refresh');
        const only = named.length === 1 ? named[0]!.value : null;
        const expected =
          named.length === 0
            ? { status: 'absent' }
            : only && only.length <= maxLength
              ? { status: 'present', value: only }
              : { status: 'malformed' };
        expect(findCookie(header, 'realty_refresh', maxLength)).toEqual(expected);
      }),
    );
  });
});

describe('serializeSetCookie', () => {
  it('writes the attributes in a fixed order', () => {
    expect(serializeSetCookie('realty_refresh', 'abc', ATTRIBUTES)).toBe(
      'realty_refresh=abc; Path=/realty-api/v1/auth/token; Max-Age=60; HttpOnly; SameSite=Strict',
    );
    expect(serializeSetCookie('realty_refresh', '', { ...ATTRIBUTES, maxAgeSeconds: 0, secure: true })).toBe(
      'realty_refresh=; Path=/realty-api/v1/auth/token; Max-Age=0; HttpOnly; Secure; SameSite=Strict',
    );
    expect(serializeSetCookie('a', 'b', { path: '/', maxAgeSeconds: 1, httpOnly: false, secure: false, sameSite: 'Lax' })).toBe(
      'a=b; Path=/; Max-Age=1; SameSite=Lax',
    );
  });

  it('writes what the parser reads back as the same cookie', () => {
    fc.assert(
      fc.property(
        cookieName.filter((name) => name !== 'other'),
        cookieValue,
        (name, value) => {
          const pair = serializeSetCookie(name, value, ATTRIBUTES).split('; ')[0]!;
          expect(findCookie(`other=1; ${pair}`, name, 1000)).toEqual(value === '' ? { status: 'malformed' } : { status: 'present', value });
        },
      ),
    );
  });

  it('refuses a name, value, path or max-age the syntax cannot carry', () => {
    fc.assert(
      fc.property(cookieValue, fc.constantFrom(...NOT_OCTETS, ';'), (value, bad) => {
        expect(() => serializeSetCookie('realty_refresh', `${value}${bad}`, ATTRIBUTES)).toThrow(TypeError);
      }),
    );
    expect(() => serializeSetCookie('bad name', 'x', ATTRIBUTES)).toThrow(TypeError);
    expect(() => serializeSetCookie('', 'x', ATTRIBUTES)).toThrow(TypeError);
    expect(() => serializeSetCookie('a', 'x', { ...ATTRIBUTES, path: '/a;Domain=evil.test' })).toThrow(TypeError);
    expect(() => serializeSetCookie('a', 'x', { ...ATTRIBUTES, path: 'relative' })).toThrow(TypeError);
    expect(() => serializeSetCookie('a', 'x', { ...ATTRIBUTES, path: '/a\r\nSet-Cookie: b=1' })).toThrow(TypeError);
    expect(() => serializeSetCookie('a', 'x', { ...ATTRIBUTES, maxAgeSeconds: -1 })).toThrow(TypeError);
    expect(() => serializeSetCookie('a', 'x', { ...ATTRIBUTES, maxAgeSeconds: 1.5 })).toThrow(TypeError);
  });
});
