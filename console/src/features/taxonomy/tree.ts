/** One entry of a tree built from flat records: the record, its depth (0 at the top) and its children. */
export interface TreeNode<T> {
  item: T;
  key: string;
  depth: number;
  children: TreeNode<T>[];
}

/**
 * A forest from flat records that name their parent by key. Every record appears exactly once, whatever
 * the input: a record whose parent is absent, unknown or itself is a root (an orphan stays visible); records
 * caught in a parent cycle (a → b → a), which no root reaches, are cut at the first of them in input order,
 * which becomes a root. When two records share a key, children hang under the first one. Siblings keep the
 * input order.
 */
export function buildTree<T>(items: readonly T[], keyOf: (item: T) => string, parentKeyOf: (item: T) => string | null): TreeNode<T>[] {
  const keys = items.map(keyOf);
  const indexByKey = new Map<string, number>();
  keys.forEach((key, index) => {
    if (!indexByKey.has(key)) indexByKey.set(key, index);
  });
  const parentIndex = items.map((item, index) => {
    const parentKey = parentKeyOf(item);
    if (parentKey === null) return -1;
    const parent = indexByKey.get(parentKey);
    return parent === undefined || parent === index ? -1 : parent;
  });
  const childrenOf = new Map<number, number[]>();
  parentIndex.forEach((parent, index) => {
    if (parent < 0) return;
    const list = childrenOf.get(parent);
    if (list) list.push(index);
    else childrenOf.set(parent, [index]);
  });

  const placed = new Set<number>();
  const grow = (index: number, depth: number): TreeNode<T> => {
    placed.add(index);
    const node: TreeNode<T> = { item: items[index] as T, key: keys[index] as string, depth, children: [] };
    // Iterative over siblings, recursive over depth; `placed` keeps a cycle from being walked twice.
    for (const child of childrenOf.get(index) ?? []) {
      if (!placed.has(child)) node.children.push(grow(child, depth + 1));
    }
    return node;
  };

  const roots: TreeNode<T>[] = [];
  parentIndex.forEach((parent, index) => {
    if (parent < 0) roots.push(grow(index, 0));
  });
  // Whatever no root reached sits on a cycle or below one: cut it at its first record.
  items.forEach((_item, index) => {
    if (!placed.has(index)) roots.push(grow(index, 0));
  });
  return roots;
}

/** The nodes of a forest in display order (depth first), for counting and flat views. */
export function flatten<T>(forest: readonly TreeNode<T>[]): TreeNode<T>[] {
  const out: TreeNode<T>[] = [];
  const walk = (nodes: readonly TreeNode<T>[]) => {
    for (const node of nodes) {
      out.push(node);
      walk(node.children);
    }
  };
  walk(forest);
  return out;
}

/** The keys of a node's descendants (not the node itself): a term cannot take one of them as its parent. */
export function descendantKeys<T>(forest: readonly TreeNode<T>[], key: string): Set<string> {
  const found = flatten(forest).find((node) => node.key === key);
  const keys = new Set<string>();
  if (found) for (const node of flatten(found.children)) keys.add(node.key);
  return keys;
}
