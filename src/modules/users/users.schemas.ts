import { type Static, Type } from 'typebox';
import { ROLES, USER_STATUSES } from '../../db/schema/index.js';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../lib/paging.js';
import { LANGUAGES } from '../../i18n/index.js';

const INT4_MAX = 2_147_483_647;
const Id = Type.Union([Type.Integer(), Type.Null()]);

/** The user profile of docs/api.md 3.1 (the Houzez shape), plus bio, website, language, registered_date, agent_id, agency_id, status. Empty text is "", never null. */
export const UserProfile = Type.Object(
  {
    user_id: Type.Integer(),
    email: Type.String(),
    username: Type.String(),
    display_name: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    avatar_url: Type.String({ description: 'The avatar’s medium size; "" without one' }),
    phone: Type.String(),
    mobile: Type.String(),
    whatsapp: Type.String(),
    properties_count: Type.String({
      description: 'Published listings of the user, as a decimal string (the Houzez shape, docs/api.md 3.1)',
    }),
    favorites: Type.String({ description: 'Favorite listings of the user, as a decimal string (the Houzez shape, docs/api.md 3.1)' }),
    role: Type.Enum([...ROLES]),
    bio: Type.String(),
    website: Type.String(),
    language: Type.String({ description: 'Preferred language (en, ar, es, fr) or ""' }),
    registered_date: Type.String({ description: 'ISO 8601 UTC' }),
    agent_id: Id,
    agency_id: Id,
    status: Type.Enum([...USER_STATUSES], {
      description: '`suspended`: the account cannot sign in and has no session (PUT /users/{id}/status); else `active`',
    }),
  },
  { $id: 'UserProfile', title: 'UserProfile', description: 'What the user, administrators and managers see (docs/api.md 3.1)' },
);
export type UserProfileRecord = Static<typeof UserProfile>;

export const PublicUserProfile = Type.Object(
  {
    user_id: Type.Integer(),
    display_name: Type.String(),
    avatar_url: Type.String(),
    role: Type.Enum([...ROLES]),
    agent_id: Id,
    agency_id: Id,
    registered_date: Type.String({ description: 'ISO 8601 UTC' }),
    properties_count: Type.String({ description: 'Published listings of the user, as a decimal string' }),
  },
  {
    $id: 'PublicUserProfile',
    title: 'PublicUserProfile',
    description: 'What other signed-in users see: no e-mail address or phone numbers (docs/api.md 3.1)',
  },
);
export type PublicUserProfileRecord = Static<typeof PublicUserProfile>;

export const UserIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) }, { additionalProperties: false });

const PLAIN_TEXT = 'Plain text: HTML tags are removed, white space trimmed';
const Name = Type.String({ maxLength: 200, description: PLAIN_TEXT });
const Phone = Type.String({
  maxLength: 40,
  pattern: '^[0-9+()#*./ -]*$',
  description: 'Digits, spaces and + ( ) # * . / -; "" clears it',
});

/** The fields a user may change on their own profile; anything else (role, status, username, …) is a 400. */
export const UpdateProfileBody = Type.Object(
  {
    first_name: Type.Optional(Name),
    last_name: Type.Optional(Name),
    display_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: PLAIN_TEXT })),
    email: Type.Optional(
      Type.String({ format: 'email', maxLength: 254, description: 'Stored lower-cased; needs `current_password` to change' }),
    ),
    phone: Type.Optional(Phone),
    mobile: Type.Optional(Phone),
    whatsapp: Type.Optional(Phone),
    bio: Type.Optional(Type.String({ maxLength: 5_000, description: PLAIN_TEXT })),
    website: Type.Optional(
      Type.String({
        maxLength: 500,
        pattern: '^(https?://[^\\s/?#]+([/?#]\\S*)?)?$',
        description: 'An absolute http:// or https:// URL, or "" to clear it',
      }),
    ),
    language: Type.Optional(Type.Enum(['', ...LANGUAGES], { description: 'Preferred language, or "" for none' })),
    password: Type.Optional(
      Type.String({
        minLength: 8,
        maxLength: 128,
        description: 'A new password; needs `current_password`. Every other session of the user is signed out.',
      }),
    ),
    current_password: Type.Optional(
      Type.String({
        maxLength: 128,
        description:
          'Required to change `email` or set `password`, except for an account without a password ' +
          '(signed up through a social provider), which may set its first password without one',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateProfileInput = Static<typeof UpdateProfileBody>;

export const DeleteProfileBody = Type.Object(
  {
    password: Type.Optional(
      Type.String({ maxLength: 128, description: 'Required, except for an account without a password (social sign-in only)' }),
    ),
  },
  { additionalProperties: false },
);
export type DeleteProfileInput = Static<typeof DeleteProfileBody>;

export const ListUsersQuery = Type.Object(
  {
    ...PageQueryFields,
    role: Type.Optional(Type.Enum([...ROLES])),
    status: Type.Optional(Type.Enum([...USER_STATUSES], { description: 'Only active, or only suspended, accounts' })),
    search: Type.Optional(
      Type.String({ maxLength: 200, description: 'Case-insensitive substring of the username, e-mail address or display name' }),
    ),
  },
  { additionalProperties: false },
);
export type ListUsersInput = Static<typeof ListUsersQuery>;

export const UserList = Type.Object({ users: Type.Array(Type.Ref('UserProfile')), pagination: Pagination });
export interface UserListRecord {
  users: UserProfileRecord[];
  pagination: PaginationRecord;
}

/** An administrator's change of another user's role (docs/api.md 3.4). */
export const ChangeRoleBody = Type.Object(
  {
    role: Type.Enum([...ROLES], {
      description: 'Any role of docs/api.md 0.3. `agent` and `agency` also create the user’s agent or agency record when they have none',
    }),
  },
  { additionalProperties: false },
);
export type ChangeRoleInput = Static<typeof ChangeRoleBody>;

/** An administrator suspends (`suspended`) or reactivates (`active`) another user's account (docs/api.md 3.4). */
export const ChangeStatusBody = Type.Object(
  {
    status: Type.Enum([...USER_STATUSES], {
      description: '`suspended` signs the user out everywhere at once and refuses their sign-ins; `active` lets them sign in again',
    }),
  },
  { additionalProperties: false },
);
export type ChangeStatusInput = Static<typeof ChangeStatusBody>;

/** Whose profile a caller sees in full: their own, and anyone's for administrators and managers. */
export const PROFILE_READERS = ['administrator', 'manager'] as const;
