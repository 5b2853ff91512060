import {
  SelectQueryNode,
  ValueNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';

/**
 * SQLite: the LIMIT and OFFSET integers of a SELECT are written into the SQL
 * instead of bound. better-sqlite3's SQLite re-prepares a statement whose
 * LIMIT is a bound parameter on every run (the value may change the plan),
 * which made the lookup of a shipment by bill of lading ~60 µs instead of
 * ~15 µs, a fifth of a conditional poll's whole cost. Only safe non-negative
 * integers are inlined (Kysely writes an immediate value as its decimal text);
 * anything else stays a parameter. Only the outermost SELECT is looked at: no
 * walk over the tree (an insert of thousands of values passes untouched), and
 * the service's paging and lookups put their limits there. Each limit value
 * gets its own cached statement; the values in use are few (1, page sizes).
 */
export class InlineLimitsPlugin implements KyselyPlugin {
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    if (!SelectQueryNode.is(node) || (!node.limit && !node.offset)) return node;
    return {
      ...node,
      ...(node.limit ? { limit: { ...node.limit, limit: inlined(node.limit.limit) } } : {}),
      ...(node.offset ? { offset: { ...node.offset, offset: inlined(node.offset.offset) } } : {}),
    };
  }

  transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return Promise.resolve(args.result);
  }
}

function inlined(node: OperationNode): OperationNode {
  if (!ValueNode.is(node) || node.immediate) return node;
  const value = node.value;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? ValueNode.createImmediate(value) : node;
}
