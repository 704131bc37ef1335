import i18next, { type i18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { ConsoleFeature } from '../features/types';
import { common } from './common';
import { directionOf, isLanguage, type Language, LANGUAGES } from './languages';

const STORAGE_KEY = 'realty-console-language';

/** The language chosen before (kept in this browser), else the browser's own when the console speaks it, else English. */
function initialLanguage(): Language {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (isLanguage(stored)) return stored;
  const preferred = navigator.language.slice(0, 2);
  return isLanguage(preferred) ? preferred : 'en';
}

/** i18next with the common words and every feature's messages under its id (`moderation.title`). */
export async function createI18n(features: readonly ConsoleFeature[]): Promise<i18n> {
  const resources = Object.fromEntries(
    LANGUAGES.map((language) => [
      language,
      {
        translation: {
          common: common[language],
          ...Object.fromEntries(features.map((feature) => [feature.id, feature.messages[language]])),
        },
      },
    ]),
  );
  const instance = i18next.createInstance();
  const language = initialLanguage();
  await instance.use(initReactI18next).init({
    resources,
    lng: language,
    fallbackLng: 'en',
    supportedLngs: [...LANGUAGES],
    // React escapes what it renders; i18next escaping on top would show entities.
    interpolation: { escapeValue: false },
  });
  applyDirection(language);
  return instance;
}

export async function changeLanguage(instance: i18n, language: Language): Promise<void> {
  localStorage.setItem(STORAGE_KEY, language);
  await instance.changeLanguage(language);
  applyDirection(language);
}

/** `<html lang dir>`: the browser mirrors the layout for Arabic (the stylesheet uses logical properties). */
function applyDirection(language: Language): void {
  document.documentElement.lang = language;
  document.documentElement.dir = directionOf(language);
}
