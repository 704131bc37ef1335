import { describe, expect, it } from 'vitest';
import { ar } from '../../src/i18n/ar.js';
import { en } from '../../src/i18n/en.js';
import { es } from '../../src/i18n/es.js';
import { fr } from '../../src/i18n/fr.js';
import { languageFromAcceptHeader, supportedLanguage, translate } from '../../src/i18n/index.js';

describe('language negotiation', () => {
  it.each([
    ['fr-CA,fr;q=0.9,en;q=0.8', 'fr'],
    ['de-DE, es;q=0.7, ar;q=0.9', 'ar'],
    ['en;q=0, es', 'es'],
    ['*', undefined],
    ['de, it', undefined],
    ['', undefined],
    [';;;,q=,fr;q=abc', undefined],
  ])('Accept-Language %j → %s', (header, language) => {
    expect(languageFromAcceptHeader(header)).toBe(language);
  });

  it('maps tags to bundled languages', () => {
    expect(supportedLanguage('AR')).toBe('ar');
    expect(supportedLanguage('es-MX')).toBe('es');
    expect(supportedLanguage('de')).toBeUndefined();
  });
});

describe('catalogues', () => {
  const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

  it.each([
    ['ar', ar],
    ['es', es],
    ['fr', fr],
  ] as const)('%s uses the same placeholders as English in every message', (_name, catalogue) => {
    for (const key of Object.keys(en) as (keyof typeof en)[]) {
      expect(placeholders(catalogue[key]), key).toEqual(placeholders(en[key]));
      expect(catalogue[key].trim(), key).not.toBe('');
    }
  });

  it('fills parameters and leaves unknown ones visible', () => {
    expect(translate('en', 'rule_minimum', { limit: 3 })).toBe('must be at least 3');
    expect(translate('fr', 'rule_minimum')).toBe('doit être au moins {limit}');
  });

  it('says record not found as the seed does', () => {
    expect(translate('en', 'record_not_found')).toBe('Record not found');
  });
});
