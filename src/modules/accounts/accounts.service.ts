import type { Kysely, Transaction, Updateable } from 'kysely';
import { isUniqueViolation, lockTransactionKey } from '../../db/dialect/index.js';
import type { Executor } from '../../db/executor.js';
import type { DB, Role, UserRow, UserStatus, UsersTable } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { PasswordHasher } from './password-hasher.service.js';
import type { AccountRow } from './accounts.repository.js';
import type { DirectoryRecordMaker } from './directory-records.js';
import * as repository from './accounts.repository.js';

/** Roles whose accounts get a directory record at registration (docs/api.md 2.2). */
const DIRECTORY_KIND: Partial<Record<Role, 'agent' | 'agency'>> = { agent: 'agent', agency: 'agency' };

export interface NewAccount {
  username: string;
  email: string;
  /** Absent for accounts that sign in only through a social provider. */
  password?: string;
  role: Role;
  firstName?: string;
  lastName?: string;
  phone?: string;
}

export class AccountsService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly passwords: PasswordHasher,
    /** The directory's, which owns the agent and agency records. */
    private readonly directoryRecords: DirectoryRecordMaker,
  ) {}

  findByLogin(login: string): Promise<UserRow | undefined> {
    return repository.findUserByLogin(this.db, login);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return repository.findUserByEmail(this.db, email);
  }

  /** The active administrator with the lowest id (commands run without a signed-in user act as them). */
  findFirstAdministrator(): Promise<UserRow | undefined> {
    return repository.findFirstAdministrator(this.db);
  }

  async findAccount(id: number): Promise<AccountRow | undefined> {
    const [account] = await repository.findAccounts(this.db, [id]);
    return account;
  }

  findAccounts(ids: readonly number[]): Promise<AccountRow[]> {
    return repository.findAccounts(this.db, ids);
  }

  // Writes other modules ask for: the `users` table is this module's (modules/table-owners.ts). Each takes the
  // caller's transaction when the change belongs to one, else runs on its own.

  /**
   * A user's own profile fields (the users module has checked them). A taken e-mail address fails with the
   * driver's unique violation, which the caller turns into its answer.
   */
  async updateProfileFields(userId: number, changes: Updateable<UsersTable>, db: Executor = this.db): Promise<void> {
    await repository.updateUser(db, userId, changes);
  }

  /** A new password hash (a password reset), in the reset's transaction. */
  async setPasswordHash(trx: Transaction<DB>, userId: number, hash: string, now: string): Promise<void> {
    await repository.updateUser(trx, userId, { password_hash: hash, updated_at: now });
  }

  /**
   * Takes the user's row lock (PostgreSQL; SQLite has one writer anyway) by touching `updated_at`, so that
   * concurrent changes of one user's avatar run in turn.
   */
  async lockForAvatarChange(trx: Transaction<DB>, userId: number, now: string): Promise<void> {
    await repository.updateUser(trx, userId, { updated_at: now });
  }

  /** Points the user's avatar at a media row (the media module's), or at none. */
  async setAvatar(db: Executor, userId: number, mediaId: number | null): Promise<void> {
    await repository.updateUser(db, userId, { avatar_media_id: mediaId });
  }

  /** Deletes the account row, last in an account deletion's transaction; cascades and set-nulls do the rest. */
  async deleteAccountRow(trx: Transaction<DB>, userId: number): Promise<void> {
    await repository.deleteUser(trx, userId);
  }

  /**
   * Creates an account, and for the agent and agency roles its directory record, in one transaction.
   * A taken e-mail or username is a 409 naming which one; usernames differing only in case count as taken.
   * `claim` runs first in that transaction (a one-time token spent on the account): when it throws, nothing is made.
   */
  async createUser(account: NewAccount, claim?: (trx: Transaction<DB>) => Promise<void>): Promise<UserRow> {
    const email = account.email.trim().toLowerCase();
    if (await repository.findUserByEmail(this.db, email)) throw new AppError('email_taken');
    if (await repository.usernameExists(this.db, account.username)) throw new AppError('username_taken');
    const firstName = account.firstName?.trim() ?? '';
    const lastName = account.lastName?.trim() ?? '';
    const phone = account.phone?.trim() ?? '';
    const displayName = `${firstName} ${lastName}`.trim() || account.username;
    const passwordHash = account.password === undefined ? null : await this.passwords.hash(account.password);
    const now = nowIso();
    try {
      return await this.db.transaction().execute(async (trx) => {
        await claim?.(trx);
        const user = await repository.insertUser(trx, {
          username: account.username,
          email,
          password_hash: passwordHash,
          role: account.role,
          status: 'active',
          display_name: displayName,
          first_name: firstName,
          last_name: lastName,
          phone,
          created_at: now,
          updated_at: now,
        });
        const kind = DIRECTORY_KIND[account.role];
        if (kind) await this.directoryRecords.ensureRecordOf(trx, kind, user, now);
        return user;
      });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // Lost a race with a concurrent registration: the winner has committed, so the loser is told which of
      // the two it took, as the checks above would have said a moment later.
      if (await repository.findUserByEmail(this.db, email)) throw new AppError('email_taken');
      if (await repository.usernameExists(this.db, account.username)) throw new AppError('username_taken');
      throw new AppError('conflict');
    }
  }

  /**
   * An administrator sets another user's role (docs/api.md 3.4). A user made an agent or an agency who has no
   * agent or agency record yet gets one, made as registration makes it; records of an earlier role stay, linked.
   * Returns whether the role changed (setting the same role again only makes sure of the record).
   */
  async changeRole(actorId: number, userId: number, role: Role): Promise<{ changed: boolean }> {
    return this.administer(actorId, userId, async (trx, user, now) => {
      const changed = user.role !== role;
      if (changed) await repository.setUserAccess(trx, userId, { role }, now);
      const kind = DIRECTORY_KIND[role];
      if (kind) await this.directoryRecords.ensureRecordOf(trx, kind, user, now);
      return { changed };
    });
  }

  /** An administrator suspends or reactivates another user's account (docs/api.md 3.4); whether the status changed. */
  async changeStatus(actorId: number, userId: number, status: UserStatus): Promise<{ changed: boolean }> {
    return this.administer(actorId, userId, async (trx, user, now) => {
      const changed = user.status !== status;
      if (changed) await repository.setUserAccess(trx, userId, { status }, now);
      return { changed };
    });
  }

  /**
   * One change of an account by an administrator, in a transaction that first makes sure the actor still is an
   * active administrator. Such changes are serialized (one lock for all of them), so that two administrators
   * demoting or suspending each other at the same moment cannot both succeed and leave nobody to administer:
   * the second finds it has lost the role (403). Unknown user → 404.
   */
  private async administer<T>(
    actorId: number,
    userId: number,
    change: (trx: Transaction<DB>, user: UserRow, now: string) => Promise<T>,
  ): Promise<T> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await lockTransactionKey(trx, 'account-administration');
        if (!(await repository.isActiveAdministrator(trx, actorId))) throw new AppError('forbidden');
        const user = await repository.findUserById(trx, userId);
        if (!user) throw AppError.notFound();
        return change(trx, user, nowIso());
      });
    } catch (error) {
      // A directory slug taken by a concurrent registration between our look and our insert.
      if (isUniqueViolation(error)) throw new AppError('conflict');
      throw error;
    }
  }

  /**
   * The administrator of ADMIN_EMAIL / `create-admin`: created when no account has that e-mail, with a
   * username taken from the address; an existing account is left as it is.
   */
  async ensureAdministrator(email: string, password: string, username?: string): Promise<{ user: UserRow; created: boolean }> {
    const existing = await repository.findUserByEmail(this.db, email);
    if (existing) return { user: existing, created: false };
    const user = await this.createUser({
      username: username ?? (await this.freeUsername(email.split('@')[0] ?? 'admin')),
      email,
      password,
      role: 'administrator',
    });
    return { user, created: true };
  }

  /** A free username made from `wanted` (an e-mail's local part, a social profile's name). */
  async freeUsername(wanted: string): Promise<string> {
    const cleaned = wanted.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 50);
    const base = cleaned.length >= 3 ? cleaned : `${cleaned}admin`; // usernames are 3–60 characters
    for (let suffix = 0; ; suffix++) {
      const candidate = suffix === 0 ? base : `${base}${suffix + 1}`;
      if (!(await repository.usernameExists(this.db, candidate))) return candidate;
    }
  }
}
