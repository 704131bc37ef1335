import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mailtoHref, safeHttpUrl, telHref } from './contact';

describe('lead contact links', () => {
  it('makes mailto: links of addresses only', () => {
    expect(mailtoHref('jane@example.com')).toBe('mailto:jane@example.com');
    expect(mailtoHref(' jane+x@example.com ')).toBe('mailto:jane%2Bx@example.com');
    expect(mailtoHref('not an address')).toBeNull();
    expect(mailtoHref('a@b.c?cc=x@y.z')).toBeNull();
    expect(mailtoHref('')).toBeNull();
  });

  it('makes tel: links of digits and a leading +', () => {
    expect(telHref('+1 (555) 010-0100')).toBe('tel:+15550100100');
    expect(telHref('04 00.00')).toBe('tel:040000');
    expect(telHref('')).toBeNull();
    expect(telHref('12')).toBeNull();
  });

  it('never lets anything but digits into a tel: link', () => {
    fc.assert(
      fc.property(fc.string(), (phone) => {
        const href = telHref(phone);
        expect(href === null || /^tel:\+?\d{3,}$/.test(href)).toBe(true);
      }),
    );
  });

  it('links listings over http(s) only', () => {
    expect(safeHttpUrl('http://127.0.0.1:3405/property/villa')).toBe('http://127.0.0.1:3405/property/villa');
    expect(safeHttpUrl('javascript:alert(1)')).toBeNull();
    expect(safeHttpUrl(null)).toBeNull();
    expect(safeHttpUrl('not a url')).toBeNull();
  });
});
