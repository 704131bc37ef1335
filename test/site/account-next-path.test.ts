import { describe, expect, it } from 'vitest';
import { safeNextPath } from '../../src/site/pages/account/next-path.js';

describe('the return path after signing in', () => {
  it('keeps paths of this site, with their query', () => {
    expect(safeNextPath('/account/favorites')).toBe('/account/favorites');
    expect(safeNextPath('/es/property/sea-view?x=1')).toBe('/es/property/sea-view?x=1');
    expect(safeNextPath('/a/../b')).toBe('/b');
  });

  it('refuses anything a browser could take to another site, and the account pages themselves', () => {
    for (const next of [
      undefined,
      '',
      ['/a', '/b'],
      '//evil.example',
      '/\\evil.example',
      '/\t/evil.example',
      '/\n/evil',
      'https://evil.example',
      'javascript:alert(1)',
      '/.//evil.example',
      '/x/..//evil.example',
      '/sign-in',
      '/es/sign-up?next=/x',
      `/${'a'.repeat(2001)}`,
    ]) {
      expect(safeNextPath(next), JSON.stringify(next)).toBeNull();
    }
  });
});
