import { describe, expect, it } from 'vitest';
import { FEATURES } from '../features';
import { common } from './common';
import { type Language, LANGUAGES, type Messages } from './languages';

const catalogues: [string, Messages][] = [
  ['common', common],
  ...FEATURES.map((feature): [string, Messages] => [feature.id, feature.messages]),
];

/** i18next's plural suffixes (`t(key, { count })` picks `key_<category>`, and `key_zero` for 0 in any language). */
const PLURAL = /^(.+)_(zero|one|two|few|many|other)$/;

/**
 * The plural bases of a catalogue: keys `<base>_other` beside another plural form of the same base in some language.
 * A lone `user_type_other` or `approved_many` is an ordinary key (a word, not a plural form).
 */
function pluralBases(messages: Messages): Set<string> {
  const bases = new Set<string>();
  for (const language of LANGUAGES) {
    const keys = Object.keys(messages[language]);
    for (const key of keys) {
      const match = PLURAL.exec(key);
      if (!match || match[2] !== 'other') continue;
      const base = match[1]!;
      if (keys.some((other) => other !== key && PLURAL.exec(other)?.[1] === base)) bases.add(base);
    }
  }
  return bases;
}

/** A catalogue's keys with each plural base's forms counted once, as the base. */
function keysModuloPlurals(keys: string[], bases: Set<string>): string[] {
  const out = new Set<string>();
  for (const key of keys) {
    const match = PLURAL.exec(key);
    out.add(match && bases.has(match[1]!) ? match[1]! : key);
  }
  return [...out].sort();
}

const placeholders = (value: string) => [...value.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]!).sort();

/** The forms a language's plural rules choose from (`zero` is i18next's own for 0, wanted or not). */
const categories = (language: Language) => new Intl.PluralRules(language).resolvedOptions().pluralCategories as string[];

describe('console messages', () => {
  it.each(catalogues)('%s: every language has the same keys, none empty, with the same placeholders', (_name, messages) => {
    const bases = pluralBases(messages);
    const keys = keysModuloPlurals(Object.keys(messages.en), bases);
    for (const language of LANGUAGES) {
      const catalogue = messages[language];
      expect(keysModuloPlurals(Object.keys(catalogue), bases), language).toEqual(keys);
      for (const [key, text] of Object.entries(catalogue)) {
        expect(text.trim(), `${language} ${key}`).not.toBe('');
        const match = PLURAL.exec(key);
        if (match && bases.has(match[1]!)) continue;
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(messages.en[key]!));
      }
      for (const base of bases) {
        // Every form the language's rules can choose exists (`_other` at least), no form it never chooses is kept,
        // and the forms say at most what English `_other` says (`_one` may spell out "one" instead of {{count}}).
        const forms = Object.keys(catalogue)
          .filter((key) => PLURAL.exec(key)?.[1] === base)
          .map((key) => PLURAL.exec(key)![2]!);
        expect(forms, `${language} ${base}`).toContain('other');
        for (const category of categories(language)) expect(forms, `${language} ${base}`).toContain(category);
        for (const form of forms) expect(['zero', ...categories(language)], `${language} ${base}_${form}`).toContain(form);
        const english = placeholders(messages.en[`${base}_other`]!);
        expect(placeholders(catalogue[`${base}_other`]!), `${language} ${base}_other`).toEqual(english);
        for (const form of forms) {
          for (const name of placeholders(catalogue[`${base}_${form}`]!)) expect(english, `${language} ${base}_${form}`).toContain(name);
        }
      }
    }
  });

  it('every menu label is a message of its feature', () => {
    for (const feature of FEATURES) {
      for (const item of feature.menu ?? []) {
        const [id, key] = item.label.split('.') as [string, string];
        const owner = id === 'common' ? common : FEATURES.find((other) => other.id === id)?.messages;
        expect(owner?.en[key], item.label).toBeDefined();
      }
    }
  });
});
