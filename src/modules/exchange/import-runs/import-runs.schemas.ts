import { type Static, Type } from 'typebox';
import { PageQueryFields, Pagination, type PaginationRecord } from '../../../lib/paging.js';
import { FEED_FORMAT_NAMES } from '../feed-formats.js';
import { MAX_REJECTION_TEXT, MAX_RUN_ERROR } from './run-messages.js';

const INT4_MAX = 2_147_483_647;
export const MAX_SOURCE_NAME = 100;
export const MAX_URL_LENGTH = 2048;
/** Rejected records kept per run; `counts.rejected` counts them all. */
export const REPORTED_REJECTIONS = 1000;
/** Warnings kept per run; `counts.warnings` counts them all. */
export const REPORTED_WARNINGS = 1000;

/** What an import reads: a feed format, or `wxr` (a WordPress/Houzez site's export). */
export const IMPORT_FORMATS = [...FEED_FORMAT_NAMES, 'wxr' as const];
export type ImportFormat = (typeof IMPORT_FORMATS)[number];
const IMPORT_RUN_STATES = ['queued', 'running', 'done', 'failed'] as const;

export const ImportFormatField = Type.Enum(IMPORT_FORMATS, {
  description: '`csv`, `reso` (RESO Data Dictionary JSON), `kyero` (Kyero v3 XML) or `wxr` (a WordPress/Houzez export)',
});
const SourceField = Type.String({
  minLength: 1,
  maxLength: MAX_SOURCE_NAME,
  description:
    'The source name the feed’s keys belong to (default: the file’s name without its extension, or the last segment of ' +
    'the URL’s path). Plain text: HTML tags are removed',
});
const OwnerEmailField = Type.String({
  format: 'email',
  maxLength: 254,
  description: 'The account that becomes the author of the listings the import creates (default: the administrator)',
});
const Timestamp = Type.String({ format: 'date-time' });
const NullableTimestamp = Type.Union([Timestamp, Type.Null()]);
const NullableId = Type.Union([Type.Integer(), Type.Null()]);

const ImportCountsRecord = Type.Object(
  {
    read: Type.Integer({ description: 'Records read, of every kind' }),
    created: Type.Integer(),
    updated: Type.Integer(),
    unchanged: Type.Integer(),
    withdrawn: Type.Integer(),
    rejected: Type.Integer({ description: 'Every rejected record; the report keeps the first 1,000' }),
    warnings: Type.Integer({
      description: 'Every warning: an optional value left out of a record imported without it; the report keeps the first 1,000',
    }),
  },
  { additionalProperties: false },
);

const importRunProperties = {
  id: Type.Integer(),
  state: Type.Enum([...IMPORT_RUN_STATES], {
    description: '`queued` (waits for the import job), `running`, `done` (read to its end) or `failed` (see `error`)',
  }),
  format: ImportFormatField,
  source: Type.String({ description: 'The source name the import ran under' }),
  dry_run: Type.Boolean({ description: 'Counts what would change and writes nothing' }),
  strict: Type.Boolean({ description: 'A record with a warning was rejected instead, and the run stopped at the first rejection' }),
  withdraw_missing: Type.Boolean(),
  url: Type.Union([Type.String(), Type.Null()], {
    description: 'The feed’s URL without its query string or fragment (they may carry a token); null for an upload',
  }),
  file_name: Type.Union([Type.String(), Type.Null()], { description: 'The uploaded file’s name, as the client gave it; null for a URL' }),
  feed_source_id: Type.Union([Type.Integer(), Type.Null()], { description: 'The feed source that queued it, if any' }),
  owner_id: NullableId,
  created_by: Type.Union([Type.Integer(), Type.Null()], {
    description: 'The administrator who queued it (of a feed source: who made the source); null once deleted',
  }),
  created_at: Timestamp,
  started_at: Type.Union([Timestamp, Type.Null()], {
    description: 'The last start (a run taken again after its process stopped starts again)',
  }),
  finished_at: NullableTimestamp,
  attempts: Type.Integer({ description: 'How many times it was started' }),
  counts: ImportCountsRecord,
  error: Type.Union([Type.String(), Type.Null()], {
    description: `Why it failed: the reader’s or the download’s words, at most ${MAX_RUN_ERROR} characters`,
  }),
};

/** An import run as the list shows it. */
export const ImportRun = Type.Object(importRunProperties, { $id: 'ImportRun', title: 'ImportRun', additionalProperties: false });
export type ImportRunRecord = Static<typeof ImportRun>;

const RejectionRecord = Type.Object(
  {
    at: Type.String({
      description: `Where the record is in the file: \`line 12\`, \`Property[3]\`. This and every text of a rejection: at most ${MAX_REJECTION_TEXT} characters`,
    }),
    key: Type.Optional(Type.String({ description: 'The record’s key, when it has one' })),
    errors: Type.Array(Type.Object({ field: Type.String(), reason: Type.String() }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

const WarningRecord = Type.Object(
  {
    at: Type.String({
      description: `Where the record is in the file. This and every text of a warning: at most ${MAX_REJECTION_TEXT} characters`,
    }),
    key: Type.Optional(Type.String({ description: 'The record’s key, when it has one' })),
    field: Type.String({ description: 'The value left out: a field, or a path in it (`floor_plans.2.size`, `images.3`)' }),
    reason: Type.String({ description: 'Why, in the API’s words (`must be of type number (in plan 1, fave_plan_size)`)' }),
  },
  { additionalProperties: false },
);

/** One run with its report of rejected records. */
export const ImportRunDetail = Type.Object(
  {
    ...importRunProperties,
    rejections: Type.Array(RejectionRecord, {
      description: `The first ${REPORTED_REJECTIONS} rejected records in file order (written as the run goes)`,
    }),
    rejections_truncated: Type.Boolean({ description: 'True when more records were rejected than the report keeps' }),
    warnings: Type.Array(WarningRecord, {
      description: `The first ${REPORTED_WARNINGS} warnings in file order: values left out of records that were imported without them`,
    }),
    warnings_truncated: Type.Boolean({ description: 'True when there were more warnings than the report keeps' }),
  },
  { additionalProperties: false },
);
export type ImportRunDetailRecord = Static<typeof ImportRunDetail>;

export const ImportRunList = Type.Object({ import_runs: Type.Array(Type.Ref('ImportRun')), pagination: Pagination });
export interface ImportRunListRecord {
  import_runs: ImportRunRecord[];
  pagination: PaginationRecord;
}

export const ListImportRunsQuery = Type.Object({ ...PageQueryFields }, { additionalProperties: false });
export type ListImportRunsInput = Static<typeof ListImportRunsQuery>;

export const ImportRunIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT4_MAX }) });

const STRICT =
  'A record with a warning (an optional value that cannot be read) is rejected instead of imported without the value, ' +
  'and the run stops at the first rejected record, as `realty-api import --strict` does';

/** POST /imports as JSON: a URL the job downloads. */
export const CreateUrlImportBody = Type.Object(
  {
    url: Type.String({
      format: 'uri',
      maxLength: MAX_URL_LENGTH,
      description: 'http or https, without a user name or password; fetched by the import job through the outbound guard',
    }),
    format: ImportFormatField,
    source: Type.Optional(SourceField),
    dry_run: Type.Optional(Type.Boolean({ default: false })),
    strict: Type.Optional(Type.Boolean({ default: false, description: STRICT })),
    withdraw_missing: Type.Optional(Type.Boolean({ default: false })),
    owner_email: Type.Optional(OwnerEmailField),
  },
  { additionalProperties: false },
);
export type CreateUrlImportInput = Static<typeof CreateUrlImportBody>;

const FlagText = Type.Enum(['true', 'false'], { description: '`true` or `false` (default false)' });

/** POST /imports as multipart/form-data: the text fields beside the `file` part, as they arrive (text). */
export const UploadImportFields = Type.Object(
  {
    format: ImportFormatField,
    source: Type.Optional(SourceField),
    dry_run: Type.Optional(FlagText),
    strict: Type.Optional(Type.Enum(['true', 'false'], { description: `\`true\` or \`false\` (default false). ${STRICT}` })),
    withdraw_missing: Type.Optional(FlagText),
    owner_email: Type.Optional(OwnerEmailField),
  },
  { additionalProperties: false },
);
export type UploadImportFieldsInput = Static<typeof UploadImportFields>;

/** The multipart form for the OpenAPI document; the parts are read by readImportUpload (Fastify sees no parsed body). */
export const UploadImportForm = Type.Unsafe<unknown>({
  type: ['object', 'null'],
  properties: {
    file: Type.String({ format: 'binary', description: 'The feed file (stored under a random name; its name becomes the default source)' }),
    ...UploadImportFields.properties,
  },
  required: ['file', 'format'],
  additionalProperties: false,
});

/** What a request queues, however it came. */
export interface ImportRequest {
  format: ImportFormat;
  source?: string | undefined;
  dryRun: boolean;
  strict: boolean;
  withdrawMissing: boolean;
  ownerEmail?: string | undefined;
}
