import { useTranslation } from 'react-i18next';
import { changeLanguage } from '../i18n';
import { isLanguage, LANGUAGE_NAMES, LANGUAGES } from '../i18n/languages';

/** The language of every screen (kept in this browser); Arabic turns the layout right to left. */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <label className="language-switch">
      <span className="visually-hidden">{t('common.language')}</span>
      <select
        value={i18n.language}
        onChange={(event) => {
          if (isLanguage(event.target.value)) void changeLanguage(i18n, event.target.value);
        }}
      >
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={language}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </label>
  );
}
