import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect/index.js';
import type { DB, Role, UserRow } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { PasswordHasher } from './password-hasher.service.js';
import { firstFreeSlug, slugify, sortKey } from '../../lib/slug.js';
import type { AccountRow } from './accounts.repository.js';
import * as repository from './accounts.repository.js';

/** Roles whose accounts get a directory record at registration (docs/api.md 2.2). */
const DIRECTORY_TABLE: Partial<Record<Role, 'agents' | 'agencies'>> = { agent: 'agents', agency: 'agencies' };

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
  ) {}

  findByLogin(login: string): Promise<UserRow | undefined> {
    return repository.findUserByLogin(this.db, login);
  }

  findByEmail(email: string): Promise<UserRow | undefined> {
    return repository.findUserByEmail(this.db, email);
  }

  async findAccount(id: number): Promise<AccountRow | undefined> {
    const [account] = await repository.findAccounts(this.db, [id]);
    return account;
  }

  findAccounts(ids: readonly number[]): Promise<AccountRow[]> {
    return repository.findAccounts(this.db, ids);
  }

  /**
   * Creates an account, and for the agent and agency roles its directory record, in one transaction.
   * A taken e-mail or username is a 409 naming which one; usernames differing only in case count as taken.
   */
  async createUser(account: NewAccount): Promise<UserRow> {
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
        const table = DIRECTORY_TABLE[account.role];
        if (table) {
          const slug = await firstFreeSlug(slugify(displayName) || slugify(account.username) || table, (candidate) =>
            repository.directorySlugTaken(trx, table, candidate),
          );
          await repository.insertDirectoryRecord(trx, table, {
            userId: user.id,
            name: displayName,
            slug,
            sortKey: sortKey(displayName),
            email,
            phone,
            now,
          });
        }
        return user;
      });
    } catch (error) {
      // Lost a race with a concurrent registration of the same name or address.
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
