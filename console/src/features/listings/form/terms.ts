import type { TermRecord } from '../types';

/**
 * Terms in tree order for a picker: each parent followed by its children (depth for the indent), siblings
 * by name. Terms whose parent is not in the list are shown at the top level.
 */
export function termTree(terms: readonly TermRecord[]): { term: TermRecord; depth: number }[] {
  const ids = new Set(terms.map((term) => term.id));
  const children = new Map<number, TermRecord[]>();
  for (const term of terms) {
    const parent = ids.has(term.parent) && term.parent !== term.id ? term.parent : 0;
    children.set(parent, [...(children.get(parent) ?? []), term]);
  }
  const out: { term: TermRecord; depth: number }[] = [];
  const seen = new Set<number>();
  const visit = (parent: number, depth: number) => {
    const level = [...(children.get(parent) ?? [])].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    for (const term of level) {
      if (seen.has(term.id)) continue;
      seen.add(term.id);
      out.push({ term, depth });
      visit(term.id, depth + 1);
    }
  };
  visit(0, 0);
  // A cycle of parents never reaches the top level: list what is left flat rather than lose it.
  for (const term of terms) if (!seen.has(term.id)) out.push({ term, depth: 0 });
  return out;
}
