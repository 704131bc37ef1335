import type { ReactNode } from 'react';
import type { Role } from '../api/session';
import type { Messages } from '../i18n/languages';

/** A page of the console at `path` (relative to /console), for the roles listed (every signed-in user when absent). */
interface ConsoleRoute {
  path: string;
  element: ReactNode;
  roles?: readonly Role[];
}

/** An entry of the side navigation: `label` is a message key of the feature (`<feature id>.<key>`). */
export interface MenuItem {
  path: string;
  label: string;
  roles?: readonly Role[];
}

/**
 * How the data provider (refine/data-provider.ts) reaches a collection of the API: `list` answers
 * `{<itemsKey>: [...], pagination}`; `one`, `update` and `remove` take the id in place of `:id`.
 */
export interface ApiResource {
  name: string;
  list?: string;
  itemsKey?: string;
  one?: string;
  create?: string;
  update?: string;
  remove?: string;
}

/**
 * One part of the console (features/<id>/): its pages, menu entries, API resources and messages. Its
 * messages are found under `<id>.` (i18n/index.ts), so features never collide on a key.
 */
export interface ConsoleFeature {
  id: string;
  messages: Messages;
  /** Pages inside the signed-in shell. */
  routes?: ConsoleRoute[];
  /** Pages anyone can open (signing in, resetting a password). */
  publicRoutes?: ConsoleRoute[];
  menu?: MenuItem[];
  resources?: ApiResource[];
}

/** Whoever may open a page or see an entry: everyone signed in when `roles` is absent. */
export function allows(roles: readonly Role[] | undefined, role: Role | undefined): boolean {
  return roles === undefined || (role !== undefined && roles.includes(role));
}

/** Roles that may create listings (docs/api.md 0.3). */
export const LISTING_CREATORS: readonly Role[] = ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller'];
/** Roles that moderate listings and read users. */
export const MODERATORS: readonly Role[] = ['administrator', 'manager'];
export const ADMINISTRATORS: readonly Role[] = ['administrator'];
