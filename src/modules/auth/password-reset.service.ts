import type { Kysely } from 'kysely';
import type { Mailer } from '../../adapters/mail/mailer.js';
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

/** The outbox channel of reset requests (sent by `deliverReset`). */
export const PASSWORD_RESET_CHANNEL = 'password_reset';

/** A reset request as the outbox keeps it until it is delivered. */
interface ResetRequest {
  email: string;
  language: Language;
  token: string;
}

/** Password reset by e-mail (docs/api.md 2.2): a single-use link valid one hour, the mail sent through the outbox. */
export class PasswordResetService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
    private readonly passwords: PasswordHasher,
    private readonly revocations: RevocationAnnouncer,
    private readonly resetPageUrl: string,
    private readonly mailer: Mailer,
  ) {}

  /**
   * Records a reset request in the outbox, whether an account has the address or not: both cases do the same
   * work (one token drawn, one outbox row written: the request is durable before the answer) and wait as long, so neither the answer
   * nor its timing tells whether the address is registered. The outbox sender (`deliverReset`) looks the
   * address up later and mails the link only to an active account.
   */
  async requestReset(email: string, requestLanguage: Language): Promise<void> {
    const request: ResetRequest = { email: email.trim(), language: requestLanguage, token: newSecretToken() };
    await enqueue(this.db, {
      channel: PASSWORD_RESET_CHANNEL,
      idempotencyKey: `password-reset:${hashSecretToken(request.token)}`,
      payload: request,
    });
  }

  /**
   * The outbox sender of reset requests: for an active account with the address, stores the token's hash (valid
   * one hour from now) and mails the link in the user's language, else the request's. A retry after a failed
   * send stores nothing new (the same token) and mails the same link. Once done, nothing of the request is
   * kept: its token is a secret and its address may belong to no one.
   */
  async deliverReset(payload: unknown): Promise<Record<string, never>> {
    const request = payload as ResetRequest;
    const user = await this.users.findByEmail(request.email);
    if (!user || user.status !== 'active') return {};
    const tokenHash = hashSecretToken(request.token);
    const now = new Date();
    await repository.insertPasswordReset(this.db, {
      tokenHash,
      userId: user.id,
      now: nowIso(now),
      expiresAt: nowIso(new Date(now.getTime() + RESET_TTL_MINUTES * 60_000)),
    });
    const language = supportedLanguage(user.language) ?? request.language;
    const link = new URL(this.resetPageUrl);
    link.searchParams.set('token', request.token);
    const params = { name: user.display_name, link: link.toString(), minutes: RESET_TTL_MINUTES };
    await this.mailer.send({
      to: user.email,
      subject: translate(language, 'reset_mail_subject'),
      text: translate(language, 'reset_mail_body', params),
      idempotencyKey: `password-reset:${tokenHash}`,
    });
    return {};
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
      await this.users.setPasswordHash(trx, owner, passwordHash, now); // accounts owns `users`
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
