import type { Kysely, Updateable } from 'kysely';
import type { FileStorage } from '../../adapters/storage/storage.js';
import { isUniqueViolation } from '../../db/dialect/index.js';
import type { DB, UsersTable } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { pageWindow, paginationOf } from '../../lib/paging.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import { plainText } from '../../lib/text.js';
import { nowIso } from '../../lib/time.js';
import { type AuthService, LoginLocks } from '../auth/index.js';
import type { PasswordHasher, AccountRow, AccountsService } from '../accounts/index.js';
import type { ListingMoves } from '../properties/index.js';
import * as repository from './profiles.repository.js';
import { toPublicUserProfile, toUserProfile } from './users.mapper.js';
import {
  type DeleteProfileInput,
  type ListUsersInput,
  PROFILE_READERS,
  type PublicUserProfileRecord,
  type UpdateProfileInput,
  type UserListRecord,
  type UserProfileRecord,
} from './users.schemas.js';

/** Removes a user's uploads: rows first, then files (the media module). */
export interface OwnedMediaRemover {
  deleteAllOwnedBy(userId: number): Promise<void>;
}

type SessionRevoker = Pick<AuthService, 'revokeUserSessions'>;

/** What an account deletion asks of the listings module, which owns `listings` and their history. */
export type DeletedAuthorListings = Pick<ListingMoves, 'releaseListingsOfDeletedAuthor'>;

/** Profiles (docs/api.md 3.1) and the account operations of 3.2: read, update, list, delete. */
export class ProfilesService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
    private readonly sessions: SessionRevoker,
    private readonly passwords: PasswordHasher,
    private readonly media: OwnedMediaRemover,
    private readonly storage: FileStorage,
    private readonly locks: LoginLocks,
    private readonly listings: DeletedAuthorListings,
  ) {}

  async ownProfile(caller: AuthUser): Promise<UserProfileRecord> {
    return this.fullProfile(await this.existingAccount(caller.id));
  }

  /** Anyone's full profile, for callers whose right to it is settled (an administrator's account changes). */
  async fullProfileOf(id: number): Promise<UserProfileRecord> {
    return this.fullProfile(await this.existingAccount(id));
  }

  /** Full for the user themself, administrators and managers; public for everyone else. */
  async profileFor(caller: AuthUser, id: number): Promise<UserProfileRecord | PublicUserProfileRecord> {
    const account = await this.existingAccount(id);
    const counts = (await repository.findProfileCounts(this.db, [id])).get(id);
    const full = caller.id === id || (PROFILE_READERS as readonly string[]).includes(caller.role);
    return full ? toUserProfile(account, counts, this.storage) : toPublicUserProfile(account, counts, this.storage);
  }

  /**
   * Partial update of the caller's own profile. A new e-mail address or password needs the current password,
   * except on an account that has none (social sign-in only): there is nothing to check, and it may set its
   * first password this way. Setting a password signs out every other session of the user.
   */
  async updateProfile(caller: AuthUser, input: UpdateProfileInput): Promise<UserProfileRecord> {
    const account = await this.existingAccount(caller.id);
    const changes = textChanges(input);
    const email = input.email?.trim().toLowerCase();
    const emailChanges = email !== undefined && email !== account.email;
    if (emailChanges || input.password !== undefined) {
      await this.checkPassword(account, input.current_password, 'current_password');
    }
    if (emailChanges) {
      if (await this.users.findByEmail(email)) throw new AppError('email_taken');
      changes.email = email;
    }
    if (input.password !== undefined) changes.password_hash = await this.passwords.hash(input.password);
    if (Object.keys(changes).length > 0) {
      try {
        await this.users.updateProfileFields(account.id, { ...changes, updated_at: nowIso() });
      } catch (error) {
        // Lost a race with another account taking the same address.
        if (isUniqueViolation(error)) throw new AppError('email_taken');
        throw error;
      }
    }
    if (input.password !== undefined) await this.sessions.revokeUserSessions(account.id, caller.sessionId);
    return this.ownProfile(caller);
  }

  /** Administrators and managers (the route checks the role): newest first, with counts loaded per page. */
  async listUsers(query: ListUsersInput): Promise<UserListRecord> {
    const window = pageWindow(query);
    const search = query.search?.trim();
    const { ids, total } = await repository.findUserPage(this.db, {
      ...(query.role !== undefined ? { role: query.role } : {}),
      ...(query.status !== undefined ? { status: query.status } : {}),
      ...(search ? { search } : {}),
      limit: window.perPage,
      offset: window.offset,
    });
    const [accounts, counts] = await Promise.all([this.users.findAccounts(ids), repository.findProfileCounts(this.db, ids)]);
    const byId = new Map(accounts.map((account) => [account.id, account]));
    const users = ids.flatMap((id) => {
      const account = byId.get(id); // absent only when deleted between the two queries
      return account ? [toUserProfile(account, counts.get(id), this.storage)] : [];
    });
    return { users, pagination: paginationOf(total, window) };
  }

  /** The caller deletes their own account, confirming with their password when the account has one. */
  async deleteOwnAccount(caller: AuthUser, input: DeleteProfileInput): Promise<void> {
    const account = await this.existingAccount(caller.id);
    await this.checkPassword(account, input.password, 'password');
    await this.deleteAccount(account.id);
  }

  /** An administrator (the route checks the role) deletes another user's account. */
  async deleteUser(caller: AuthUser, id: number): Promise<void> {
    // Their own goes through delete-profile, which asks for their password.
    if (id === caller.id) throw new AppError('conflict', 'profile_delete_self');
    await this.existingAccount(id);
    await this.deleteAccount(id);
  }

  /**
   * docs/api.md 3.2's data rules. Sessions are revoked first so that no cache keeps them alive; media go before
   * the transaction because their files cannot be rolled back; the rest is one transaction, in which each
   * owning module makes its own change: the listings module takes the author's listings off the site (deleted,
   * or published ones kept as drafts), then accounts deletes the user row. Sessions and favorites go with that
   * row (cascade), and the user's agent or agency record stays with no user (set null).
   */
  private async deleteAccount(userId: number): Promise<void> {
    await this.sessions.revokeUserSessions(userId);
    await this.media.deleteAllOwnedBy(userId);
    const now = nowIso();
    await this.db.transaction().execute(async (trx) => {
      await this.listings.releaseListingsOfDeletedAuthor(trx, userId, now);
      await this.users.deleteAccountRow(trx, userId);
    });
  }

  /**
   * Missing or wrong → 400 naming `field`; an account without a password has nothing to check. Wrong
   * guesses count towards the account lock of logins, so a stolen access token cannot be used to try
   * passwords at the general request rate.
   */
  private async checkPassword(account: AccountRow, password: string | undefined, field: 'password' | 'current_password'): Promise<void> {
    if (account.password_hash === null) return;
    if (!password) throw AppError.invalidField(field, 'rule_required');
    const lockKey = LoginLocks.keyFor(account.username, account.id);
    await this.locks.assertOpen(lockKey);
    if (!(await this.passwords.verify(account.password_hash, password))) {
      await this.locks.recordFailure(lockKey);
      throw AppError.invalidField(field, 'profile_password_incorrect');
    }
  }

  private async existingAccount(id: number): Promise<AccountRow> {
    const account = await this.users.findAccount(id);
    if (!account) throw AppError.notFound();
    return account;
  }

  private async fullProfile(account: AccountRow): Promise<UserProfileRecord> {
    const counts = (await repository.findProfileCounts(this.db, [account.id])).get(account.id);
    return toUserProfile(account, counts, this.storage);
  }
}

/** The free-text fields of an update, cleaned: plain text trimmed, an empty display name refused. */
function textChanges(input: UpdateProfileInput): Updateable<UsersTable> {
  const changes: Updateable<UsersTable> = {};
  for (const field of ['first_name', 'last_name', 'bio'] as const) {
    const value = input[field];
    if (value !== undefined) changes[field] = plainText(value);
  }
  if (input.display_name !== undefined) {
    const displayName = plainText(input.display_name);
    if (!displayName) throw AppError.invalidField('display_name', 'profile_display_name_blank');
    changes.display_name = displayName;
  }
  for (const field of ['phone', 'mobile', 'whatsapp', 'language'] as const) {
    const value = input[field];
    if (value !== undefined) changes[field] = value.trim();
  }
  if (input.website !== undefined) {
    // The schema's pattern admits only http(s) URLs; the parser also rejects hosts no browser would open.
    if (input.website !== '' && !URL.canParse(input.website)) throw AppError.invalidField('website', 'rule_pattern');
    changes.website = input.website;
  }
  return changes;
}
