import path from 'node:path';
import { AppError } from '../../../lib/errors.js';

/**
 * A feed URL as a request gives it, checked now so that a mistake is a 400 rather than a failed run later:
 * http or https, no user name or password (the outbound guard refuses those). Whether its host may be reached is
 * the guard's to decide when the job downloads it (addresses change; IMPORT_ALLOWED_HOSTS may too).
 */
export function checkedFeedUrl(value: string, field: string): string {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw AppError.invalidField(field, 'import_rule_url');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '' || url.hostname === '') {
    throw AppError.invalidField(field, 'import_rule_url');
  }
  return url.href;
}

/** The URL as records show it: without its query or fragment, which may carry a token. */
export function shownUrl(value: string): string {
  try {
    const url = new URL(value);
    return `${url.origin}${url.pathname}`;
  } catch {
    return '';
  }
}

/** The default source name of a URL, as the CLI gives it: the last segment of its path without its extension, else its host. */
export function sourceNameOfUrl(value: string): string {
  const url = new URL(value);
  return (path.posix.basename(url.pathname).replace(/\.[^.]*$/, '') || url.host).slice(0, 100);
}

/** The default source name of an upload: its file name without folders or extension (`feed.csv` → `feed`). */
export function sourceNameOfFile(fileName: string): string {
  const base = fileName.split(/[\\/]/).pop() ?? '';
  return base.replace(/\.[^.]*$/, '').slice(0, 100);
}
