import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { slugify, sortKey } from '../../src/lib/slug.js';

describe('slugify', () => {
  it.each([
    ['Single Family Home', 'single-family-home'],
    ['  Équipé & Prêt  ', 'equipe-pret'],
    ['Île-de-France', 'ile-de-france'],
    ["Provence-Alpes-Côte d'Azur", 'provence-alpes-cote-d-azur'],
    ['شقة فاخرة', 'شقة-فاخرة'],
    ['---', ''],
    ['A__B..C', 'a-b-c'],
  ])('%j → %j', (input, slug) => {
    expect(slugify(input)).toBe(slug);
  });

  it('always gives hyphen-separated letters and digits, at most 200 characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'grapheme' }), (text) => {
        const slug = slugify(text);
        expect(slug.length).toBeLessThanOrEqual(200);
        expect(slug).toMatch(/^([\p{L}\p{N}]+(-[\p{L}\p{N}]+)*)?$/u);
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(fc.property(fc.string({ maxLength: 300, unit: 'grapheme' }), (text) => slugify(slugify(text)) === slugify(text)));
  });
});

describe('sortKey', () => {
  it('folds case and accents so that search and order ignore them', () => {
    expect(sortKey('Écoles ÀLA')).toBe('ecoles ala');
    expect(sortKey('Zürich') < sortKey('zz')).toBe(true);
  });
  it('is idempotent', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (text) => sortKey(sortKey(text)) === sortKey(text)));
  });
});
