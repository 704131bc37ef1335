import { Authenticated, type I18nProvider, Refine } from '@refinedev/core';
import routerProvider, { CatchAllNavigate } from '@refinedev/react-router';
import type { i18n } from 'i18next';
import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router';
import { Loading, NotFound } from './components/ui';
import { FEATURES } from './features';
import { changeLanguage } from './i18n';
import { isLanguage } from './i18n/languages';
import { MenuContext } from './layout/menu';
import { RequireRole } from './layout/RequireRole';
import { Shell } from './layout/Shell';
import { authProvider } from './refine/auth-provider';
import { createDataProvider } from './refine/data-provider';

const dataProvider = createDataProvider(FEATURES.flatMap((feature) => feature.resources ?? []));
const menu = FEATURES.flatMap((feature) => feature.menu ?? []);
const resources = FEATURES.flatMap((feature) => (feature.resources ?? []).map((resource) => ({ name: resource.name })));

/** The console: Refine over this API, the signed-in shell around every feature's pages, the public pages beside it. */
export function App({ i18n }: { i18n: i18n }) {
  const i18nProvider: I18nProvider = {
    translate: (key, options, defaultMessage) => String(i18n.t(key, { defaultValue: defaultMessage, ...(options as object) })),
    changeLocale: (language) => (isLanguage(language) ? changeLanguage(i18n, language) : Promise.resolve()),
    getLocale: () => i18n.language,
  };
  return (
    <BrowserRouter basename="/console">
      <Refine
        routerProvider={routerProvider}
        dataProvider={dataProvider}
        authProvider={authProvider}
        i18nProvider={i18nProvider}
        resources={resources}
        options={{
          disableTelemetry: true,
          syncWithLocation: false,
          warnWhenUnsavedChanges: true,
          reactQuery: { clientConfig: { defaultOptions: { queries: { retry: 1 } } } },
        }}
      >
        <MenuContext.Provider value={menu}>
          <Routes>
            <Route
              element={
                <Authenticated key="signed-in" fallback={<CatchAllNavigate to="/login" />} loading={<Loading />}>
                  <Shell />
                </Authenticated>
              }
            >
              {FEATURES.flatMap((feature) =>
                (feature.routes ?? []).map((route) => (
                  <Route key={route.path} path={route.path} element={<RequireRole roles={route.roles}>{route.element}</RequireRole>} />
                )),
              )}
              <Route path="*" element={<NotFound />} />
            </Route>
            {/* The signed-out pages show at once, while the session check runs: someone signing in does not wait
                for the renewal that tells them they are signed out; someone still signed in is taken home. */}
            <Route
              element={
                <Authenticated key="signed-out" fallback={<Outlet />} loading={<Outlet />}>
                  <Navigate to="/" replace />
                </Authenticated>
              }
            >
              {FEATURES.flatMap((feature) =>
                (feature.publicRoutes ?? []).map((route) => <Route key={route.path} path={route.path} element={route.element} />),
              )}
            </Route>
          </Routes>
        </MenuContext.Provider>
      </Refine>
    </BrowserRouter>
  );
}
