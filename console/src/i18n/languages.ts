/** The console's languages, as the API's (docs/api.md 0.5); Arabic is written right to left. */
export const LANGUAGES = ['en', 'ar', 'es', 'fr'] as const;
export type Language = (typeof LANGUAGES)[number];

export const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', ar: 'العربية', es: 'Español', fr: 'Français' };

export function directionOf(language: Language): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/** Messages of one part of the console in every language: the same keys in each (checked by a test). */
export type Messages = Record<Language, Record<string, string>>;
