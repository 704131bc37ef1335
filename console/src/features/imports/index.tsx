import { lazyPage } from '../../components/lazy-page';
import { ADMINISTRATORS, type ConsoleFeature } from '../types';
import { IMPORTS_RESOURCE } from './imports';
import { messages } from './messages';

/** Imports over HTTP (administrators): the runs, and one run's counts, rejected records and warnings. */
export const importsFeature: ConsoleFeature = {
  id: 'imports',
  messages,
  routes: [
    { path: '/imports', roles: ADMINISTRATORS, element: lazyPage(() => import('./ImportsPage')) },
    { path: '/imports/:id', roles: ADMINISTRATORS, element: lazyPage(() => import('./ImportRunPage')) },
  ],
  menu: [{ path: '/imports', label: 'imports.title', roles: ADMINISTRATORS }],
  resources: [{ name: IMPORTS_RESOURCE, list: '/imports', itemsKey: 'import_runs', one: '/imports/:id' }],
};
