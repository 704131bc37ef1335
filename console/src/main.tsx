import './styles.css';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { matchPath } from 'react-router';
import { App } from './App';
import { configureClient } from './api/client';
import { session } from './api/session';
import { preloadPage } from './components/lazy-page';
import { loadSettings } from './settings';
import { FEATURES } from './features';
import { createI18n } from './i18n';

// What the first screen needs is asked for at once and side by side: the page's code, the settings, then the session
// (which needs the settings' API address) while the messages are set up, rather than each after the one before.
const opened = window.location.pathname.replace(/^\/console/, '') || '/';
const route = FEATURES.flatMap((feature) => [...(feature.routes ?? []), ...(feature.publicRoutes ?? [])]).find((candidate) =>
  matchPath(candidate.path, opened),
);
if (route) preloadPage(route.element);
const settings = await loadSettings();
configureClient({ apiBase: settings.api_base });
// Kept for the sign-in check (api/session.ts memoizes it); its failure is that check's answer.
session.restore().catch(() => {});
const i18n = await createI18n(FEATURES);
configureClient({ language: () => i18n.language });

// As a transition, the first render yields to the browser every few milliseconds instead of holding the main thread
// for the whole tree at once: a slow phone stays responsive while the console starts.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <App i18n={i18n} />
    </StrictMode>,
  ),
);
