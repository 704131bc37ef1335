import { type ComponentType, createElement, lazy, type ReactNode, Suspense } from 'react';
import { Loading } from './ui';

/** Each route's page gets a Suspense boundary of its own (see lazyPage). */
let pagesMade = 0;
/** Each lazy page's element and how to load its code, for preloadPage. */
const loaders = new WeakMap<object, () => Promise<unknown>>();

/**
 * A route's page loaded on first use: `lazyPage(() => import('./X'))` (X's default export is the page) gives the
 * element for a route entry, so the page's code stays out of the console's first load.
 *
 * The boundary is keyed per page. The router navigates inside a transition, and a boundary React reuses would keep
 * the page being left on screen, mounted and working, until the next page's code arrives: its timers could still
 * navigate (Explore's map reports a settled view by replacing the address) and send the user back. With a boundary
 * of its own, the next page shows the loading line at once and the page being left is gone.
 */
export function lazyPage(load: () => Promise<{ default: ComponentType }>): ReactNode {
  const element = (
    <Suspense key={`page-${pagesMade++}`} fallback={<Loading />}>
      {createElement(lazy(load))}
    </Suspense>
  );
  loaders.set(element, load);
  return element;
}

/**
 * Starts loading the code of a route's page made by lazyPage (nothing for another element). main.tsx calls it for the
 * address the console opens at, so the page's code arrives beside the settings and the session instead of after them.
 */
export function preloadPage(element: ReactNode): void {
  const load = typeof element === 'object' && element !== null ? loaders.get(element) : undefined;
  // A failure shows when the page itself renders (React's lazy loads it again).
  load?.().catch(() => {});
}
