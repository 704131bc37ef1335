import { describe, expect, it } from 'vitest';
import type { TermRecord } from '../types';
import { termTree } from './terms';

const term = (id: number, name: string, parent = 0): TermRecord => ({
  id,
  name,
  slug: name.toLowerCase(),
  description: '',
  count: 0,
  parent,
});

describe('termTree', () => {
  it('puts children under their parent, by name', () => {
    const tree = termTree([term(3, 'Land', 1), term(1, 'Commercial'), term(2, 'Apartment'), term(4, 'Office', 1)]);
    expect(tree.map(({ term, depth }) => `${depth}:${term.name}`)).toEqual(['0:Apartment', '0:Commercial', '1:Land', '1:Office']);
  });

  it('keeps orphans and cycles', () => {
    const tree = termTree([term(5, 'Orphan', 99), term(6, 'A', 7), term(7, 'B', 6)]);
    expect(tree.map(({ term }) => term.id).sort()).toEqual([5, 6, 7]);
  });
});
