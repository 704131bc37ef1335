import { fillPlaceholders, type Language } from '../i18n/index.js';

/**
 * The website's own wording, kept beside the pages that use it: each page folder (and the layout) defines its
 * texts once per language with `defineTexts`, English first. A text missing in one language is a type error,
 * so a new string cannot ship in English only. `{name}` placeholders are filled by `fill`.
 */
type TextSet<K extends string> = Readonly<Record<K, string>>;
export type Texts<K extends string> = Readonly<Record<Language, TextSet<K>>>;

export function defineTexts<const T extends Record<string, string>>(
  en: T,
  others: Record<Exclude<Language, 'en'>, Record<keyof T & string, string>>,
): Texts<keyof T & string> {
  return { en, ...others };
}

/** `template` with each `{name}` replaced by its parameter; a name without one stays as written. */
export function fill(template: string, params: Readonly<Record<string, string | number>>): string {
  return fillPlaceholders(template, (name) => (name in params ? String(params[name]) : undefined));
}
