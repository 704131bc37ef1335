/**
 * Parses a query string so that the two array forms of docs/api.md 0.4 arrive alike: `type=a,b`,
 * `type[]=a&type[]=b` and `type=a&type=b` all become `type: "a,b"`, which the list parameters then split.
 * A scalar parameter that was repeated therefore fails its own pattern instead of being half-read.
 */
export function parseQueryString(raw: string): Record<string, string> {
  const result: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [rawKey, value] of new URLSearchParams(raw)) {
    const key = rawKey.endsWith('[]') ? rawKey.slice(0, -2) : rawKey;
    const previous = result[key];
    result[key] = previous === undefined ? value : `${previous},${value}`;
  }
  return result;
}
