import { describe, expect, it } from 'vitest';
import { addressesOf, scopeKey } from './api-clients';

describe('the machine clients page’s helpers', () => {
  it('reads one address or range per line or comma, dropping repeats; nothing typed means any address', () => {
    expect(addressesOf('203.0.113.7\n10.0.0.0/8, 2001:db8::/32\n\n203.0.113.7 ')).toEqual(['203.0.113.7', '10.0.0.0/8', '2001:db8::/32']);
    expect(addressesOf('  \n ')).toBeNull();
  });

  it('names each scope’s words', () => {
    expect(scopeKey('listings:read')).toBe('api-clients.scope_listings_read');
  });
});
