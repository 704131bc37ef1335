import type { Schemas } from '@realty-api/client';
import type { CrudFilter } from '@refinedev/core';
import type { Role } from '../../api/session';

/** The data provider's name for GET /users and DELETE /users/{id} (declared in ./index.tsx). */
export const USERS_RESOURCE = 'admin-users';

/** Every role of docs/api.md 0.3, most powerful first. */
export const ROLES: readonly Role[] = ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller', 'buyer'];
export const USER_STATUSES = ['active', 'suspended'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A user of GET /users: the full profile (docs/api.md 3.1). */
export type UserRecord = Schemas['UserProfile'];

/** The list's filters as the page's form holds them. */
export interface UserFilters {
  search: string;
  role: string;
  status: string;
}

/** Refine filters (operator `eq` becomes a query parameter) from the form; empty values are left out. */
export function toCrudFilters(filters: UserFilters): CrudFilter[] {
  const out: CrudFilter[] = [];
  const search = filters.search.trim();
  if (search !== '') out.push({ field: 'search', operator: 'eq', value: search.slice(0, 200) });
  if ((ROLES as readonly string[]).includes(filters.role)) out.push({ field: 'role', operator: 'eq', value: filters.role });
  if ((USER_STATUSES as readonly string[]).includes(filters.status)) out.push({ field: 'status', operator: 'eq', value: filters.status });
  return out;
}

/** The form's values from Refine's current filters (after a reload with the filters in the address). */
export function fromCrudFilters(filters: readonly CrudFilter[]): UserFilters {
  const value = (field: string): string => {
    const found = filters.find((filter) => 'field' in filter && filter.field === field);
    return found && found.value !== undefined && found.value !== null ? String(found.value) : '';
  };
  return { search: value('search'), role: value('role'), status: value('status') };
}

/** What the viewer may do to a user: administrators manage everyone but themself; managers only read. */
export function actionsFor(viewer: { role: Role; user_id: number } | null | undefined, user: Pick<UserRecord, 'user_id'>) {
  const administrator = viewer?.role === 'administrator';
  const self = viewer?.user_id === user.user_id;
  return { manage: administrator && !self, self };
}

/** The status a suspend / reactivate button sets. */
export function toggledStatus(status: UserStatus): UserStatus {
  return status === 'suspended' ? 'active' : 'suspended';
}

/** The name to show for a user: the display name, else the username. */
export function nameOf(user: Pick<UserRecord, 'display_name' | 'username'>): string {
  return user.display_name.trim() || user.username;
}
