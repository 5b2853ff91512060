import fc from 'fast-check';
import { getNamedType, isObjectType, Kind, parse, type GraphQLObjectType, type GraphQLSchema, type SelectionSetNode } from 'graphql';
import { EQUIPMENT_EVENT_FRAGMENT, SHIPMENT_TRACKING_SELECTION } from '../../src/executor/shipment-document.js';

/**
 * Selections of `ShipmentTracking` for equivalence properties (test/rest-tracking.test.ts): any subset of the fields
 * the lookup document selects, at every level, in any order, with aliases, `__typename`, inline fragments (typed
 * and untyped) and named fragment spreads; sometimes a response key twice (through a fragment), which GraphQL
 * merges. What a client may send that REST's rendering can answer, and the near misses around it.
 */
export interface GeneratedSelection {
  /** `{ ... }`: the selection of shipmentTracking. */
  selection: string;
  /** The named fragments it spreads, as definitions to append to the document. */
  fragments: string;
}

type Node =
  | { kind: 'field'; name: string; alias: string | undefined; sub: Node[] | undefined }
  | { kind: 'typename'; alias: string | undefined }
  | { kind: 'inline'; typed: boolean; nodes: Node[] }
  | { kind: 'spread'; nodes: Node[] };

interface Tree {
  type: GraphQLObjectType;
  fields: { name: string; sub: Tree | undefined }[];
}

/** The lookup document's selection of shipmentTracking as a tree of the schema's types. */
function lookupTree(schema: GraphQLSchema): Tree {
  const document = parse(`{ shipmentTracking ${SHIPMENT_TRACKING_SELECTION} }\n${EQUIPMENT_EVENT_FRAGMENT}`);
  const fragment = document.definitions.find((d) => d.kind === Kind.FRAGMENT_DEFINITION);
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  if (!fragment || !operation) throw new Error('no lookup selection');
  const tracking = operation.selectionSet.selections[0];
  if (tracking?.kind !== Kind.FIELD || !tracking.selectionSet) throw new Error('no shipmentTracking');
  const treeOf = (set: SelectionSetNode, type: GraphQLObjectType): Tree => {
    const fields: Tree['fields'] = [];
    for (const s of set.selections) {
      if (s.kind === Kind.FRAGMENT_SPREAD) {
        fields.push(...treeOf(fragment.selectionSet, type).fields);
        continue;
      }
      if (s.kind !== Kind.FIELD) throw new Error('unexpected selection in the lookup document');
      const named = getNamedType(type.getFields()[s.name.value]?.type);
      fields.push({
        name: s.name.value,
        sub: s.selectionSet && isObjectType(named) ? treeOf(s.selectionSet, named) : undefined,
      });
    }
    return { type, fields };
  };
  const type = schema.getType('ShipmentTracking');
  if (!isObjectType(type)) throw new Error('no ShipmentTracking');
  return treeOf(tracking.selectionSet, type);
}

function levelArb(tree: Tree): fc.Arbitrary<Node[]> {
  const field = (f: Tree['fields'][number]): fc.Arbitrary<Node> =>
    fc.record({
      kind: fc.constant('field' as const),
      name: fc.constant(f.name),
      alias: fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: fc.constant(`${f.name}_a`), weight: 1 }),
      sub: f.sub ? levelArb(f.sub) : fc.constant(undefined),
    });
  const typename = fc.record({ kind: fc.constant('typename' as const), alias: fc.option(fc.constant('tn'), { nil: undefined }) });
  return fc
    .tuple(
      fc
        .shuffledSubarray(tree.fields, { minLength: 1, maxLength: Math.min(tree.fields.length, 6) })
        .chain((picked) => fc.tuple(...picked.map(field))),
      fc.option(typename, { nil: undefined, freq: 3 }),
      // How many of the picked fields go into a fragment (from the end), and which kind of fragment.
      fc.nat({ max: 3 }),
      fc.constantFrom('inline-typed' as const, 'inline' as const, 'spread' as const),
      // Repeat the first field inside the fragment: one response key twice, merged by GraphQL.
      fc.boolean(),
    )
    .map(([fields, name, grouped, kind, repeat]) => {
      const nodes: Node[] = [...fields];
      if (name) nodes.splice(nodes.length > 1 ? 1 : 0, 0, name);
      const n = Math.min(grouped, nodes.length);
      if (n === 0) return nodes;
      const inner = nodes.splice(nodes.length - n, n);
      const first = nodes[0];
      if (repeat && first) inner.push(first);
      nodes.push(kind === 'spread' ? { kind: 'spread', nodes: inner } : { kind: 'inline', typed: kind === 'inline-typed', nodes: inner });
      return nodes;
    });
}

const MAX_ALIASES = 12;

/** Arbitrary selections of shipmentTracking (see GeneratedSelection). */
export function generatedSelections(schema: GraphQLSchema): fc.Arbitrary<GeneratedSelection> {
  const tree = lookupTree(schema);
  return levelArb(tree).map((nodes) => {
    const fragments: string[] = [];
    // Within the service's limit of aliases per document (use-graphql-limits.ts): the rest go unaliased.
    let aliases = 0;
    const aliased = (alias: string | undefined, name: string) => (alias && ++aliases <= MAX_ALIASES ? `${alias}: ${name}` : name);
    const print = (level: Node[], type: GraphQLObjectType): string => {
      const parts = level.map((node): string => {
        switch (node.kind) {
          case 'typename':
            return aliased(node.alias, '__typename');
          case 'field': {
            const head = aliased(node.alias, node.name);
            if (!node.sub) return head;
            const named = getNamedType(type.getFields()[node.name]?.type);
            if (!isObjectType(named)) throw new Error(`${node.name} is no object`);
            return `${head} ${print(node.sub, named)}`;
          }
          case 'inline':
            return `... ${node.typed ? `on ${type.name} ` : ''}${print(node.nodes, type)}`;
          case 'spread': {
            const at = fragments.push('') - 1;
            const name = `F${at}`;
            fragments[at] = `fragment ${name} on ${type.name} ${print(node.nodes, type)}`;
            return `...${name}`;
          }
        }
      });
      return `{ ${parts.join(' ')} }`;
    };
    const selection = print(nodes, tree.type);
    return { selection, fragments: fragments.join('\n') };
  });
}
