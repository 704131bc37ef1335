import {
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  SelectQueryNode,
  type UnknownRow,
} from 'kysely';

/**
 * Counts the SELECT statements run through the Kysely instance it is plugged into, when their result
 * arrives: the no-N+1 tests compare the count for small and large pages.
 */
export class SelectCounter implements KyselyPlugin {
  selects = 0;
  private readonly pending = new WeakMap<object, number>();

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    if (SelectQueryNode.is(node)) this.pending.set(queryId, (this.pending.get(queryId) ?? 0) + 1);
    return node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const pending = this.pending.get(queryId) ?? 0;
    if (pending > 0) {
      this.pending.set(queryId, pending - 1);
      this.selects++;
    }
    return result;
  }
}
