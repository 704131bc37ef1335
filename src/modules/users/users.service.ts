import type { Kysely } from 'kysely';
import { isUniqueViolation } from '../../db/dialect/index.js';
import type { DB, Role, UserRow } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { nowIso } from '../../lib/time.js';
import type { PasswordHasher } from '../auth/passwords.js';
import * as repository from './users.repository.js';

export interface NewAccount {
  username: string;
  email: string;
  password: string;
  role: Role;
  firstName?: string;
  lastName?: string;
}

export class UsersService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly passwords: PasswordHasher,
  ) {}

  findByLogin(login: string): Promise<UserRow | undefined> {
    return repository.findUserByLogin(this.db, login);
  }

  /** Creates an account; a taken e-mail or username is a 409 naming which one. */
  async createUser(account: NewAccount): Promise<UserRow> {
    const email = account.email.trim().toLowerCase();
    if (await repository.findUserByEmail(this.db, email)) throw new AppError('email_taken');
    if (await repository.usernameExists(this.db, account.username)) throw new AppError('username_taken');
    const firstName = account.firstName?.trim() ?? '';
    const lastName = account.lastName?.trim() ?? '';
    const now = nowIso();
    try {
      return await repository.insertUser(this.db, {
        username: account.username,
        email,
        password_hash: await this.passwords.hash(account.password),
        role: account.role,
        status: 'active',
        display_name: `${firstName} ${lastName}`.trim() || account.username,
        first_name: firstName,
        last_name: lastName,
        created_at: now,
        updated_at: now,
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

  private async freeUsername(wanted: string): Promise<string> {
    const cleaned = wanted.replace(/[^A-Za-z0-9_.-]/g, '').slice(0, 50);
    const base = cleaned.length >= 3 ? cleaned : `${cleaned}admin`; // usernames are 3–60 characters
    for (let suffix = 0; ; suffix++) {
      const candidate = suffix === 0 ? base : `${base}${suffix + 1}`;
      if (!(await repository.usernameExists(this.db, candidate))) return candidate;
    }
  }
}
