import { ar } from './ar.js';
import { type Catalogue, en, type MessageKey } from './en.js';
import { es } from './es.js';
import { fr } from './fr.js';

export type { MessageKey };
export type MessageParams = Record<string, string | number>;

export const LANGUAGES = ['en', 'ar', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

const CATALOGUES: Record<Language, Catalogue> = { en, ar, es, fr };

/** The bundled language for a tag like `fr`, `fr-CA` or `AR`; undefined when none is bundled. */
export function supportedLanguage(tag: string | undefined): Language | undefined {
  if (!tag) return undefined;
  const primary = tag.trim().slice(0, 2).toLowerCase();
  return (LANGUAGES as readonly string[]).includes(primary) ? (primary as Language) : undefined;
}

/** The first bundled language of an Accept-Language header, by descending quality. */
export function languageFromAcceptHeader(header: string | undefined): Language | undefined {
  if (!header) return undefined;
  const ranked = header
    .split(',')
    .slice(0, 20)
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      const quality = q ? Number(q.slice(2)) : 1;
      return { tag, quality: Number.isFinite(quality) ? quality : 0, index };
    })
    .filter((entry) => entry.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index);
  for (const entry of ranked) {
    const language = supportedLanguage(entry.tag);
    if (language) return language;
  }
  return undefined;
}

export function translate(language: Language, key: MessageKey, params: MessageParams = {}): string {
  return fillPlaceholders(CATALOGUES[language][key], (name) => (name in params ? String(params[name]) : undefined));
}

/** Replaces each `{name}` of a template by `valueOf(name)`; a name without a value stays as written. */
export function fillPlaceholders(template: string, valueOf: (name: string) => string | undefined): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => valueOf(name) ?? whole);
}
