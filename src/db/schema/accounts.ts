import type { Generated, Insertable, Selectable } from 'kysely';
import type { SocialProvider } from '../../lib/social-providers.js';

/** Accounts: users, their sessions and sign-in records. */
export interface AccountsTables {
  users: UsersTable;
  sessions: SessionsTable;
  retired_refresh_tokens: RetiredRefreshTokensTable;
  password_resets: PasswordResetsTable;
  login_locks: LoginLocksTable;
  social_accounts: SocialAccountsTable;
  setup_tokens: SetupTokensTable;
}

export const ROLES = ['administrator', 'manager', 'agency', 'agent', 'owner', 'seller', 'buyer'] as const;

export type Role = (typeof ROLES)[number];

/** A suspended account cannot sign in, and its sessions are revoked when it is suspended. */
export const USER_STATUSES = ['active', 'suspended'] as const;

export type UserStatus = (typeof USER_STATUSES)[number];

export interface UsersTable {
  id: Generated<number>;
  username: string;
  /** Stored lower-cased, so that uniqueness and look-ups ignore case on both dialects. */
  email: string;
  /** Null for accounts that only sign in through a social provider. */
  password_hash: string | null;
  role: Role;
  status: Generated<UserStatus>;
  display_name: string;
  first_name: Generated<string>;
  last_name: Generated<string>;
  phone: Generated<string>;
  mobile: Generated<string>;
  whatsapp: Generated<string>;
  bio: Generated<string>;
  website: Generated<string>;
  language: Generated<string>;
  avatar_media_id: Generated<number | null>;
  created_at: string;
  updated_at: string;
}

interface SessionsTable {
  /** Random, unguessable: it is the `sid` claim of every access token of the session. */
  id: string;
  user_id: number;
  /** SHA-256 of the current refresh token; the token itself is never stored. */
  refresh_token_hash: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

interface RetiredRefreshTokensTable {
  /** SHA-256 of a refresh token the session has rotated away. */
  token_hash: string;
  session_id: string;
  retired_at: string;
}

interface PasswordResetsTable {
  /** SHA-256 of the token mailed to the user. */
  token_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** The first run's one-time link (modules/auth/first-run.service.ts): at most one row, while no administrator exists. */
interface SetupTokensTable {
  /** SHA-256 of the token printed by `serve`. */
  token_hash: string;
  created_at: string;
}

export interface LoginLocksTable {
  /** The lower-cased username or e-mail a login named, whether or not an account has it. */
  login_key: string;
  failures: number;
  window_started_at: string;
  locked_until: string | null;
}

interface SocialAccountsTable {
  provider: SocialProvider;
  /** The provider's stable user id (`sub` for Google, the user id for Facebook). */
  subject: string;
  user_id: number;
  created_at: string;
}

export type UserRow = Selectable<UsersTable>;

export type NewUser = Insertable<UsersTable>;
