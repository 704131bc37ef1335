import type { Kysely } from 'kysely';
import { PROVIDER_NAMES, type SocialIdentity, type SocialVerifiers } from '../../adapters/social/index.js';
import { isUniqueViolation } from '../../db/dialect/index.js';
import { type DB, type UserRow } from '../../db/schema/index.js';
import { SOCIAL_PROVIDERS, type SocialProvider } from '../../lib/social-providers.js';
import { AppError } from '../../lib/errors.js';
import { nowIso } from '../../lib/time.js';
import type { AuthService } from '../auth/index.js';
import type { AccountsService } from '../accounts/index.js';
import { profileNames, wantedUsername } from './social-profile.js';
import * as repository from './social.repository.js';
import type { SocialConfigRecord, SocialLoginRecord } from './social.schemas.js';

/** The body field that carries each provider's token, named in 400 answers. */
const TOKEN_FIELD: Record<SocialProvider, string> = { google: 'id_token', facebook: 'access_token' };

export class SocialService {
  constructor(
    private readonly db: Kysely<DB>,
    private readonly users: AccountsService,
    private readonly auth: AuthService,
    private readonly verifiers: SocialVerifiers,
  ) {}

  /** What a client needs to offer the enabled providers; only public identifiers, never the app secret. */
  publicConfig(): SocialConfigRecord {
    const { google, facebook } = this.verifiers;
    return {
      google: { enabled: google !== undefined, client_id: google?.publicId ?? null },
      facebook: { enabled: facebook !== undefined, app_id: facebook?.publicId ?? null },
      available_providers: SOCIAL_PROVIDERS.filter((provider) => this.verifiers[provider] !== undefined),
    };
  }

  /**
   * Signs in with a token issued by a provider: verifies it with the provider, finds or creates the account
   * of that identity, and starts a session.
   */
  async login(provider: SocialProvider, token: string): Promise<SocialLoginRecord> {
    const verifier = this.verifiers[provider];
    if (!verifier) throw new AppError('forbidden', 'social_provider_disabled', [], { provider: PROVIDER_NAMES[provider] });
    const identity = await verifier.verify(token);
    const user = await this.accountOf(identity);
    return { ...(await this.auth.signIn(user)), social_provider: provider };
  }

  /**
   * The account of a verified identity: the linked one; else the account with the same e-mail address, linked
   * now, but only when the provider vouches for the address (otherwise anyone could claim an account by
   * putting its address on a provider profile); else a new password-less buyer account, linked.
   */
  private async accountOf(identity: SocialIdentity, retried = false): Promise<UserRow> {
    const linked = await repository.findLinkedUser(this.db, identity.provider, identity.subject);
    if (linked) return linked;

    const email = identity.email?.toLowerCase();
    const provider = PROVIDER_NAMES[identity.provider];
    if (!email) {
      throw new AppError(
        'validation_failed',
        'social_email_required',
        [{ field: TOKEN_FIELD[identity.provider], key: 'rule_social_email_missing' }],
        {
          provider,
        },
      );
    }

    const existing = await this.users.findByEmail(email);
    if (existing) {
      if (!identity.emailVerified) throw new AppError('email_taken', 'social_email_unverified', [], { provider });
      return this.link(identity, existing);
    }

    let created: UserRow;
    try {
      const { firstName, lastName } = profileNames(identity);
      created = await this.users.createUser({
        username: await this.users.freeUsername(wantedUsername(identity, email)),
        email,
        role: 'buyer',
        firstName,
        lastName,
      });
    } catch (error) {
      // A concurrent first sign-in of the same identity (or a registration taking the address or the chosen
      // username) got there first: resolve once more against what it created.
      if (!retried && error instanceof AppError && error.status === 409) return this.accountOf(identity, true);
      throw error;
    }
    return this.link(identity, created);
  }

  /** Links the identity to the account; when a concurrent sign-in linked it first, that link wins. */
  private async link(identity: SocialIdentity, user: UserRow): Promise<UserRow> {
    try {
      await repository.insertLink(this.db, {
        provider: identity.provider,
        subject: identity.subject,
        userId: user.id,
        createdAt: nowIso(),
      });
      return user;
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const winner = await repository.findLinkedUser(this.db, identity.provider, identity.subject);
      if (!winner) throw error;
      return winner;
    }
  }
}
