import { describe, expect, it } from 'vitest';
import { withoutTrackingParams } from '../../src/site/paths.js';

describe('withoutTrackingParams', () => {
  it('drops campaign tags and ad click ids, and keeps every other parameter as it was written, in its order', () => {
    expect(withoutTrackingParams('/')).toBe('/');
    expect(withoutTrackingParams('/?utm_source=a&UTM_Medium=b&gclid=c&fbclid=d&msclkid=e&_ga=f')).toBe('/');
    expect(withoutTrackingParams('/properties?city=miami&utm_source=news&type=villa%20x&page=2')).toBe(
      '/properties?city=miami&type=villa%20x&page=2',
    );
    expect(withoutTrackingParams('/properties?utm%5Fsource=x&q=%E0')).toBe('/properties?q=%E0');
    expect(withoutTrackingParams('/properties?city=a&&utm_id=1&')).toBe('/properties?city=a');
    expect(withoutTrackingParams('/properties?utm=1&sourceutm_x=2')).toBe('/properties?utm=1&sourceutm_x=2');
  });
});
