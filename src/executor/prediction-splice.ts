import {
  getNamedType,
  isLeafType,
  isNonNullType,
  isObjectType,
  Kind,
  TypeInfo,
  visit,
  visitWithTypeInfo,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { MOVES_WITH_TIME } from './moving-fields.js';

/**
 * A kept rendering for a selection with the predicted arrival in it (docs/predicted-arrival.md, How it is served).
 *
 * The prediction moves with time while the shipment's version stays (moving-fields.ts), so a text kept for the
 * version cannot hold it. Before, such a selection was walked on every request: the whole `shipmentTracking`
 * through its resolvers, to change one small object. Now the rest of the selection is kept as any other (under the
 * name of the selection without the prediction, so a client asking for the same fields without it shares the text),
 * and each request reads the current prediction (the lookup's resolver, as the walk's field does) and writes it into
 * the kept text at its place: the answer is the walk's, byte for byte (test/predicted-arrival.test.ts).
 *
 * Only the plain case is spliced: `predictedArrival` once, straight under `shipmentTracking` (not in a fragment),
 * with no argument or directive, its own selection plain fields (aliases and `__typename` allowed), and no other
 * field that moves with time anywhere in the document. Anything else is walked as before.
 */
export interface PredictionSplice {
  /** The tracking selection without the prediction: what the kept rendering is of. */
  rest: SelectionSetNode;
  /** Response key of `predictedArrival`. */
  key: string;
  /** How many of the tracking's response keys come before it, in the answer's order. */
  index: number;
  /** It is the tracking's last response key: written in before the kept text's closing `}`, without a scan. */
  last: boolean;
  /** Its selection: response key and field name (`__typename` included), in order, each key once. */
  fields: { key: string; name: string }[];
}

const FIELD = 'predictedArrival';

/** The splice of the prediction into `trackingSet`'s kept rendering, or null when it is not the plain case. */
export function predictionSplice(schema: GraphQLSchema, document: DocumentNode, trackingSet: SelectionSetNode): PredictionSplice | null {
  const tracking = schema.getType('ShipmentTracking');
  if (!isObjectType(tracking) || tracking.getFields()[FIELD]?.extensions?.[MOVES_WITH_TIME] !== true) return null;
  const direct = trackingSet.selections.filter((s): s is FieldNode => s.kind === Kind.FIELD && s.name.value === FIELD);
  const field = direct[0];
  if (direct.length !== 1 || !field || field.directives?.length || field.arguments?.length || !field.selectionSet) return null;
  // The document's only field that moves with time: a second one (in a fragment, say) would be kept stale.
  if (movingFields(schema, document) !== 1) return null;
  const key = field.alias?.value ?? FIELD;
  const keys = responseKeys(trackingSet, fragmentsOf(document));
  if (!keys || keys.filter((k) => k === key).length !== 1) return null;
  const type = getNamedType(tracking.getFields()[FIELD]?.type);
  if (!isObjectType(type)) return null;
  const fields: PredictionSplice['fields'] = [];
  for (const s of field.selectionSet.selections) {
    if (s.kind !== Kind.FIELD || s.directives?.length || s.arguments?.length || s.selectionSet) return null;
    const name = s.name.value;
    if (name !== '__typename' && !isLeafType(getNamedType(type.getFields()[name]?.type))) return null;
    const sub = s.alias?.value ?? name;
    const same = fields.find((f) => f.key === sub);
    // One key twice for one field is one member (GraphQL merges them); for two fields, a validation error.
    if (same && same.name !== name) return null;
    if (!same) fields.push({ key: sub, name });
  }
  const index = keys.indexOf(key);
  return {
    rest: { ...trackingSet, selections: trackingSet.selections.filter((s) => s !== field) },
    key,
    index,
    last: index === keys.length - 1,
    fields,
  };
}

/** How many fields of the document move with time. */
function movingFields(schema: GraphQLSchema, document: DocumentNode): number {
  let count = 0;
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field() {
        if (typeInfo.getFieldDef()?.extensions?.[MOVES_WITH_TIME] === true) count++;
      },
    }),
  );
  return count;
}

function fragmentsOf(document: DocumentNode): Map<string, FragmentDefinitionNode> {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return fragments;
}

/** The selection's response keys in the answer's order (each at its first occurrence, fragments inlined), or null. */
function responseKeys(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): string[] | null {
  const keys: string[] = [];
  const seen = new Set<string>();
  const collect = (s: SelectionSetNode): boolean => {
    for (const selection of s.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        if (!seen.has(key)) {
          seen.add(key);
          keys.push(key);
        } else if (selection.name.value === FIELD) keys.push(key);
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      // A fragment on another type, or under a directive, may or may not add its keys: not the plain case.
      if (!fragment || fragment.directives?.length || selection.directives?.length) return false;
      if (fragment.typeCondition && fragment.typeCondition.name.value !== 'ShipmentTracking') return false;
      if (!collect(fragment.selectionSet)) return false;
    }
    return true;
  };
  return collect(set) ? keys : null;
}

/** The prediction as the selection answers it, JSON text: each field serialized by its type, as execution does. */
export function predictionJson(schema: GraphQLSchema, splice: PredictionSplice, value: unknown): string {
  if (value === null || value === undefined) return 'null';
  const type = schema.getType('PredictedArrival');
  const types = isObjectType(type) ? type.getFields() : {};
  const out: Record<string, unknown> = {};
  for (const { key, name } of splice.fields) {
    if (name === '__typename') {
      out[key] = 'PredictedArrival';
      continue;
    }
    const v = (value as Record<string, unknown>)[name];
    const fieldType = types[name]?.type;
    const leaf = getNamedType(fieldType);
    if (v === null || v === undefined) {
      // A non-null field without a value is an error of execution, which a splice cannot give: never so by its type.
      if (isNonNullType(fieldType)) throw new Error(`PredictedArrival.${name} has no value`);
      out[key] = null;
    } else out[key] = leaf && isLeafType(leaf) ? leaf.serialize(v) : null;
  }
  return JSON.stringify(out);
}

/**
 * The kept text of the rest of the selection (a JSON object, as JSON.stringify writes it: no white space) with
 * `"key":json` written in as its member number `index`: as three parts (views of the kept text around the new
 * member), which the answer's writer copies once into the answer (use-kept-rendering.ts, stringifyKept) instead
 * of a 25 KB text being copied here and again there. `last`: the member goes after every kept one, before the
 * closing `}`, found without scanning the text (the usual place: a client adds the field to the end of its selection).
 */
export function spliceMember(text: Buffer, splice: Pick<PredictionSplice, 'index' | 'key' | 'last'>, json: string): (Buffer | string)[] {
  const { index, key } = splice;
  const at = splice.last ? text.length - 1 : memberEnd(text, index);
  const empty = text.length === 2;
  const member = `${index === 0 ? '' : ','}${JSON.stringify(key)}:${json}${index === 0 && !empty ? ',' : ''}`;
  return [text.subarray(0, at), member, text.subarray(at)];
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;

/** The byte offset right after the object's first `count` members (after its `{` for 0); its `}` if it has fewer. */
function memberEnd(text: Buffer, count: number): number {
  if (count === 0) return 1;
  let depth = 0;
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === QUOTE) {
      // Skip the string; UTF-8 continuation bytes are never ASCII, so only `\` and `"` matter inside it.
      for (i++; i < text.length && text[i] !== QUOTE; i++) if (text[i] === BACKSLASH) i++;
    } else if (c === OPEN_OBJECT || c === OPEN_ARRAY) depth++;
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      depth--;
      if (depth === 0) return i;
    } else if (c === COMMA && depth === 1 && ++seen === count) return i;
  }
  return text.length - 1;
}
