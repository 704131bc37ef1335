/** Storage form: ISO 8601 UTC with milliseconds, which sorts lexicographically as time (db/schema/index.ts). */
export function nowIso(now: Date = new Date()): string {
  return now.toISOString();
}

/** API form (docs/api.md 0.4): ISO 8601 UTC to the second, e.g. `2026-11-21T10:00:00Z`. */
export function toApiTimestamp(stored: string): string {
  return stored.length === 24 ? `${stored.slice(0, 19)}Z` : stored;
}
