import type { Kysely } from 'kysely';
import type { DB, NotificationType } from '../../../db/schema/index.js';
import { AppError } from '../../../lib/errors.js';
import { preferencesOf } from '../delivery/notification-preferences.js';
import { findPreferenceRows, findUserLanguages } from '../notifications.repository.js';
import type { NotificationsService } from '../notifications.service.js';
import type { UnsubscribeClaim, UnsubscribeTokens } from './unsubscribe-tokens.service.js';

export interface UnsubscribeState {
  type: NotificationType;
  /** Whether e-mails of the type are on for the token's user. */
  email: boolean;
}

/**
 * The e-mails' unsubscribe links (docs/api.md 8): the token alone says which user and which type, so they work
 * without signing in. Reading the state changes nothing (mail scanners fetch links); only a POST turns the
 * e-mail of the type off, as RFC 8058's one-click unsubscribe does.
 */
export class UnsubscribeService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly notifications: NotificationsService,
    private readonly tokens: UnsubscribeTokens,
  ) {}

  /** The token's type and whether its e-mails are on now. */
  async state(token: string): Promise<UnsubscribeState> {
    const { userId, type } = await this.claimOf(token);
    const preferences = preferencesOf(await findPreferenceRows(this.db, [userId]));
    return { type, email: preferences[type].email };
  }

  /** Turns the token's type of e-mail off for its user; doing it again changes nothing. */
  async unsubscribe(token: string): Promise<UnsubscribeState & { email: false }> {
    const { userId, type } = await this.claimOf(token);
    await this.notifications.switchOff(userId, type, 'email');
    return { type, email: false };
  }

  /** A malformed or forged token → 400 on `token`; a token of a deleted user → 404. */
  private async claimOf(token: string): Promise<UnsubscribeClaim> {
    const claim = this.tokens.verify(token);
    if (!claim) throw AppError.invalidField('token', 'notification_rule_unsubscribe_token');
    if ((await findUserLanguages(this.db, [claim.userId])).size === 0) throw AppError.notFound();
    return claim;
  }
}
