import { AppError } from '../../lib/errors.js';
import type { AuthUser } from '../../lib/signed-in-user.js';
import type { AccountsService } from '../accounts/index.js';
import type { AuthService } from '../auth/index.js';
import type { ProfilesService } from './profiles.service.js';
import type { ChangeRoleInput, ChangeStatusInput, UserProfileRecord } from './users.schemas.js';

type SessionRevoker = Pick<AuthService, 'revokeUserSessions'>;
type AccountAdministration = Pick<AccountsService, 'changeRole' | 'changeStatus'>;

/**
 * An administrator's changes to other users' accounts (docs/api.md 3.4): their role, and suspension. The routes
 * admit administrators only; the accounts module re-checks, inside the change's transaction, that the caller
 * still is one.
 *
 * Both changes end the user's sessions when they take effect. The database trigger on `users.role`/`status`
 * already moves the `sessions` stamp, but processes that follow revocations through Redis trust a cached
 * session for up to a minute unless a revocation is announced, and the only announcement the auth module makes
 * is a revocation. Ending the sessions also makes the user sign in again, and so see their new role, agent and
 * agency ids in the login result.
 */
export class UserAdministration {
  constructor(
    private readonly accounts: AccountAdministration,
    private readonly sessions: SessionRevoker,
    private readonly profiles: Pick<ProfilesService, 'fullProfileOf'>,
  ) {}

  /** Sets another user's role; a change ends their sessions. Same role again: nothing changes (200). */
  async changeRole(caller: AuthUser, id: number, input: ChangeRoleInput): Promise<UserProfileRecord> {
    refuseOwnAccount(caller, id);
    const { changed } = await this.accounts.changeRole(caller.id, id, input.role);
    if (changed) await this.sessions.revokeUserSessions(id);
    return this.profiles.fullProfileOf(id);
  }

  /**
   * Suspends or reactivates another user's account. A suspension ends every session of the user, on every
   * process, even when the account was suspended already (the revocation is then a no-op, and the state is
   * sure to hold however an earlier attempt ended).
   */
  async changeStatus(caller: AuthUser, id: number, input: ChangeStatusInput): Promise<UserProfileRecord> {
    refuseOwnAccount(caller, id);
    await this.accounts.changeStatus(caller.id, id, input.status);
    if (input.status === 'suspended') await this.sessions.revokeUserSessions(id);
    return this.profiles.fullProfileOf(id);
  }
}

/**
 * An administrator cannot change their own role or status (as they cannot delete their own account through
 * DELETE /users/{id}): so there is always at least one active administrator left, and no one locks themself
 * out by mistake.
 */
function refuseOwnAccount(caller: AuthUser, id: number): void {
  if (id === caller.id) throw new AppError('conflict', 'user_admin_self');
}
