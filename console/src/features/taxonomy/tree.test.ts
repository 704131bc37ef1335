import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { locationTree, termTree, type TermRecord } from './taxonomies';
import { buildTree, descendantKeys, flatten } from './tree';

const term = (id: number, parent: number, extra: Partial<TermRecord> = {}): TermRecord => ({
  id,
  name: `t${id}`,
  slug: `t${id}`,
  description: '',
  count: 0,
  parent,
  ...extra,
});

describe('buildTree', () => {
  it('nests children under their parents, siblings in input order', () => {
    const forest = termTree([term(1, 0), term(2, 1), term(3, 1), term(4, 2), term(5, 0)]);
    expect(forest.map((node) => node.item.id)).toEqual([1, 5]);
    expect(forest[0]!.children.map((node) => node.item.id)).toEqual([2, 3]);
    expect(forest[0]!.children[0]!.children[0]!.depth).toBe(2);
  });

  it('keeps orphans (unknown parent) and self-parents at the top', () => {
    const forest = termTree([term(1, 99), term(2, 2), term(3, 1)]);
    expect(forest.map((node) => node.item.id)).toEqual([1, 2]);
    expect(forest[0]!.children.map((node) => node.item.id)).toEqual([3]);
  });

  it('cuts a cycle at its first record', () => {
    const forest = termTree([term(1, 3), term(2, 1), term(3, 2), term(4, 0)]);
    expect(forest.map((node) => node.item.id)).toEqual([4, 1]);
    expect(
      flatten(forest)
        .map((node) => node.item.id)
        .sort(),
    ).toEqual([1, 2, 3, 4]);
  });

  it('lists a node’s descendants', () => {
    const forest = termTree([term(1, 0), term(2, 1), term(3, 2), term(4, 0)]);
    expect([...descendantKeys(forest, '1')].sort()).toEqual(['2', '3']);
    expect(descendantKeys(forest, '4').size).toBe(0);
  });

  it('property: every record appears exactly once, at a depth one more than its tree parent', () => {
    const records = fc.array(fc.record({ id: fc.integer({ min: 1, max: 30 }), parent: fc.integer({ min: 0, max: 32 }) }), {
      maxLength: 60,
    });
    fc.assert(
      fc.property(records, (items) => {
        const forest = buildTree(
          items,
          (item) => String(item.id),
          (item) => (item.parent > 0 ? String(item.parent) : null),
        );
        const nodes = flatten(forest);
        expect(nodes).toHaveLength(items.length);
        expect(new Set(nodes.map((node) => node.item)).size).toBe(new Set(items).size);
        for (const item of items) expect(nodes.filter((node) => node.item === item)).toHaveLength(1);
        const check = (list: typeof forest, depth: number) => {
          for (const node of list) {
            expect(node.depth).toBe(depth);
            for (const child of node.children) expect(String(child.item.parent)).toBe(node.key);
            check(node.children, depth + 1);
          }
        };
        check(forest, 0);
      }),
    );
  });
});

describe('locationTree', () => {
  it('hangs states under countries, cities under states, areas under cities', () => {
    const forest = locationTree({
      property_country: [term(1, 0)],
      property_state: [term(1, 0, { parent_country: { id: 1, name: 'c', slug: 'c' } })],
      property_city: [term(3, 0, { parent_state: { id: 1, name: 's', slug: 's' } }), term(4, 0)],
      property_area: [term(5, 0, { parent_city: { id: 3, name: 'x', slug: 'x' } }), term(6, 5)],
    });
    expect(forest.map((node) => node.key)).toEqual(['property_country:1', 'property_city:4']);
    const state = forest[0]!.children[0]!;
    expect(state.key).toBe('property_state:1');
    const city = state.children[0]!;
    expect(city.key).toBe('property_city:3');
    expect(city.children[0]!.key).toBe('property_area:5');
    expect(city.children[0]!.children[0]!.key).toBe('property_area:6');
  });
});
