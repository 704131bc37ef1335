import type { AccountsServices } from '../accounts/index.js';
import type { AuthServices } from '../auth/index.js';
import type { MediaServices } from '../media/index.js';
import type { AppModule, Platform } from '../module.js';
import type { PropertiesServices } from '../properties/index.js';
import { ProfilesService } from './profiles.service.js';
import { UserAdministration } from './user-administration.service.js';
import { userRoutes } from './users.routes.js';
import { PublicUserProfile, UserProfile } from './users.schemas.js';

export interface UsersServices {
  /** Profiles and the account operations of docs/api.md 3.2: read, update, list, delete. */
  profiles: ProfilesService;
  /** An administrator's changes to other users' accounts (docs/api.md 3.4): role, suspension. */
  userAdministration: UserAdministration;
}

/** Users (docs/api.md 3): profiles, the directory of users, account deletion, role and suspension. */
export function createUsersModule(
  { database, storage }: Platform,
  {
    users,
    passwords,
    auth,
    loginLocks,
    media,
    listingMoves,
  }: AccountsServices & AuthServices & MediaServices & Pick<PropertiesServices, 'listingMoves'>,
): AppModule<UsersServices> {
  const profiles = new ProfilesService(database.db, users, auth, passwords, media, storage, loginLocks, listingMoves);
  const userAdministration = new UserAdministration(users, auth, profiles);
  return {
    services: { profiles, userAdministration },
    schemas: [UserProfile, PublicUserProfile],
    routes: async (api) => {
      await api.register(userRoutes, { profiles, administration: userAdministration });
    },
  };
}

export type { ProfilesService } from './profiles.service.js';
export type { UserProfileRecord } from './users.schemas.js';
