import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { configureClient } from './api/client';
import { loadSettings } from './settings';
import { FEATURES } from './features';
import { createI18n } from './i18n';

const settings = await loadSettings();
configureClient({ apiBase: settings.api_base });
const i18n = await createI18n(FEATURES);
configureClient({ language: () => i18n.language });

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App i18n={i18n} />
  </StrictMode>,
);
