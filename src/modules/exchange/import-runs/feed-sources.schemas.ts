import { type Static, Type } from 'typebox';
import { ImportFormatField, MAX_SOURCE_NAME, MAX_URL_LENGTH } from './import-runs.schemas.js';

const INT4_MAX = 2_147_483_647;
export const MIN_INTERVAL_MINUTES = 15;
/** A week. */
export const MAX_INTERVAL_MINUTES = 10_080;

const UrlField = Type.String({
  format: 'uri',
  maxLength: MAX_URL_LENGTH,
  description:
    'http or https, without a user name or password; may carry a token in its query (shown to administrators only, never logged)',
});
const IntervalField = Type.Integer({
  minimum: MIN_INTERVAL_MINUTES,
  maximum: MAX_INTERVAL_MINUTES,
  description: `Minutes between pulls (${MIN_INTERVAL_MINUTES} to ${MAX_INTERVAL_MINUTES}, a week)`,
});
const WithdrawField = Type.Boolean({ description: 'Each pull expires the source’s listings the feed no longer names' });

/** A feed source: a URL the import job pulls on a schedule. */
export const FeedSource = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String({ description: 'The source name its imports run under (unique)' }),
    url: Type.String({ description: 'The whole URL, query included' }),
    format: ImportFormatField,
    interval_minutes: Type.Integer(),
    withdraw_missing: Type.Boolean(),
    paused: Type.Boolean({ description: 'A paused source is not pulled; an import it queued before still runs' }),
    next_pull_at: Type.String({ format: 'date-time', description: 'When its next import is queued (unless paused)' }),
    created_by: Type.Union([Type.Integer(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
    updated_at: Type.String({ format: 'date-time' }),
    last_run: Type.Union(
      [
        Type.Object(
          {
            id: Type.Integer(),
            state: Type.String({ description: '`queued`, `running`, `done` or `failed`: GET /imports/{id} has the rest' }),
            finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
          },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: 'Its latest import run, if any' },
    ),
  },
  { $id: 'FeedSource', title: 'FeedSource', additionalProperties: false },
);
export type FeedSourceRecord = Static<typeof FeedSource>;

export const CreateFeedSourceBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: MAX_SOURCE_NAME, description: 'Plain text: HTML tags are removed' }),
    url: UrlField,
    format: ImportFormatField,
    interval_minutes: IntervalField,
    withdraw_missing: Type.Optional(WithdrawField),
  },
  { additionalProperties: false },
);
export type CreateFeedSourceInput = Static<typeof CreateFeedSourceBody>;

export const UpdateFeedSourceBody = Type.Object(
  {
    paused: Type.Optional(
      Type.Boolean({ description: 'true pauses the pulls, false resumes them (a pull overdue meanwhile is queued at once)' }),
    ),
    interval_minutes: Type.Optional(IntervalField),
    url: Type.Optional(UrlField),
    withdraw_missing: Type.Optional(WithdrawField),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateFeedSourceInput = Static<typeof UpdateFeedSourceBody>;

export const FeedSourceList = Type.Object({ sources: Type.Array(Type.Ref('FeedSource')), total_sources: Type.Integer() });
export interface FeedSourceListRecord {
  sources: FeedSourceRecord[];
  total_sources: number;
}

export const FeedSourceIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) });

export const FeedSourceDeleted = Type.Object({ id: Type.Integer(), deleted: Type.Literal(true) });
