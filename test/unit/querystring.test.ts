import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../../src/http/querystring.js';

describe('parseQueryString', () => {
  it('reads both array forms alike', () => {
    expect({ ...parseQueryString('type=a,b') }).toEqual({ type: 'a,b' });
    expect({ ...parseQueryString('type[]=a&type[]=b') }).toEqual({ type: 'a,b' });
    expect({ ...parseQueryString('type%5B%5D=a&type%5B%5D=b') }).toEqual({ type: 'a,b' });
    expect({ ...parseQueryString('type=a&type=b&x=1') }).toEqual({ type: 'a,b', x: '1' });
  });

  it('decodes + and percent escapes, and survives malformed ones', () => {
    expect({ ...parseQueryString('search=new+york&name=%C3%A9t%C3%A9&bad=%E0%A4%A') }).toEqual({
      search: 'new york',
      name: 'été',
      bad: '\uFFFD%A',
    });
  });

  it('cannot be used to pollute prototypes', () => {
    const parsed = parseQueryString('__proto__=x&constructor=y');
    expect(Object.getPrototypeOf(parsed)).toBeNull();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(parsed.__proto__).toBe('x');
  });

  it('round-trips any key and value', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }).filter((k) => !k.endsWith('[]')),
        fc.string(),
        (key, value) => {
          const parsed = parseQueryString(new URLSearchParams([[key, value]]).toString());
          expect(parsed[key]).toBe(value);
        },
      ),
    );
  });
});
