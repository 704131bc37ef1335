import type { Role } from '../db/schema/index.js';

/** The caller, as the bearer token and its session establish it; services decide access with it. */
export interface AuthUser {
  readonly id: number;
  readonly role: Role;
  readonly sessionId: string;
  readonly tokenExpiresAt: Date;
  /**
   * Set when the caller is a machine client (modules/api-clients): it acts with the rights of the administrator
   * who made it (`id`, `role`), on the routes its scopes grant.
   */
  readonly client?: { readonly id: number; readonly clientId: string; readonly name: string };
}
