import { describe, expect, it } from 'vitest';
import {
  accentCheck,
  brandChanges,
  brandToForm,
  contrastRatio,
  moveRow,
  previewColour,
  primaryCheck,
  ratioText,
  sectionRows,
  type SiteSettingsRecord,
} from './brand';

const RECORD: SiteSettingsRecord = {
  site_name: 'Realty',
  tagline: '',
  logo_id: null,
  logo_url: null,
  primary_color: '#1f5f8b',
  accent_color: '#e07a1f',
  contact_email: '',
  contact_phone: '',
  contact_address: '',
  hero_image_id: 7,
  hero_image_url: 'https://realty.example/uploads/hero-large.jpg',
  home_sections: ['search', 'featured', 'newest', 'cities'],
  submission_fields: [],
  updated_at: null,
};

describe('brand colours', () => {
  it('measure contrast as WCAG does, and as the API words it', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#767676', '#ffffff')).toBeCloseTo(4.54, 2);
    expect(ratioText(4.4999)).toBe('4.49');
    expect(ratioText(contrastRatio('#7fb3d5', '#ffffff'))).toBe('2.25');
  });

  it('take the colours the API takes, and refuse the ones it refuses', () => {
    expect(primaryCheck('#767676')?.ok).toBe(true);
    expect(primaryCheck('#777777')?.ok).toBe(false);
    expect(primaryCheck('#1F5F8B')?.ok).toBe(true);
    expect(primaryCheck('blue')).toBeNull();
    expect(accentCheck('#e07a1f')?.ok).toBe(true);
    expect(accentCheck('#ffff00')).toMatchObject({ ok: false, checks: [{ against: 'dark_text' }, { against: 'white_page', minimum: 3 }] });
    expect(accentCheck('#333333')?.ok).toBe(false);
  });

  it('preview the typed colour once it is one', () => {
    expect(previewColour('#ABCDEF ', '#000000')).toBe('#abcdef');
    expect(previewColour('#abc', '#000000')).toBe('#000000');
  });
});

describe('the brand form', () => {
  it('sends only what changed, cleaned', () => {
    const values = { ...brandToForm(RECORD), site_name: '  Casa Azul ', primary_color: '#14532D', contact_email: 'Hi@Casa.Example' };
    expect(brandChanges(values, sectionRows(RECORD.home_sections), { logo_id: null, hero_image_id: 7 }, RECORD)).toEqual({
      site_name: 'Casa Azul',
      primary_color: '#14532d',
      contact_email: 'hi@casa.example',
    });
    expect(brandChanges(brandToForm(RECORD), sectionRows(RECORD.home_sections), { logo_id: null, hero_image_id: 7 }, RECORD)).toEqual({});
  });

  it('sends pictures as media ids, null removing one', () => {
    const rows = sectionRows(RECORD.home_sections);
    expect(brandChanges(brandToForm(RECORD), rows, { logo_id: 12, hero_image_id: null }, RECORD)).toEqual({
      logo_id: 12,
      hero_image_id: null,
    });
  });

  it('keeps the shown sections in their order, and lists the hidden ones after them', () => {
    const rows = sectionRows(['cities', 'search']);
    expect(rows).toEqual([
      { section: 'cities', shown: true },
      { section: 'search', shown: true },
      { section: 'featured', shown: false },
      { section: 'newest', shown: false },
    ]);
    const moved = moveRow(rows, 1, 0);
    expect(moved.map((row) => row.section)).toEqual(['search', 'cities', 'featured', 'newest']);
    expect(moveRow(rows, 0, -1)).toEqual(rows);
    const shownAgain = moved.map((row) => (row.section === 'newest' ? { ...row, shown: true } : row));
    expect(brandChanges(brandToForm(RECORD), shownAgain, { logo_id: null, hero_image_id: 7 }, RECORD)).toEqual({
      home_sections: ['search', 'cities', 'newest'],
    });
  });
});
