import type { Generated } from 'kysely';

/** Data exchange: where imported records came from (modules/exchange). */
export interface ExchangeTables {
  listing_sources: ListingSourcesTable;
  feed_pictures: FeedPicturesTable;
  feed_tokens: FeedTokensTable;
  feed_sources: FeedSourcesTable;
  import_runs: ImportRunsTable;
  import_rejections: ImportRejectionsTable;
  import_warnings: ImportWarningsTable;
  site_identity: SiteIdentityTable;
  redirects: RedirectsTable;
}

interface ListingSourcesTable {
  listing_id: number;
  /** The source's name (`--source`, default the file's name without its extension). */
  source: string;
  /** The listing's key in that source (CSV `key`, RESO `ListingKey`, Kyero `id`). */
  source_key: string;
  /** Hash of the record as last imported: the same record again writes nothing. */
  fingerprint: string;
  imported_at: string;
}

type FeedPictureState = 'pending' | 'stored' | 'failed';
/** A listing's picture (its gallery) or document (its attachments: a Houzez brochure). */
export type FeedFileKind = 'picture' | 'document';

/** A picture or document a feed names, fetched into its listing's gallery or attachments by a background job. */
interface FeedPicturesTable {
  id: Generated<number>;
  listing_id: number;
  /** Migration 0033; each kind has its own positions. */
  kind: Generated<FeedFileKind>;
  /** Its place in the gallery (or the attachments) the feed gives. */
  position: number;
  url: string;
  state: Generated<FeedPictureState>;
  media_id: number | null;
  attempts: Generated<number>;
  /** A pending picture is not tried before this time: the next try after a failure, or a claim's end. */
  not_before: string;
  last_error: Generated<string>;
}

/** A portal's secret feed URL (GET /feeds/{token}); revoking deletes the row. */
export interface FeedTokensTable {
  id: Generated<number>;
  /** Who the token is for, as the administrator named it ("Kyero", "idealista"). */
  name: string;
  /** The feed format name (`csv`, `reso`, `kyero`). */
  format: string;
  /** SHA-256 (hex) of the token: the token itself is shown once and never stored. */
  token_hash: string;
  /** The token's last 4 characters, shown in the list to tell tokens apart. */
  token_hint: string;
  created_by: number | null;
  created_at: string;
  /** The last pull, written at most once a minute. */
  last_used_at: string | null;
}

/** A feed URL pulled on a schedule (POST /imports/sources): each pull is an import run. */
export interface FeedSourcesTable {
  id: Generated<number>;
  /** The source name its imports run under; unique, since keys are unique within a source name. */
  name: string;
  /** May carry a token: shown to administrators only, never logged. */
  url: string;
  format: string;
  interval_minutes: number;
  withdraw_missing: Generated<number>;
  paused: Generated<number>;
  /** When the job queues the next import of it. */
  next_pull_at: string;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

type ImportRunState = 'queued' | 'running' | 'done' | 'failed';

/** One import over HTTP: queued by POST /imports or a due feed source, run by the `feed-imports` job. */
export interface ImportRunsTable {
  id: Generated<number>;
  state: Generated<ImportRunState>;
  /** A feed format name, or `wxr`. */
  format: string;
  source: string;
  dry_run: Generated<number>;
  withdraw_missing: Generated<number>;
  /** The URL to download (whole), or null for an upload. */
  url: string | null;
  /** The uploaded file's name as the client gave it: shown, never used as a path. */
  file_name: string | null;
  /** The upload's random file name under DATA_DIR/imports. */
  file_key: string | null;
  feed_source_id: number | null;
  owner_id: number | null;
  created_by: number | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  heartbeat_at: string | null;
  /** The token of the claim running it: only its holder writes progress and the outcome. */
  claim: string | null;
  /** How many times it was started (more than once: taken again after its process stopped). */
  attempts: Generated<number>;
  read_count: Generated<number>;
  created_count: Generated<number>;
  updated_count: Generated<number>;
  unchanged_count: Generated<number>;
  withdrawn_count: Generated<number>;
  rejected_count: Generated<number>;
  /** Every warning of the run; the first ones are in import_warnings. */
  warning_count: Generated<number>;
  /** 1: a record with a warning is rejected instead, and the run stops at the first rejection. */
  strict: Generated<number>;
  error: string | null;
}

/** One warning of a run, among the first ones (the report is capped): a value left out of an imported record. */
export interface ImportWarningsTable {
  run_id: number;
  /** Its place among the run's warnings, from 0. */
  position: number;
  at: string;
  source_key: string | null;
  field: string;
  reason: string;
}

/** One rejected record of a run, among the first ones (the report is capped). */
export interface ImportRejectionsTable {
  run_id: number;
  /** Its place among the run's rejections, from 0. */
  position: number;
  at: string;
  source_key: string | null;
  /** JSON `[{ field, reason }]`. */
  errors: string;
}

/** This site's random name (one row, made by its migration): exports name listings made here with it. */
interface SiteIdentityTable {
  id: number;
  /** 16 hex digits. */
  site_key: string;
}

/** An imported record's old address (a WordPress permalink's path): answered 301 to the record's current `url`. */
interface RedirectsTable {
  id: Generated<number>;
  /** Normalized (redirect-paths.ts): no scheme or host, percent-decoded, no trailing slash; unique. */
  path: string;
  /** Exactly one of the three names the record. */
  listing_id: number | null;
  agent_id: number | null;
  agency_id: number | null;
  created_at: string;
}
