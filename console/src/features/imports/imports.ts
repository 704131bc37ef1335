/**
 * Import runs as GET /imports and GET /imports/{id} answer them (docs/data-exchange.md, "Imports over HTTP"), and
 * what the pages make of them.
 */
import type { AnswerData, Schemas } from '@realty-api/client';

export const IMPORTS_RESOURCE = 'import-runs';

/** The counts a run's line shows, in order; warnings and rejections only when there are some. */
export const COUNT_NAMES = ['read', 'created', 'updated', 'unchanged', 'withdrawn', 'rejected', 'warnings'] as const;

export type ImportRunRecord = Schemas['ImportRun'];
/** One run with its report, as GET /imports/{id} answers it. */
export type ImportRunDetailRecord = AnswerData<'/realty-api/v1/imports/{id}', 'get'>;
export type RejectionRecord = ImportRunDetailRecord['rejections'][number];

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
