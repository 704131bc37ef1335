import { type ComponentType, createElement, lazy, type ReactNode, Suspense } from 'react';
import { Loading } from './ui';

/** An element shown inside Suspense, with the console's loading line while its code arrives. */
function suspended(element: ReactNode): ReactNode {
  return <Suspense fallback={<Loading />}>{element}</Suspense>;
}

/**
 * A route's page loaded on first use: `lazyPage(() => import('./X'))` (X's default export is the page) gives the
 * element for a route entry, so the page's code stays out of the console's first load.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ReactNode {
  return suspended(createElement(lazy(load)));
}
