import { createHash, randomUUID } from 'node:crypto';
import {
  getNamedType,
  getOperationAST,
  isLeafType,
  isObjectType,
  Kind,
  print,
  visit,
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { ExecutorContext, InternalContext, RenderedRead, TransmissionHeader } from './context.js';
import { requestPath } from '../http-messages/request-path.js';
import { fragmentsOf, projectRest, restProjection, type Projection } from './rest-projection.js';
import { REST_RENDERING } from './shipment-rendering.js';
import { selectsMovingField } from './moving-fields.js';
import { predictionJson, predictionSplice, spliceMember, type PredictionSplice } from './prediction-splice.js';

/**
 * The rendering memo of REST and push (shipment-rendering.ts), for GraphQL answers on /graphql
 * (docs/architecture.md, Data flows: a lookup).
 *
 * A client polling a shipment sends the same document again and again (a persisted operation, a trusted
 * document, or the same text), and most answers are of a version it has seen. Walking the few thousand fields of
 * `shipmentTracking` and serializing them again was most of such an answer's cost beyond REST's. So, for an
 * operation whose only root field is `shipment` and whose `shipmentTracking` selection is the same for every
 * request (no variable and no directive in it or in the fragments it spreads: `@include(if: $x)`, `@defer` and
 * argument variables vary per request, aliases and literal arguments do not), the JSON text of that subtree is
 * kept on the shipment's snapshot at its version, named by the selection, as REST keeps its own. The next request
 * for that version runs the whole operation as before (authentication, limits, cost, quotas, the tenant filter,
 * the version read, the conditional read): the lookup's resolver finds the text and answers the field null
 * without walking the snapshot, and this plugin puts back the selected header fields (serialized by their types,
 * per request) and the kept text, which Yoga writes into the answer as is (`stringify` of the result, Yoga's hook
 * for a result's own serialization; any other reader of the result gets the parsed value: RenderedJson.toJSON).
 * The text stays the UTF-8 bytes the snapshot keeps: the answer is written as bytes (stringifyKept), as REST's is
 * (shipment-rendering.ts, transmissionBytes), never as a 25 KB string to be encoded again for the socket.
 *
 * GraphQL keeps the nulls REST omits, so the two never share a rendering (`graphql-json:` against `rest-json:`).
 * The subtree reads neither the caller nor the clock (shipment-rendering.ts), so callers share the text.
 */
export function useKeptRendering(options: { graphqlEndpoint: string }): Plugin {
  const plans = new WeakMap<DocumentNode, Map<string, KeptPlan | null>>();

  function planFor(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): KeptPlan | null {
    let byOperation = plans.get(document);
    if (!byOperation) plans.set(document, (byOperation = new Map()));
    const key = operationName ?? '';
    let plan = byOperation.get(key);
    if (plan === undefined) {
      plan = keptPlan(schema, document, operationName);
      byOperation.set(key, plan);
    }
    return plan;
  }

  return {
    onExecute({ args }) {
      const context = args.contextValue as ExecutorContext & InternalContext;
      // The service's own runs (REST, push) keep their own rendering; only /graphql answers are serialized here.
      if (context.rendered || context.asPrincipal || context.transmission) return undefined;
      if (!context.request || requestPath(context.request) !== options.graphqlEndpoint) return undefined;
      const plan = planFor(args.schema, args.document, args.operationName);
      if (!plan) return undefined;
      const rendered: RenderedRead = {
        name: plan.name,
        ...(plan.derived ? { derived: plan.derived } : {}),
        ...(plan.splice ? { predicted: true } : {}),
      };
      context.rendered = rendered;
      return {
        onExecuteDone({ result, setResult }) {
          if (isAsyncIterable(result)) return undefined;
          const { splice } = plan;
          if (rendered.hit) {
            const { hit } = rendered;
            // This request's prediction, written into the kept text at its place (prediction-splice.ts).
            const tracking = splice
              ? spliceMember(hit.tracking, splice, predictionJson(args.schema, splice, hit.predictedArrival))
              : [hit.tracking];
            setResult(withKeptText(result, plan, tracking, headerSelection(args.schema, plan, hit.header)));
            return undefined;
          }
          const shipment = result.data?.[plan.shipmentKey] as Record<string, unknown> | null | undefined;
          if (!rendered.keep || result.errors?.length || !shipment) return undefined;
          const tracking = shipment[plan.trackingKey];
          if (tracking === undefined || tracking === null) return undefined;
          if (splice) {
            // Kept without the prediction; this answer is the walk's as it is.
            const rest = { ...(tracking as Record<string, unknown>) };
            delete rest[splice.key];
            rendered.keep(Buffer.from(JSON.stringify(rest), 'utf8'));
            return undefined;
          }
          const text = Buffer.from(JSON.stringify(tracking), 'utf8');
          rendered.keep(text);
          setResult(withKeptText(result, plan, [text], shipment));
          return undefined;
        },
      };
    },
  };
}

/** How a kept rendering is answered for one operation of a document. */
export interface KeptPlan {
  /** The rendering's name on the snapshot: the serialization and the `shipmentTracking` selection. */
  name: string;
  /** Response key of the `shipment` root field. */
  shipmentKey: string;
  /** Response key of `shipmentTracking`. */
  trackingKey: string;
  /** How REST's rendering of the same version answers the selection, when it does (rest-projection.ts); made once per plan. */
  derived?: RenderedRead['derived'];
  /** The selection's predicted arrival, written into the kept rendering of the rest per request (prediction-splice.ts). */
  splice?: PredictionSplice;
  /** The `shipment` selection in document order: the header's fields, __typename, the tracking. */
  fields: ({ key: string; kind: 'typename' | 'tracking' } | { key: string; kind: 'header'; fields: { key: string; name: string }[] })[];
}

/**
 * The plan of an operation whose answer can carry a kept rendering, or null: a query with `shipment` as its only
 * root field, selecting under it only `__typename`, `transmissionHeader` (plain fields) and one
 * `shipmentTracking`, none with a directive, and nothing in `shipmentTracking`'s selection that varies per
 * request (a variable or a directive, in it or in a fragment it spreads).
 */
export function keptPlan(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): KeptPlan | null {
  const operation = getOperationAST(document, operationName);
  if (operation?.operation !== 'query') return null;
  // A field that moves with time (a prediction) cannot be kept for a version (moving-fields.ts): the rest of the
  // selection is kept, and the prediction spliced in per request, where prediction-splice.ts can.
  const moving = selectsMovingField(schema, document);
  const roots = operation.selectionSet.selections;
  const root = roots[0];
  if (roots.length !== 1 || root?.kind !== Kind.FIELD || root.name.value !== 'shipment' || root.directives?.length) return null;
  if (!root.selectionSet) return null;
  const headerType = schema.getType('TransmissionHeader');
  if (!isObjectType(headerType)) return null;
  const keys = new Set<string>();
  const fields: KeptPlan['fields'] = [];
  let tracking: FieldNode | undefined;
  for (const selection of root.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD || selection.directives?.length || selection.arguments?.length) return null;
    const key = selection.alias?.value ?? selection.name.value;
    if (keys.has(key)) return null;
    keys.add(key);
    const name = selection.name.value;
    if (name === '__typename') {
      fields.push({ key, kind: 'typename' });
    } else if (name === 'shipmentTracking' && !tracking && selection.selectionSet) {
      tracking = selection;
      fields.push({ key, kind: 'tracking' });
    } else if (name === 'transmissionHeader' && selection.selectionSet) {
      const header = headerFields(selection.selectionSet, headerType.getFields());
      if (!header) return null;
      fields.push({ key, kind: 'header', fields: header });
    } else {
      return null;
    }
  }
  if (!tracking?.selectionSet) return null;
  const splice = moving ? predictionSplice(schema, document, tracking.selectionSet) : undefined;
  if (splice === null || splice?.rest.selections.length === 0) return null;
  const kept = splice?.rest ?? tracking.selectionSet;
  const selection = fixedSelection(document, kept);
  if (selection === null) return null;
  return {
    name: `graphql-json:${createHash('sha256').update(selection).digest('base64url')}`,
    shipmentKey: root.alias?.value ?? root.name.value,
    trackingKey: tracking.alias?.value ?? tracking.name.value,
    ...derivedFromRest(restProjection(schema, document, kept)),
    ...(splice ? { splice } : {}),
    fields,
  };
}

function derivedFromRest(projection: Projection | null): Pick<KeptPlan, 'derived'> {
  return projection ? { derived: { from: REST_RENDERING, make: (rest) => projectRest(rest, projection) } } : {};
}

/** Plain fields of the header (aliases allowed), or null. */
function headerFields(selectionSet: SelectionSetNode, known: Record<string, unknown>): { key: string; name: string }[] | null {
  const fields: { key: string; name: string }[] = [];
  const keys = new Set<string>();
  for (const s of selectionSet.selections) {
    if (s.kind !== Kind.FIELD || s.directives?.length || s.arguments?.length || s.selectionSet) return null;
    const key = s.alias?.value ?? s.name.value;
    if (keys.has(key) || (s.name.value !== '__typename' && !(s.name.value in known))) return null;
    keys.add(key);
    fields.push({ key, name: s.name.value });
  }
  return fields;
}

/**
 * The selection's text with the fragments it spreads (transitively, by name), when nothing in them varies per
 * request; null when something does.
 */
function fixedSelection(document: DocumentNode, selectionSet: SelectionSetNode): string | null {
  const fragments = fragmentsOf(document);
  const used = new Map<string, FragmentDefinitionNode>();
  const pending: (SelectionSetNode | FragmentDefinitionNode)[] = [selectionSet];
  while (pending.length > 0) {
    const node = pending.pop() as SelectionSetNode | FragmentDefinitionNode;
    let varies = false;
    visit(node, {
      Variable() {
        varies = true;
        return BREAK;
      },
      Directive() {
        varies = true;
        return BREAK;
      },
      FragmentSpread(spread) {
        const name = spread.name.value;
        const fragment = fragments.get(name);
        if (!fragment) {
          varies = true;
          return BREAK;
        }
        if (!used.has(name)) {
          used.set(name, fragment);
          pending.push(fragment);
        }
        return undefined;
      },
    });
    if (varies) return null;
  }
  const names = [...used.keys()].sort();
  return [print(selectionSet), ...names.map((n) => print(used.get(n) as FragmentDefinitionNode))].join('\n');
}

/** The selected header fields of this request, serialized by their types, as execution would. */
function headerSelection(schema: GraphQLSchema, plan: KeptPlan, header: TransmissionHeader): Record<string, unknown> {
  const headerType = schema.getType('TransmissionHeader');
  const types = isObjectType(headerType) ? headerType.getFields() : {};
  const shipment: Record<string, unknown> = {};
  for (const field of plan.fields) {
    if (field.kind === 'typename') shipment[field.key] = 'Transmission';
    else if (field.kind === 'tracking') shipment[field.key] = null;
    else if ('fields' in field) {
      const out: Record<string, unknown> = {};
      for (const { key, name } of field.fields) {
        if (name === '__typename') {
          out[key] = 'TransmissionHeader';
          continue;
        }
        const value = (header as unknown as Record<string, unknown>)[name];
        const type = getNamedType(types[name]?.type);
        out[key] = value === null || value === undefined || !type || !isLeafType(type) ? null : type.serialize(value);
      }
      shipment[field.key] = out;
    }
  }
  return shipment;
}

/**
 * Kept JSON text (UTF-8 bytes, in parts whose concatenation is the text: a kept rendering, or one with a prediction
 * spliced in) standing for a value of the answer; written as is by the result's `stringify`.
 */
export class RenderedJson {
  readonly byteLength: number;

  /** Strings are written as UTF-8 (a spliced member: small, encoded straight into the answer). */
  constructor(readonly parts: readonly (Buffer | string)[]) {
    this.byteLength = parts.reduce((n, part) => n + (typeof part === 'string' ? Buffer.byteLength(part, 'utf8') : part.byteLength), 0);
  }

  /** For a reader of the result other than Yoga's writer: the value itself. */
  toJSON(): unknown {
    return JSON.parse(this.parts.map((part) => (typeof part === 'string' ? part : part.toString('utf8'))).join('')) as unknown;
  }
}

/** Cannot occur in an answer: random per process, and what stands in for the kept text while the rest is written. */
const PLACEHOLDER_VALUE = `kept-rendering-${randomUUID()}`;
const PLACEHOLDER = JSON.stringify(PLACEHOLDER_VALUE);

function withKeptText(
  result: ExecutionResult,
  plan: KeptPlan,
  parts: readonly (Buffer | string)[],
  shipment: Record<string, unknown>,
): ExecutionResult {
  const data = { ...result.data, [plan.shipmentKey]: { ...shipment, [plan.trackingKey]: new RenderedJson(parts) } };
  return Object.assign({ ...result, data }, { stringify: stringifyKept(plan) });
}

/**
 * Yoga's per-result serializer (result.stringify): the answer with the kept text written in place, as UTF-8 bytes.
 * Yoga types the hook as returning a string, but bytes are what its writers need: the JSON one hands the value to
 * `new Response(body)`, which takes a Buffer as it is (and the node adapter writes it to the socket unencoded),
 * and the event-stream and multipart ones put it in a template, which decodes a Buffer as UTF-8 (test/graphql-
 * operations.test.ts, kept rendering, holds all three to the executed answer).
 */
function stringifyKept(plan: KeptPlan): (result: ExecutionResult) => string {
  return (result) => {
    const shipment = result.data?.[plan.shipmentKey] as Record<string, unknown> | null | undefined;
    const kept = shipment?.[plan.trackingKey];
    if (!(kept instanceof RenderedJson)) return JSON.stringify(result);
    const json = JSON.stringify({
      ...result,
      data: { ...result.data, [plan.shipmentKey]: { ...shipment, [plan.trackingKey]: PLACEHOLDER_VALUE } },
    });
    const at = json.indexOf(PLACEHOLDER);
    if (at < 0) return JSON.stringify(result);
    // One buffer of the answer's size, the text around the rendering encoded straight into it.
    const head = json.slice(0, at);
    const tail = json.slice(at + PLACEHOLDER.length);
    const headBytes = Buffer.byteLength(head, 'utf8');
    const bytes = Buffer.allocUnsafe(headBytes + kept.byteLength + Buffer.byteLength(tail, 'utf8'));
    bytes.write(head, 0, 'utf8');
    let offset = headBytes;
    for (const part of kept.parts) offset += typeof part === 'string' ? bytes.write(part, offset, 'utf8') : part.copy(bytes, offset);
    bytes.write(tail, offset, 'utf8');
    return bytes as unknown as string;
  };
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
