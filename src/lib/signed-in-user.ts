import type { Role } from '../db/schema/index.js';

/** The caller, as the bearer token and its session establish it; services decide access with it. */
export interface AuthUser {
  readonly id: number;
  readonly role: Role;
  readonly sessionId: string;
  readonly tokenExpiresAt: Date;
}
