import { shortened } from '../../../adapters/feeds/feed-records.js';
import type { Rejection, Warning } from '../import/import-summary.js';

/**
 * What a run's record keeps of the words it is given, cut to a size: the readers quote a file's text briefly
 * already (adapters/feeds `shortened`), and these caps make sure of it for whatever else a message carries, since a
 * run's error goes into its row, the log line and every page of GET /imports.
 */

/** The longest error a run's record (and its log line) keeps, in characters. */
export const MAX_RUN_ERROR = 1000;
/** The longest place, key, field and reason a stored rejection or warning keeps, each, in characters. */
export const MAX_REJECTION_TEXT = 300;

export function cappedError(message: string): string {
  return shortened(message, MAX_RUN_ERROR);
}

export function cappedRejection({ at, key, errors }: Rejection): Rejection {
  const cut = (text: string) => shortened(text, MAX_REJECTION_TEXT);
  return {
    at: cut(at),
    ...(key === undefined ? {} : { key: cut(key) }),
    errors: errors.map(({ field, reason }) => ({ field: cut(field), reason: cut(reason) })),
  };
}

export function cappedWarning({ at, key, field, reason }: Warning): Warning {
  const cut = (text: string) => shortened(text, MAX_REJECTION_TEXT);
  return { at: cut(at), ...(key === undefined ? {} : { key: cut(key) }), field: cut(field), reason: cut(reason) };
}
