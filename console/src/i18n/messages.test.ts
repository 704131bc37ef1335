import { describe, expect, it } from 'vitest';
import { FEATURES } from '../features';
import { common } from './common';
import { LANGUAGES, type Messages } from './languages';

const catalogues: [string, Messages][] = [
  ['common', common],
  ...FEATURES.map((feature): [string, Messages] => [feature.id, feature.messages]),
];

describe('console messages', () => {
  it.each(catalogues)('%s: every language has the same keys, none empty, with the same placeholders', (_name, messages) => {
    const keys = Object.keys(messages.en).sort();
    for (const language of LANGUAGES) {
      expect(Object.keys(messages[language]).sort()).toEqual(keys);
      for (const key of keys) {
        const text = messages[language][key]!;
        expect(text.trim()).not.toBe('');
        const placeholders = (value: string) => [...value.matchAll(/\{\{(\w+)\}\}/g)].map((match) => match[1]).sort();
        expect(placeholders(text)).toEqual(placeholders(messages.en[key]!));
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
