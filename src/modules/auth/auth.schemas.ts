import { type Static, Type } from 'typebox';
import { ROLES } from '../../db/schema/index.js';
import { REFRESH_COOKIE_NAME, SESSION_MODES } from './refresh-cookie.js';

/**
 * `session` of every route that answers a refresh token (docs/api.md 2.3): where that token travels. Optional, so
 * that the mobile apps' bodies stay as they are.
 */
export const SessionField = Type.Optional(
  Type.Enum(SESSION_MODES, {
    default: 'body',
    description:
      '`body` (default): the refresh token is in the answer as `refresh_token`. `cookie` (browser clients such as ' +
      `the web console): the answer leaves \`refresh_token\` out and sets it instead as the cookie \`${REFRESH_COOKIE_NAME}\` ` +
      "(HttpOnly, SameSite=Strict, Path = this API's `/auth/token` path, Max-Age = the refresh token's lifetime, Secure " +
      'when PUBLIC_URL is https), which `POST /auth/token` with `grant_type: refresh_token` and `session: cookie` then reads.',
  }),
);

/** The description of `refresh_token` in a sign-in answer. */
const ANSWERED_REFRESH_TOKEN =
  'Single use: each refresh answers a new one; reusing an old one revokes the session. Absent in cookie mode ' +
  `(\`session: cookie\`), where it is set as the HttpOnly cookie \`${REFRESH_COOKIE_NAME}\` instead.`;

export const LoginBody = Type.Object(
  {
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Username or e-mail address' })),
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
    password: Type.String({ minLength: 1, maxLength: 128 }),
    session: SessionField,
  },
  { additionalProperties: false, description: '`username` (or an e-mail in it) or `email`, and `password`' },
);
export type LoginInput = Static<typeof LoginBody>;

/** The login result of docs/api.md 2.1 (the Houzez shape), plus refresh_token, expires_in and token_expires_at. Empty text fields are "", never null. */
export const LoginResult = Type.Object(
  {
    user_id: Type.Integer(),
    token: Type.String({ description: 'Bearer access token (JWT, HS256)' }),
    email: Type.String(),
    username: Type.String(),
    display_name: Type.String(),
    first_name: Type.String(),
    last_name: Type.String(),
    avatar_url: Type.String(),
    phone: Type.String(),
    mobile: Type.String(),
    whatsapp: Type.String(),
    role: Type.Enum([...ROLES]),
    registered_date: Type.String({ description: 'ISO 8601 UTC' }),
    agent_id: Type.Union([Type.Integer(), Type.Null()]),
    agency_id: Type.Union([Type.Integer(), Type.Null()]),
    refresh_token: Type.Optional(Type.String({ description: ANSWERED_REFRESH_TOKEN })),
    expires_in: Type.Integer({ description: 'Access token lifetime in seconds' }),
    token_expires_at: Type.String({ description: 'ISO 8601 UTC' }),
  },
  { $id: 'LoginResult', title: 'LoginResult' },
);
export type LoginResultRecord = Static<typeof LoginResult>;

/** Roles a person may choose at registration; administrator and manager are never among them (docs/api.md 0.3). */
const REGISTRATION_ROLES = ['buyer', 'seller', 'owner', 'agent', 'agency'] as const;

const Password = Type.String({ minLength: 8, maxLength: 128 });
const Email = Type.String({ format: 'email', maxLength: 254 });

export const RegisterBody = Type.Object(
  {
    username: Type.String({ pattern: '^[A-Za-z0-9_.-]{3,60}$', description: '3–60 letters, digits, `_`, `.`, `-`; unique ignoring case' }),
    email: Email,
    password: Password,
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
    phone: Type.Optional(Type.String({ maxLength: 40 })),
    role: Type.Optional(
      Type.Enum(REGISTRATION_ROLES, { description: 'Default `buyer`. `agent` and `agency` also create the directory record.' }),
    ),
    session: SessionField,
  },
  { additionalProperties: false },
);
export type RegisterInput = Static<typeof RegisterBody>;

export const FirstAdministratorBody = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'The token of the set-up link that `serve` printed' }),
    username: RegisterBody.properties.username,
    email: Email,
    password: Password,
    first_name: Type.Optional(Type.String({ maxLength: 200 })),
    last_name: Type.Optional(Type.String({ maxLength: 200 })),
    session: SessionField,
  },
  { additionalProperties: false },
);
export type FirstAdministratorInput = Static<typeof FirstAdministratorBody>;

export const TokenBody = Type.Object(
  {
    grant_type: Type.Enum(['password', 'refresh_token']),
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'password grant: username or e-mail' })),
    password: Type.Optional(Type.String({ minLength: 1, maxLength: 128, description: 'password grant' })),
    refresh_token: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 200,
        description: 'refresh_token grant; in cookie mode it may be left out, and the cookie is read instead',
      }),
    ),
    session: SessionField,
  },
  { additionalProperties: false },
);
export type TokenInput = Static<typeof TokenBody>;

export const TokenPair = Type.Object(
  {
    token: Type.String(),
    refresh_token: Type.Optional(Type.String({ description: ANSWERED_REFRESH_TOKEN })),
    expires_in: Type.Integer(),
    token_expires_at: Type.String({ description: 'ISO 8601 UTC' }),
    user_id: Type.Integer(),
  },
  { $id: 'TokenPair', title: 'TokenPair' },
);
export type TokenPairRecord = Static<typeof TokenPair>;

export const TokenValidity = Type.Object({
  user_id: Type.Integer(),
  role: Type.Enum([...ROLES]),
  token_expires_at: Type.String({ description: 'ISO 8601 UTC' }),
});

export const LogoutBody = Type.Object(
  {
    refresh_token: Type.Optional(
      Type.String({ minLength: 1, maxLength: 200, description: 'Also revoke the session of this refresh token (yours)' }),
    ),
    session: Type.Optional(
      Type.Enum(SESSION_MODES, {
        default: 'body',
        description: `\`cookie\`: the answer also deletes the refresh cookie \`${REFRESH_COOKIE_NAME}\` of cookie mode (Max-Age=0).`,
      }),
    ),
  },
  { additionalProperties: false },
);

export const ResetRequestBody = Type.Object({ email: Email }, { additionalProperties: false });

export const ResetConfirmBody = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Password },
  { additionalProperties: false },
);
