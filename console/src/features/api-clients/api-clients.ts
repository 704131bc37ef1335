import type { Schemas } from '@realty-api/client';

/** A machine client as the API gives it (docs/api.md 17). */
export type ApiClient = Schemas['ApiClient'];
type Scope = ApiClient['scopes'][number];

/** The scopes in the order the form offers them: reading first, then writing, then the rest. */
export const SCOPES: readonly Scope[] = [
  'listings:read',
  'listings:write',
  'directory:write',
  'leads:read',
  'reviews:moderate',
  'users:read',
  'webhooks:manage',
  'exports:read',
  'imports:write',
  'payments:read',
];

/** A scope's message key (`listings:read` → `api-clients.scope_listings_read`). */
export function scopeKey(scope: string): string {
  return `api-clients.scope_${scope.replace(':', '_')}`;
}

/** The allow-list typed in the form, one address or range per line (or comma), as the API takes it: null for any. */
export function addressesOf(text: string): string[] | null {
  const entries = [...new Set(text.split(/[\s,]+/).filter(Boolean))];
  return entries.length === 0 ? null : entries;
}
