import { describe, expect, it } from 'vitest';
import { accentContrastOf, contrastRatio, DEFAULT_SETTINGS, primaryContrastOf } from '../../src/modules/site-settings/index.js';

describe('brand colour contrast (WCAG 2 relative luminance)', () => {
  it('measures the known pairs', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBeCloseTo(1, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    // Symmetric, and case does not matter.
    expect(contrastRatio('#FFFFFF', '#1F5F8B')).toBeCloseTo(contrastRatio('#1f5f8b', '#ffffff'), 10);
  });

  it('takes a primary colour white text is readable on, and no lighter one', () => {
    expect(primaryContrastOf('#767676').ok).toBe(true);
    expect(primaryContrastOf('#777777').ok).toBe(false);
    expect(primaryContrastOf('#ffcc00')).toMatchObject({ ok: false });
  });

  it('takes an accent dark text is readable on that still shows as a focus ring on white', () => {
    expect(accentContrastOf('#ffff00')).toMatchObject({ ok: false }); // dark text fine, ring invisible on white
    expect(accentContrastOf('#333333')).toMatchObject({ ok: false }); // ring fine, dark text unreadable
    expect(accentContrastOf('#e07a1f').ok).toBe(true);
  });

  it('passes its own defaults', () => {
    expect(primaryContrastOf(DEFAULT_SETTINGS.primary_color).ok).toBe(true);
    expect(accentContrastOf(DEFAULT_SETTINGS.accent_color).ok).toBe(true);
  });
});
