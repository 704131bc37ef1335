import type { TermRecord } from '../types';

/**
 * The place pickers' chain (country → state → city → area), both ways: a level lists the places under the
 * nearest level chosen above it, and choosing a place fills the levels above from its parents. Pure, over the
 * term lists the pickers loaded.
 */

export type Level = 'country' | 'state' | 'city' | 'area';
export const LEVELS: readonly Level[] = ['country', 'state', 'city', 'area'];

export type PlaceLists = Record<Level, readonly TermRecord[]>;
export type Chosen = Record<Level, string>;

/** A term's parent one level up, as its record names it. */
function parentOf(level: Level, term: TermRecord): number | undefined {
  if (level === 'state') return term.parent_country?.id;
  if (level === 'city') return term.parent_state?.id;
  if (level === 'area') return term.parent_city?.id;
  return undefined;
}

/**
 * The options of each level: those under the nearest chosen level above (a country chosen and no state: the
 * cities of that country's states). `lists` are the loaded lists, which the API may have filtered already.
 */
export function placeOptions(lists: PlaceLists, chosen: Chosen): PlaceLists {
  const options = { country: lists.country } as PlaceLists;
  // The ids allowed at the level above: the chosen place, else every option shown there (undefined: any).
  let allowed: Set<number> | undefined;
  for (const level of LEVELS) {
    if (level !== 'country') {
      const above = allowed;
      options[level] = above === undefined ? lists[level] : lists[level].filter((term) => above.has(parentOf(level, term) ?? -1));
    }
    const here = chosen[level];
    allowed = here !== '' ? new Set([Number(here)]) : allowed === undefined ? undefined : new Set(options[level].map((term) => term.id));
  }
  return options;
}

/**
 * The places after choosing `value` at `level`: the levels below cleared, the levels above set to the place's
 * parents (as far as the loaded lists know them: a state's country comes from the states list).
 */
export function choosePlace(lists: PlaceLists, chosen: Chosen, level: Level, value: string): Chosen {
  const next: Chosen = { ...chosen, [level]: value };
  const index = LEVELS.indexOf(level);
  for (const lower of LEVELS.slice(index + 1)) next[lower] = '';
  if (value === '') return next;
  let id = Number(value);
  for (let at = index; at > 0; at--) {
    const term = lists[LEVELS[at]!].find((candidate) => candidate.id === id);
    const parent = term && parentOf(LEVELS[at]!, term);
    if (parent === undefined) break;
    next[LEVELS[at - 1]!] = String(parent);
    id = parent;
  }
  return next;
}

/** The deepest place chosen, whose centre the map goes to, with the zoom that shows such a place whole. */
export function deepestPlace(chosen: Chosen): { level: Level; id: number; zoom: number } | null {
  for (const level of [...LEVELS].reverse()) if (chosen[level] !== '') return { level, id: Number(chosen[level]), zoom: ZOOM[level] };
  return null;
}

const ZOOM: Record<Level, number> = { country: 5, state: 7, city: 12, area: 14 };
