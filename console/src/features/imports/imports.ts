/**
 * Import runs as GET /imports and GET /imports/{id} answer them (docs/data-exchange.md, "Imports over HTTP"), and
 * what the pages make of them.
 */
export const IMPORTS_RESOURCE = 'import-runs';

/** The counts a run's line shows, in order; warnings and rejections only when there are some. */
export const COUNT_NAMES = ['read', 'created', 'updated', 'unchanged', 'withdrawn', 'rejected', 'warnings'] as const;

/** A run's `counts` (docs/data-exchange.md, "Imports over HTTP"): one number for each of COUNT_NAMES. */
type ImportCounts = Record<(typeof COUNT_NAMES)[number], number>;

export interface ImportRunRecord {
  id: number;
  state: 'queued' | 'running' | 'done' | 'failed';
  format: string;
  source: string;
  dry_run: boolean;
  strict: boolean;
  withdraw_missing: boolean;
  url: string | null;
  file_name: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  counts: ImportCounts;
  error: string | null;
}

export interface RejectionRecord {
  at: string;
  key?: string;
  errors: { field: string; reason: string }[];
}

interface WarningRecord {
  at: string;
  key?: string;
  field: string;
  reason: string;
}

export interface ImportRunDetailRecord extends ImportRunRecord {
  rejections: RejectionRecord[];
  rejections_truncated: boolean;
  warnings: WarningRecord[];
  warnings_truncated: boolean;
}

/** Whether the page should read the run again soon: it is still waiting or running. */
export function isUnderWay(run: Pick<ImportRunRecord, 'state'>): boolean {
  return run.state === 'queued' || run.state === 'running';
}

/** A rejection's errors as one line: `price must be of type number; title is required`. */
export function errorsLine(rejection: RejectionRecord): string {
  return rejection.errors.map((error) => `${error.field} ${error.reason}`).join('; ');
}

/** What the run read: its file's name, else its URL. */
export function inputOf(run: Pick<ImportRunRecord, 'file_name' | 'url'>): string {
  return run.file_name ?? run.url ?? '—';
}
