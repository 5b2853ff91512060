import {
  getNamedType,
  isLeafType,
  isObjectType,
  Kind,
  parse,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLObjectType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { SHIPMENT_DOCUMENT } from './shipment-document.js';

/**
 * A GraphQL selection of `shipmentTracking` answered from REST's rendering of the same shipment version
 * (docs/architecture.md, Data flows: a lookup).
 *
 * REST's `shipmentTracking` is the lookup document's answer with its absent optional fields left out
 * (src/http-messages/rest-body.ts, omitAbsent: it drops nulls, and nothing else), and it is stored with every snapshot
 * (src/domain/rest-tracking.ts). So any selection of fields that the lookup document selects too, with no
 * arguments, is that text projected: each selected field's value where REST carries it, null where REST left it
 * out, in the selection's order and under its aliases, `__typename` from the schema. A GraphQL lookup of a version
 * nobody has asked for with that selection yet (a miss of the snapshot cache, under lookups spread over a million
 * shipments) then parses one stored column of a few KB and writes it again, instead of reading the stored parts
 * and walking a few thousand fields through their resolvers. test/rest-tracking.test.ts holds the projected
 * answer equal to the walked one over generated shipments and selections, on both stores.
 *
 * Only a selection that reads a stored column of the snapshot (the events, the containers, the exceptions) is
 * projected: one of the shipment's row alone (its identifiers, places, eta) is walked, which reads nothing more. A
 * selection of `eta` and `exceptions` was walked too, once (the exceptions' column is small), but its walk read that
 * column with a statement of its own and ran its resolvers, and cost more per answer than the full selection
 * projected (bench/README.md, Latest figures). A selection the projection cannot answer exactly is walked as before:
 * a field the lookup document does not select (or selects differently), an argument, a directive, an abstract
 * type, a fragment on another type, or one response key for two different fields. One key selected twice for the
 * same field (through a fragment, say) is merged as GraphQL merges it: one member, at the key's first place, its
 * sub-selections together.
 */
export interface Projection {
  fields: ProjectedField[];
}

type ProjectedField = { key: string; typename: string } | { key: string; name: string; sub?: Projection };

/** What REST's rendering carries under each field: the lookup document's selection, fragments inlined. */
interface RestTree {
  [name: string]: RestTree | null;
}

let restTree: RestTree | undefined;

function restSelection(): RestTree {
  if (restTree) return restTree;
  const document = parse(SHIPMENT_DOCUMENT);
  const fragments = fragmentsOf(document);
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const shipment = operation?.selectionSet.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'shipment');
  const tracking =
    shipment?.kind === Kind.FIELD
      ? shipment.selectionSet?.selections.find((s) => s.kind === Kind.FIELD && s.name.value === 'shipmentTracking')
      : undefined;
  if (tracking?.kind !== Kind.FIELD || !tracking.selectionSet) throw new Error('the lookup document selects no shipmentTracking');
  restTree = treeOf(tracking.selectionSet, fragments);
  return restTree;
}

function treeOf(selectionSet: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): RestTree {
  const tree: RestTree = {};
  for (const s of selectionSet.selections) {
    if (s.kind === Kind.FIELD) tree[s.name.value] = s.selectionSet ? treeOf(s.selectionSet, fragments) : null;
    else if (s.kind === Kind.FRAGMENT_SPREAD)
      Object.assign(tree, treeOf((fragments.get(s.name.value) as FragmentDefinitionNode).selectionSet, fragments));
    else Object.assign(tree, treeOf(s.selectionSet, fragments));
  }
  return tree;
}

/** The document's fragment definitions by name. */
export function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return fragments;
}

/**
 * The projection of REST's rendering that answers `selectionSet` (a `shipmentTracking` selection of `document`),
 * or null when it cannot be answered exactly that way (see Projection). Directives and variables are the caller's
 * to have refused (use-kept-rendering.ts keeps only selections without them).
 */
export function restProjection(schema: GraphQLSchema, document: DocumentNode, selectionSet: SelectionSetNode): Projection | null {
  const type = schema.getType('ShipmentTracking');
  if (!isObjectType(type)) return null;
  const projection = projectionOf([selectionSet], type, restSelection(), fragmentsOf(document));
  // Worth it only where the walk would read a stored column: the other fields come with the shipment's row, which
  // the lookup has read anyway, while the projection reads REST's rendering with it.
  return projection?.fields.some((f) => 'name' in f && WALK_READS_COLUMN.has(f.name)) ? projection : null;
}

/** The fields of ShipmentTracking whose walk reads a stored column of the snapshot (ShipmentSnapshot). */
const WALK_READS_COLUMN = new Set(['containers', 'shipmentEvents', 'transportEvents', 'exceptions']);

function projectionOf(
  selectionSets: readonly SelectionSetNode[],
  type: GraphQLObjectType,
  rest: RestTree,
  fragments: Map<string, FragmentDefinitionNode>,
): Projection | null {
  // The fields by response key, in the order of each key's first occurrence, fragments inlined: graphql-js's
  // collectFields, whose answer has one member per key, its sub-selections merged.
  const byKey = new Map<string, FieldNode[]>();
  const collect = (set: SelectionSetNode): boolean => {
    for (const s of set.selections) {
      if (s.directives?.length) return false;
      if (s.kind === Kind.FRAGMENT_SPREAD || s.kind === Kind.INLINE_FRAGMENT) {
        const fragment = s.kind === Kind.FRAGMENT_SPREAD ? fragments.get(s.name.value) : s;
        if (!fragment || fragment.directives?.length) return false;
        if (fragment.typeCondition && fragment.typeCondition.name.value !== type.name) return false;
        if (!collect(fragment.selectionSet)) return false;
        continue;
      }
      if (s.arguments?.length) return false;
      const key = s.alias?.value ?? s.name.value;
      const same = byKey.get(key);
      if (!same) byKey.set(key, [s]);
      // One key for two fields is a validation error; refused here all the same.
      else if (same[0]?.name.value === s.name.value) same.push(s);
      else return false;
    }
    return true;
  };
  for (const set of selectionSets) if (!collect(set)) return null;
  const fields: ProjectedField[] = [];
  for (const [key, nodes] of byKey) {
    const name = (nodes[0] as FieldNode).name.value;
    if (name === '__typename') {
      fields.push({ key, typename: type.name });
      continue;
    }
    const definition = type.getFields()[name];
    if (!definition || !(name in rest)) return null;
    const named = getNamedType(definition.type);
    const restSub = rest[name];
    const subSets = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    if (isLeafType(named)) {
      if (subSets.length > 0 || restSub !== null) return null;
      fields.push({ key, name });
      continue;
    }
    if (!isObjectType(named) || subSets.length !== nodes.length || !restSub) return null;
    const sub = projectionOf(subSets, named, restSub, fragments);
    if (!sub) return null;
    fields.push({ key, name, sub });
  }
  return { fields };
}

/** REST's rendering (UTF-8 JSON of `shipmentTracking`) projected to the selection's answer, as UTF-8 JSON. */
export function projectRest(restTracking: Buffer, projection: Projection): Buffer {
  return Buffer.from(JSON.stringify(project(JSON.parse(restTracking.toString('utf8')), projection)), 'utf8');
}

function project(value: unknown, projection: Projection): unknown {
  if (value === null || value === undefined) return null;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = project(value[i], projection);
    return out;
  }
  const source = value as Record<string, unknown>;
  // Without a prototype, as graphql-js builds its answers: an alias is a plain key, whatever its name.
  const out = Object.create(null) as Record<string, unknown>;
  for (const field of projection.fields) {
    if ('typename' in field) {
      out[field.key] = field.typename;
      continue;
    }
    const v = source[field.name];
    out[field.key] = v === undefined ? null : field.sub ? project(v, field.sub) : v;
  }
  return out;
}
