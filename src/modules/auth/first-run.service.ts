import type { Kysely } from 'kysely';
import type { DB, UserRow } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { AccountsService } from '../accounts/index.js';
import type { FirstAdministratorInput } from './auth.schemas.js';
import * as repository from './auth.repository.js';
import { hashSecretToken, newSecretToken } from './secret-tokens.js';

/**
 * The first run (docs/operations.md, "First run"): a database with no active administrator gets, at each start,
 * a one-time token that `serve` prints as a link to the console's set-up page and keeps nowhere else (only its
 * hash is stored). The token creates one administrator and dies with it; a later start with an administrator
 * deletes any left. Whoever reads the server's output owns the installation, as with ADMIN_EMAIL.
 */
export class FirstRunService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
  ) {}

  /** A new set-up token while no administrator exists (the one of an earlier start stops working), else undefined. */
  async start(): Promise<string | undefined> {
    const token = (await this.users.findFirstAdministrator()) ? undefined : newSecretToken();
    await this.db.transaction().execute((trx) => repository.replaceSetupToken(trx, token && hashSecretToken(token), nowIso()));
    return token;
  }

  /** The first administrator, made with the set-up token, which is spent in the same transaction; another token → 400 on `token`. */
  createAdministrator(input: FirstAdministratorInput): Promise<UserRow> {
    const account = {
      username: input.username,
      email: input.email,
      password: input.password,
      role: 'administrator' as const,
      ...(input.first_name !== undefined ? { firstName: input.first_name } : {}),
      ...(input.last_name !== undefined ? { lastName: input.last_name } : {}),
    };
    return this.users.createUser(account, async (trx) => {
      if (!(await repository.consumeSetupToken(trx, hashSecretToken(input.token)))) {
        throw AppError.invalidField('token', 'rule_setup_token_invalid');
      }
    });
  }
}
