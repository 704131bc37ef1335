import { type Static, Type } from 'typebox';

export const LoginBody = Type.Object(
  {
    username: Type.Optional(Type.String({ minLength: 1, maxLength: 254, description: 'Username or e-mail address' })),
    email: Type.Optional(Type.String({ minLength: 1, maxLength: 254 })),
    password: Type.String({ minLength: 1, maxLength: 128 }),
  },
  { additionalProperties: false, description: '`username` (or an e-mail in it) or `email`, and `password`' },
);
export type LoginInput = Static<typeof LoginBody>;

/** Seed 2.1, plus refresh_token, expires_in and token_expires_at. Empty text fields are "", never null. */
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
    role: Type.String(),
    registered_date: Type.String({ description: 'ISO 8601 UTC' }),
    agent_id: Type.Union([Type.Integer(), Type.Null()]),
    agency_id: Type.Union([Type.Integer(), Type.Null()]),
    refresh_token: Type.String(),
    expires_in: Type.Integer({ description: 'Access token lifetime in seconds' }),
    token_expires_at: Type.String({ description: 'ISO 8601 UTC' }),
  },
  { $id: 'LoginResult', title: 'LoginResult' },
);
export type LoginResultRecord = Static<typeof LoginResult>;
