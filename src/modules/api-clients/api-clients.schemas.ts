import { type Static, type TSchema, Type } from 'typebox';
import { CLIENT_SCOPE_NAMES, CLIENT_SCOPES } from './client-scopes.js';

const INT4_MAX = 2_147_483_647;
const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** At most this many clients per site: each is a credential to watch. */
export const MAX_CLIENTS = 100;
const MAX_ADDRESSES = 50;
/** The longest overlap a rotation may give the old secret: a week. */
const MAX_OVERLAP_SECONDS = 7 * 86_400;
export const DEFAULT_OVERLAP_SECONDS = 86_400;

const ScopeField = Type.Enum([...CLIENT_SCOPE_NAMES], {
  description: CLIENT_SCOPE_NAMES.map((scope) => `\`${scope}\`: ${CLIENT_SCOPES[scope]}`).join('; '),
});
const ScopesField = Type.Array(ScopeField, { minItems: 1, maxItems: CLIENT_SCOPE_NAMES.length, uniqueItems: true });
const AddressesField = Type.Array(Type.String({ minLength: 2, maxLength: 50, description: 'An IPv4 or IPv6 address, or a CIDR range' }), {
  minItems: 1,
  maxItems: MAX_ADDRESSES,
  uniqueItems: true,
  description: 'Addresses and CIDR ranges (`203.0.113.0/24`, `2001:db8::/32`) the client may call from; others → 403',
});
const NameField = Type.String({ minLength: 1, maxLength: 100, description: 'Plain text: HTML tags are removed, white space trimmed' });
const DescriptionField = Type.String({ maxLength: 500, description: 'Plain text: HTML tags are removed, white space trimmed' });
const RateLimitField = Type.Integer({ minimum: 1, maximum: 100_000, description: 'Requests a minute: the client’s own budget' });

const SecretField = Type.String({
  pattern: '^rak_[A-Za-z0-9_-]{43}$',
  examples: ['rak_ExampleSecretShownOnce0123456789abcdefghijk'],
  description: 'The client’s secret: the `client_secret` of the token grant, or a bearer token itself. Shown only in this answer',
});

/** A machine client as the API shows it: never a secret, which only the create and the rotation answer. */
export const ApiClient = Type.Object(
  {
    id: Type.Integer(),
    client_id: Type.String({ description: 'The OAuth `client_id` (not a secret)' }),
    name: Type.String(),
    description: Type.String(),
    scopes: Type.Array(ScopeField),
    allowed_addresses: Nullable(Type.Array(Type.String(), { description: 'Null: any address' })),
    rate_limit_per_minute: Type.Integer(),
    created_by: Type.Object({ id: Type.Integer(), display_name: Type.String() }, { additionalProperties: false }),
    secrets: Type.Array(
      Type.Object(
        {
          hint: Type.String({ description: 'The first characters of the secret, to tell two apart' }),
          created_at: Type.String({ format: 'date-time' }),
          expires_at: Nullable(Type.String({ format: 'date-time', description: 'The end of a rotation’s overlap; null: current' })),
        },
        { additionalProperties: false },
      ),
      { description: 'The secrets that work now: one, or two while a rotation’s overlap runs' },
    ),
    revoked_at: Nullable(Type.String({ format: 'date-time', description: 'Set by a revocation: nothing of the client works any more' })),
    last_used_at: Nullable(Type.String({ format: 'date-time', description: 'Last use of a secret or a token, to the minute' })),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'ApiClient', title: 'ApiClient', additionalProperties: false },
);
export type ApiClientRecord = Static<typeof ApiClient>;

export const CreatedApiClient = Type.Object({ ...ApiClient.properties, secret: SecretField }, { additionalProperties: false });
export type CreatedApiClientRecord = Static<typeof CreatedApiClient>;

export const CreateApiClientBody = Type.Object(
  {
    name: NameField,
    description: Type.Optional(DescriptionField),
    scopes: ScopesField,
    allowed_addresses: Type.Optional(Nullable(AddressesField)),
    rate_limit_per_minute: Type.Optional(RateLimitField),
  },
  { additionalProperties: false },
);
export type CreateApiClientInput = Static<typeof CreateApiClientBody>;

export const UpdateApiClientBody = Type.Object(
  {
    name: Type.Optional(NameField),
    description: Type.Optional(DescriptionField),
    scopes: Type.Optional(ScopesField),
    allowed_addresses: Type.Optional(Nullable(AddressesField)),
    rate_limit_per_minute: Type.Optional(RateLimitField),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateApiClientInput = Static<typeof UpdateApiClientBody>;

export const ApiClientList = Type.Object({ api_clients: Type.Array(Type.Ref('ApiClient')), total_api_clients: Type.Integer() });
export interface ApiClientListRecord {
  api_clients: ApiClientRecord[];
  total_api_clients: number;
}

export const ApiClientIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) }, { additionalProperties: false });

export const RotateClientSecretBody = Type.Object(
  {
    overlap_seconds: Type.Optional(
      Type.Integer({
        minimum: 0,
        maximum: MAX_OVERLAP_SECONDS,
        description: 'How long the current secret keeps working beside the new one (default 86400, a day; 0: it stops now)',
      }),
    ),
  },
  { additionalProperties: false },
);

export const RotatedClientSecret = Type.Object({
  id: Type.Integer(),
  secret: SecretField,
  previous_secret_expires_at: Type.String({ format: 'date-time', description: 'Until then the previous secret works too' }),
});
export type RotatedClientSecretRecord = Static<typeof RotatedClientSecret>;

export const ApiClientDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });

/**
 * The client-credentials grant (RFC 6749 4.4), as JSON or as a form. The client authenticates with
 * `client_id` and `client_secret` here or with HTTP Basic (RFC 6749 2.3.1), not both.
 */
export const OAuthTokenBody = Type.Object(
  {
    grant_type: Type.Literal('client_credentials'),
    client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    scope: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 1000,
        description: 'Space-separated scopes the token is to carry, each one the client has; absent: all of the client’s',
      }),
    ),
  },
  { additionalProperties: false },
);
export type OAuthTokenInput = Static<typeof OAuthTokenBody>;

/** RFC 6749 5.1: the answer OAuth libraries read, at the top level (no `{success, data}` envelope). */
export const OAuthTokenAnswer = Type.Object(
  {
    access_token: Type.String({ description: '`rat_…`: send as `Authorization: Bearer <access_token>`' }),
    token_type: Type.Literal('Bearer'),
    expires_in: Type.Integer({ description: 'Seconds the token works for' }),
    scope: Type.String({ description: 'The token’s scopes, space-separated' }),
  },
  { additionalProperties: false },
);
export type OAuthTokenRecord = Static<typeof OAuthTokenAnswer>;
