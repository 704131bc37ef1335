import type { FileStorage } from '../../adapters/storage/storage.js';
import { toApiTimestamp } from '../../lib/time.js';
import { avatarUrl } from '../media/index.js';
import type { AccountRow } from '../accounts/index.js';
import type { LoginResultRecord } from './auth.schemas.js';

export interface IssuedTokens {
  token: string;
  refreshToken: string;
  expiresIn: number;
  expiresAt: Date;
}

/** The login result of docs/api.md 2.1, plus the tokens' details. */
export function toLoginResult(user: AccountRow, tokens: IssuedTokens, storage: FileStorage): LoginResultRecord {
  return {
    user_id: user.id,
    token: tokens.token,
    email: user.email,
    username: user.username,
    display_name: user.display_name,
    first_name: user.first_name,
    last_name: user.last_name,
    avatar_url: avatarUrl(user.avatar_sizes, storage),
    phone: user.phone,
    mobile: user.mobile,
    whatsapp: user.whatsapp,
    role: user.role,
    registered_date: toApiTimestamp(user.created_at),
    agent_id: user.agent_id,
    agency_id: user.agency_id,
    refresh_token: tokens.refreshToken,
    expires_in: tokens.expiresIn,
    token_expires_at: toApiTimestamp(tokens.expiresAt.toISOString()),
  };
}
