import { describe, expect, it } from 'vitest';
import type { TermRecord } from '../types';
import { choosePlace, deepestPlace, type PlaceLists, placeOptions } from './places';

const term = (id: number, name: string, parent: Partial<TermRecord> = {}): TermRecord => ({
  id,
  name,
  slug: name.toLowerCase(),
  description: '',
  count: 0,
  parent: 0,
  ...parent,
});
const ref = (id: number) => ({ id, name: `#${id}`, slug: `t${id}` });
const lists: PlaceLists = {
  country: [term(1, 'Spain'), term(2, 'USA')],
  state: [term(10, 'Andalusia', { parent_country: ref(1) }), term(20, 'Florida', { parent_country: ref(2) })],
  city: [term(100, 'Nerja', { parent_state: ref(10) }), term(200, 'Miami', { parent_state: ref(20) })],
  area: [term(1000, 'Burriana', { parent_city: ref(100) }), term(2000, 'Brickell', { parent_city: ref(200) })],
};
const none = { country: '', state: '', city: '', area: '' };
const names = (options: PlaceLists) =>
  Object.fromEntries(Object.entries(options).map(([level, terms]) => [level, terms.map((t) => t.name)]));

describe('the place pickers', () => {
  it('list every place when nothing is chosen, and the places under the nearest choice above', () => {
    expect(names(placeOptions(lists, none))).toEqual({
      country: ['Spain', 'USA'],
      state: ['Andalusia', 'Florida'],
      city: ['Nerja', 'Miami'],
      area: ['Burriana', 'Brickell'],
    });
    // A country alone narrows the states, and the cities and areas under them too.
    expect(names(placeOptions(lists, { ...none, country: '2' }))).toEqual({
      country: ['Spain', 'USA'],
      state: ['Florida'],
      city: ['Miami'],
      area: ['Brickell'],
    });
  });

  it('fill the levels above from a chosen place and clear those below', () => {
    expect(choosePlace(lists, none, 'area', '1000')).toEqual({ country: '1', state: '10', city: '100', area: '1000' });
    expect(choosePlace(lists, { country: '1', state: '10', city: '100', area: '1000' }, 'state', '20')).toEqual({
      country: '2',
      state: '20',
      city: '',
      area: '',
    });
    expect(choosePlace(lists, { country: '1', state: '10', city: '', area: '' }, 'country', '')).toEqual(none);
  });

  it('point the map at the deepest place chosen, closer the smaller it is', () => {
    expect(deepestPlace(none)).toBeNull();
    expect(deepestPlace({ ...none, country: '1' })).toEqual({ level: 'country', id: 1, zoom: 5 });
    expect(deepestPlace({ country: '1', state: '10', city: '100', area: '' })).toEqual({ level: 'city', id: 100, zoom: 12 });
  });
});
