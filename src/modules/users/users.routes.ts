import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { Envelope, errorResponses } from '../../http/envelope.js';
import { bodyDefaultsToEmpty, callerOf } from '../../http/route-helpers.js';
import { translate } from '../../i18n/index.js';
import type { ProfilesService } from './profiles.service.js';
import type { UserAdministration } from './user-administration.service.js';
import {
  ChangeRoleBody,
  ChangeStatusBody,
  DeleteProfileBody,
  ListUsersQuery,
  PROFILE_READERS,
  UpdateProfileBody,
  UserIdParams,
  UserList,
} from './users.schemas.js';

const ProfileRef = Type.Ref('UserProfile');
const PublicProfileRef = Type.Ref('PublicUserProfile');
const Done = Type.Object({ success: Type.Boolean(), message: Type.String() });
const security = [{ bearer: [] }];
const signedIn = { auth: 'user' } as const;

/**
 * Profiles and accounts (docs/api.md 3.1, 3.2, 3.4). Static paths (`/users/me`, `/users/profile`, …) win over
 * `/users/:id` in the router, so the other modules' `/users/...` routes are not shadowed by it.
 */
export async function userRoutes(
  app: FastifyInstance,
  { profiles, administration }: { profiles: ProfilesService; administration: UserAdministration },
) {
  const api = app.withTypeProvider<TypeBoxTypeProvider>();

  api.get(
    '/users/me',
    {
      config: signedIn,
      schema: {
        tags: ['users'],
        summary: 'The caller’s own profile',
        description: 'The full profile of the signed-in user, as GET /users/{id} gives it to the user themself.',
        security,
        response: { 200: Envelope(ProfileRef), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => ({ success: true, data: await profiles.ownProfile(callerOf(request)) }),
  );

  api.put(
    '/users/profile',
    {
      config: signedIn,
      schema: {
        tags: ['users'],
        summary: 'Update the caller’s own profile; omitted fields stay unchanged',
        description:
          'Changing `email` or setting `password` needs `current_password` (missing or wrong → 400 on ' +
          '`current_password`), except for an account without a password (social sign-in only), which may ' +
          'set its first password without one. Setting a password signs out every other session. Any other ' +
          'field (role, status, username, …) → 400.',
        security,
        body: UpdateProfileBody,
        response: { 200: Envelope(ProfileRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await profiles.updateProfile(callerOf(request), request.body),
      message: translate(request.lang, 'profile_updated'),
    }),
  );

  api.delete(
    '/users/delete-profile',
    {
      config: signedIn,
      preValidation: bodyDefaultsToEmpty,
      schema: {
        tags: ['users'],
        summary: 'Delete the caller’s own account',
        description:
          '`password` confirms it (not needed for an account without one). Sessions, favorites, media and ' +
          'unpublished listings are deleted; published listings become drafts kept for the administrator; ' +
          'an agent or agency record stays, without its user.',
        security,
        body: DeleteProfileBody,
        response: { 200: Done, ...errorResponses(400, 401, 403, 404, 413, 415, 429) },
      },
    },
    async (request) => {
      await profiles.deleteOwnAccount(callerOf(request), request.body);
      return { success: true, message: translate(request.lang, 'account_deleted') };
    },
  );

  api.get(
    '/users',
    {
      config: { auth: PROFILE_READERS },
      schema: {
        tags: ['users'],
        summary: 'List users (administrator, manager), newest first',
        description:
          '`search` matches a case-insensitive substring of the username, e-mail address or display name; `role` ' +
          'and `status` keep the users of that role or account status.',
        security,
        querystring: ListUsersQuery,
        response: { 200: Envelope(UserList), ...errorResponses(400, 401, 403, 429) },
      },
    },
    async (request) => ({ success: true, data: await profiles.listUsers(request.query) }),
  );

  api.get(
    '/users/:id',
    {
      config: signedIn,
      schema: {
        tags: ['users'],
        summary: 'One user: the full profile for the user themself, administrators and managers; else the public one',
        description:
          'The user themself, administrators and managers get the full profile; anyone else signed in gets the public one, without e-mail address or phone numbers (`PublicUserProfile`). An unknown id → 404.',
        security,
        params: UserIdParams,
        response: {
          // Full first: the serializer takes the first schema an object matches, and a full profile matches both.
          200: Envelope(Type.Union([ProfileRef, PublicProfileRef])),
          ...errorResponses(400, 401, 403, 404, 429),
        },
      },
    },
    async (request) => ({ success: true, data: await profiles.profileFor(callerOf(request), request.params.id) }),
  );

  api.delete(
    '/users/:id',
    {
      config: { auth: ['administrator'] },
      schema: {
        tags: ['users'],
        summary: 'Delete another user’s account (administrator), with the rules of delete-profile',
        description: 'An administrator’s own account → 409 `conflict`: they use DELETE /users/delete-profile.',
        security,
        params: UserIdParams,
        response: { 200: Done, ...errorResponses(400, 401, 403, 404, 409, 429) },
      },
    },
    async (request) => {
      await profiles.deleteUser(callerOf(request), request.params.id);
      return { success: true, message: translate(request.lang, 'account_deleted') };
    },
  );

  const administratorOnly = { auth: ['administrator'] } as const;

  api.put(
    '/users/:id/role',
    {
      config: administratorOnly,
      schema: {
        tags: ['users'],
        summary: 'Change another user’s role (administrator)',
        description:
          'Body `{role}`: any role of docs/api.md 0.3, `administrator` and `manager` included. Making a user an ' +
          '`agent` or `agency` creates their agent or agency record when they have none, as registration does ' +
          '(named by their display name, with their e-mail address and phone); the record of an earlier role stays, ' +
          'linked to the user. A change ends every session of the user at once, on every process: they sign in again ' +
          'and get the new role. The same role again ends no session (it only creates a missing agent or agency ' +
          'record). Answers the user’s full profile. The caller’s own account → 409 `conflict`; an unknown user → ' +
          '404; managers and other roles → 403.',
        security,
        params: UserIdParams,
        body: ChangeRoleBody,
        response: { 200: Envelope(ProfileRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await administration.changeRole(callerOf(request), request.params.id, request.body),
    }),
  );

  api.put(
    '/users/:id/status',
    {
      config: administratorOnly,
      schema: {
        tags: ['users'],
        summary: 'Suspend or reactivate another user’s account (administrator)',
        description:
          'Body `{status}`: `suspended` ends every session of the user at once, on every process (their access and ' +
          'refresh tokens answer 401), and refuses their sign-ins (password, token grant, social) with 403 ' +
          '`account_suspended`; `active` lets them sign in again (their old sessions stay ended). Nothing else of ' +
          'the account changes: listings, records and reviews stay as they are. Setting the current status again ' +
          'is harmless. Answers the user’s full profile. The caller’s own account → 409 `conflict`; an unknown ' +
          'user → 404; managers and other roles → 403.',
        security,
        params: UserIdParams,
        body: ChangeStatusBody,
        response: { 200: Envelope(ProfileRef), ...errorResponses(400, 401, 403, 404, 409, 413, 415, 429) },
      },
    },
    async (request) => ({
      success: true,
      data: await administration.changeStatus(callerOf(request), request.params.id, request.body),
    }),
  );
}
