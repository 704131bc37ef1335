import { toApiTimestamp } from '../../../lib/time.js';
import type { FeedSourceRow } from './feed-sources.repository.js';
import type { FeedSourceRecord } from './feed-sources.schemas.js';
import { shownUrl } from './feed-urls.js';
import type { ImportRunRow, RejectionRow, WarningRow } from './import-runs.repository.js';
import { IMPORT_FORMATS, type ImportFormat, type ImportRunDetailRecord, type ImportRunRecord } from './import-runs.schemas.js';

const timestamp = (value: string | null) => (value === null ? null : toApiTimestamp(value));

function formatOf(value: string): ImportFormat {
  if (!(IMPORT_FORMATS as readonly string[]).includes(value)) throw new Error(`unknown import format: ${value}`);
  return value as ImportFormat;
}

export function toImportRun(row: ImportRunRow): ImportRunRecord {
  return {
    id: row.id,
    state: row.state,
    format: formatOf(row.format),
    source: row.source,
    dry_run: row.dry_run === 1,
    strict: row.strict === 1,
    withdraw_missing: row.withdraw_missing === 1,
    // Never the whole URL: its query may carry a token.
    url: row.url === null ? null : shownUrl(row.url),
    file_name: row.file_name,
    feed_source_id: row.feed_source_id,
    owner_id: row.owner_id,
    created_by: row.created_by,
    created_at: toApiTimestamp(row.created_at),
    started_at: timestamp(row.started_at),
    finished_at: timestamp(row.finished_at),
    attempts: row.attempts,
    counts: {
      read: row.read_count,
      created: row.created_count,
      updated: row.updated_count,
      unchanged: row.unchanged_count,
      withdrawn: row.withdrawn_count,
      rejected: row.rejected_count,
      warnings: row.warning_count,
    },
    error: row.error,
  };
}

export function toImportRunDetail(
  row: ImportRunRow,
  rejections: readonly RejectionRow[],
  warnings: readonly WarningRow[],
): ImportRunDetailRecord {
  return {
    ...toImportRun(row),
    rejections: rejections.map((rejection) => ({
      at: rejection.at,
      ...(rejection.source_key === null ? {} : { key: rejection.source_key }),
      errors: JSON.parse(rejection.errors) as { field: string; reason: string }[],
    })),
    rejections_truncated: row.rejected_count > rejections.length,
    warnings: warnings.map((warning) => ({
      at: warning.at,
      ...(warning.source_key === null ? {} : { key: warning.source_key }),
      field: warning.field,
      reason: warning.reason,
    })),
    warnings_truncated: row.warning_count > warnings.length,
  };
}

export function toFeedSource(
  row: FeedSourceRow,
  lastRun: { id: number; state: string; finished_at: string | null } | undefined,
): FeedSourceRecord {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    format: formatOf(row.format),
    interval_minutes: row.interval_minutes,
    withdraw_missing: row.withdraw_missing === 1,
    paused: row.paused === 1,
    next_pull_at: toApiTimestamp(row.next_pull_at),
    created_by: row.created_by,
    created_at: toApiTimestamp(row.created_at),
    updated_at: toApiTimestamp(row.updated_at),
    last_run: lastRun === undefined ? null : { id: lastRun.id, state: lastRun.state, finished_at: timestamp(lastRun.finished_at) },
  };
}
