import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema/index.js';
import { AppError } from '../../lib/errors.js';
import { type Language, supportedLanguage, translate } from '../../i18n/index.js';
import { enqueue } from '../../db/outbox.js';
import { nowIso } from '../../lib/time.js';
import type { AccountsService, PasswordHasher } from '../accounts/index.js';
import * as repository from './auth.repository.js';
import { LoginLocks } from './login-locks.service.js';
import type { RevocationAnnouncer } from './revocations.service.js';
import { hashSecretToken, newSecretToken } from './secret-tokens.js';

const RESET_TTL_MINUTES = 60;

/** Password reset by e-mail (docs/api.md 2.2): a single-use link valid one hour, the mail sent through the outbox. */
export class PasswordResetService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
    private readonly passwords: PasswordHasher,
    private readonly revocations: RevocationAnnouncer,
    private readonly resetPageUrl: string,
  ) {}

  /**
   * Mails a reset link when an active account has the address. The caller answers the same either way,
   * so the answer does not tell whether the address is registered.
   */
  async requestReset(email: string, requestLanguage: Language): Promise<void> {
    const user = await this.users.findByEmail(email.trim());
    if (!user || user.status !== 'active') return;
    const token = newSecretToken();
    const tokenHash = hashSecretToken(token);
    const now = new Date();
    const language = supportedLanguage(user.language) ?? requestLanguage;
    const link = new URL(this.resetPageUrl);
    link.searchParams.set('token', token);
    const params = { name: user.display_name, link: link.toString(), minutes: RESET_TTL_MINUTES };
    await this.db.transaction().execute(async (trx) => {
      await repository.insertPasswordReset(trx, {
        tokenHash,
        userId: user.id,
        now: nowIso(now),
        expiresAt: nowIso(new Date(now.getTime() + RESET_TTL_MINUTES * 60_000)),
      });
      await enqueue(trx, {
        channel: 'email',
        idempotencyKey: `password-reset:${tokenHash}`,
        payload: {
          to: user.email,
          subject: translate(language, 'reset_mail_subject'),
          text: translate(language, 'reset_mail_body', params),
        },
      });
    });
  }

  /** Sets the new password, spends the token (and every other of the user's), and ends all their sessions. */
  async confirmReset(token: string, password: string): Promise<void> {
    const tokenHash = hashSecretToken(token);
    // Checked before hashing, so that guessing tokens does not buy an argon2 computation each.
    if (!(await repository.passwordResetIsUsable(this.db, tokenHash, nowIso()))) throw invalidToken();
    const passwordHash = await this.passwords.hash(password);
    const now = nowIso();
    const userId = await this.db.transaction().execute(async (trx) => {
      const owner = await repository.consumePasswordReset(trx, tokenHash, now);
      if (owner === undefined) return undefined; // spent by a concurrent confirmation
      await repository.setPasswordHash(trx, owner, passwordHash, now);
      await repository.expirePasswordResets(trx, owner, now);
      await repository.revokeSessions(trx, { userId: owner }, now);
      await repository.clearLoginLocks(trx, [LoginLocks.keyFor('', owner)]);
      return owner;
    });
    if (userId === undefined) throw invalidToken();
    await this.revocations.announce();
  }
}

function invalidToken(): AppError {
  return AppError.invalidField('token', 'rule_reset_token_invalid');
}
