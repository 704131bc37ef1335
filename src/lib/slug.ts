/** The longest slug made or accepted. */
export const MAX_SLUG_LENGTH = 200;

/**
 * URL-safe slug: accents folded (`Équipé` → `equipe`), letters and digits of any script kept (an Arabic
 * name keeps an Arabic slug, as WordPress does), everything else collapsed into single hyphens.
 */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/-+$/, '');
}

/**
 * Portable sort and search key: case- and accent-folded. Computed here rather than with the database's
 * lower()/collations, which differ between SQLite and PostgreSQL.
 */
export function sortKey(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();
}

/** `base`, or `base-2`, `base-3`, … : the first that `isTaken` says is free. */
export async function firstFreeSlug(base: string, isTaken: (slug: string) => Promise<boolean>): Promise<string> {
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? base : `${base.slice(0, MAX_SLUG_LENGTH - String(n).length - 1)}-${n}`;
    if (!(await isTaken(candidate))) return candidate;
  }
}
