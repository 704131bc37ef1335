import type { UserRow } from '../../db/schema.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { LoginResultRecord } from './auth.schemas.js';

export interface IssuedTokens {
  token: string;
  refreshToken: string;
  expiresIn: number;
  expiresAt: Date;
}

/** The login result of seed 2.1. Agent and agency records arrive with the accounts issue; until then null. */
export function toLoginResult(user: UserRow, tokens: IssuedTokens): LoginResultRecord {
  return {
    user_id: user.id,
    token: tokens.token,
    email: user.email,
    username: user.username,
    display_name: user.display_name,
    first_name: user.first_name,
    last_name: user.last_name,
    avatar_url: '',
    phone: user.phone,
    mobile: user.mobile,
    whatsapp: user.whatsapp,
    role: user.role,
    registered_date: toApiTimestamp(user.created_at),
    agent_id: null,
    agency_id: null,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    token_expires_at: toApiTimestamp(tokens.expiresAt.toISOString()),
  };
}
