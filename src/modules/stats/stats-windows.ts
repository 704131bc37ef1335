import { nowIso } from '../../lib/time.js';

const DAY_MS = 86_400_000;

/** A window of whole UTC days or months ending with the current one, and its bounds in the stored timestamp form. */
export interface CalendarWindow {
  /** Each day (`YYYY-MM-DD`) or month (`YYYY-MM`) of the window, oldest first. */
  periods: string[];
  /** The window's start, inclusive, as stored timestamps are written (ISO 8601 UTC with milliseconds). */
  from: string;
  /** The start of the period after the last one, exclusive. */
  until: string;
}

/** The `days` UTC days ending today. */
export function dayWindow(days: number, now: Date): CalendarWindow {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const first = today - (days - 1) * DAY_MS;
  const periods = Array.from({ length: days }, (_, i) => new Date(first + i * DAY_MS).toISOString().slice(0, 10));
  return { periods, from: nowIso(new Date(first)), until: nowIso(new Date(today + DAY_MS)) };
}

/** The `months` UTC calendar months ending with this one. */
export function monthWindow(months: number, now: Date): CalendarWindow {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  // Date.UTC carries months below 0 or above 11 into the years.
  const startOf = (offset: number) => new Date(Date.UTC(year, month + offset, 1));
  const periods = Array.from({ length: months }, (_, i) =>
    startOf(i - months + 1)
      .toISOString()
      .slice(0, 7),
  );
  return { periods, from: nowIso(startOf(1 - months)), until: nowIso(startOf(1)) };
}
