import { type Static, Type } from 'typebox';
import { FEED_FORMAT_NAMES } from '../feed-formats.js';

const INT4_MAX = 2_147_483_647;
const MAX_FEED_TOKEN_NAME = 100;

const FormatField = Type.Enum(FEED_FORMAT_NAMES, { description: 'The feed format the URL serves: `csv`, `reso` or `kyero`' });

/** A portal feed token as the list shows it: never the token itself, which is not stored. */
export const FeedToken = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'Who the token is for ("Kyero", "idealista")' }),
    format: FormatField,
    hint: Type.String({ description: 'The token’s last 4 characters, to tell tokens apart' }),
    created_by: Type.Union([Type.Integer(), Type.Null()], {
      description: 'The administrator who made it; null once their account is deleted',
    }),
    created_at: Type.String({ format: 'date-time' }),
    last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'The last pull of the feed, to the minute (written at most once a minute); null before the first',
    }),
  },
  { $id: 'FeedToken', title: 'FeedToken', additionalProperties: false },
);
export type FeedTokenRecord = Static<typeof FeedToken>;

/** A token just made: the record, the token and the feed's URL, shown this once. */
export const CreatedFeedToken = Type.Object(
  {
    ...FeedToken.properties,
    token: Type.String({ description: 'The secret: 32 random bytes, base64url. Shown only in this answer' }),
    url: Type.String({ format: 'uri', description: 'The feed’s public URL (`…/realty-api/v1/feeds/{token}`), to give the portal' }),
  },
  { additionalProperties: false },
);
export type CreatedFeedTokenRecord = Static<typeof CreatedFeedToken>;

export const CreateFeedTokenBody = Type.Object(
  {
    name: Type.String({
      minLength: 1,
      maxLength: MAX_FEED_TOKEN_NAME,
      description: 'Who the token is for. Plain text: HTML tags are removed, white space trimmed',
    }),
    format: FormatField,
  },
  { additionalProperties: false },
);
export type CreateFeedTokenInput = Static<typeof CreateFeedTokenBody>;

export const FeedTokenList = Type.Object({
  feed_tokens: Type.Array(Type.Ref('FeedToken')),
  total_feed_tokens: Type.Integer(),
});
export interface FeedTokenListRecord {
  feed_tokens: FeedTokenRecord[];
  total_feed_tokens: number;
}

export const FeedTokenIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) });

export const FeedTokenDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });

/**
 * Any text: a token of the wrong shape is as unknown as a wrong one (404), so that the answer says nothing
 * about what a token looks like.
 */
export const FeedPullParams = Type.Object({ token: Type.String({ description: 'The token of POST /exports/tokens' }) });

/** The catch-all twin of GET /feeds/{token}, for tokens longer than the router's parameters (feed-tokens.routes.ts). */
export const FeedPullRest = Type.Object({ '*': Type.String() });
