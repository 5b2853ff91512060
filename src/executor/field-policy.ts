import type { DocumentNode, FieldNode, GraphQLSchema, OperationTypeNode } from 'graphql';
import { operationOf, rootFields } from './root-fields.js';
import type { QuotaName } from '../quotas/quotas.js';

/**
 * What a root field of the schema requires and costs (docs/architecture.md, Field policy), declared where the
 * field is defined (`...policy({...})` in its Pothos options, which Pothos passes on as the field's
 * `extensions`). Authentication (use-authentication.ts), quotas (use-graphql-quotas.ts) and conditional reads
 * (use-conditional-get.ts) read it from the schema; test/field-policy.test.ts fails when a root field has none.
 */
export interface FieldPolicy {
  /** Who may call it: `public` (the token grant), or a token carrying `scope`. */
  access: 'public' | { scope: string };
  /** The quota each execution counts against: one point per response key (aliases cannot multiply work for free). */
  quota?: QuotaName;
  /** Whether a GET of this field alone may be answered 304 from its entity tag (conditional polling). */
  conditional?: boolean;
}

const EXTENSION = 'policy';

/** Field options that declare the policy: spread into a Pothos field definition. */
export function policy(declared: FieldPolicy): { extensions: Record<string, FieldPolicy> } {
  return { extensions: { [EXTENSION]: declared } };
}

/** The declared policy of a root field of `operation`, or undefined (none declared, or no such field). */
export function fieldPolicy(
  schema: GraphQLSchema,
  operation: OperationTypeNode | `${OperationTypeNode}`,
  field: string,
): FieldPolicy | undefined {
  const type = schema.getRootType(operation as OperationTypeNode);
  return type?.getFields()[field]?.extensions?.[EXTENSION] as FieldPolicy | undefined;
}

/** Introspection and `__typename`: answered by the executor, governed by the introspection policy. */
const META_FIELDS = new Set(['__typename', '__schema', '__type']);

export interface OperationPolicy {
  /** Scopes the operation's root fields need; empty when nothing is protected. */
  scopes: Set<string>;
  /** Root fields that declare no policy: the operation is refused (fail closed). */
  undeclared: string[];
  /** Points per quota. */
  cost: Map<QuotaName, number>;
  /** The operation is exactly one conditional field. */
  conditional: boolean;
}

const analysed = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string | null, OperationPolicy>>>();

/** The policy of the operation a request runs, computed once per schema, document and operation name. */
export function operationPolicy(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): OperationPolicy {
  let byDocument = analysed.get(schema);
  if (!byDocument) analysed.set(schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(document);
  if (!byName) byDocument.set(document, (byName = new Map()));
  const key = operationName ?? null;
  let result = byName.get(key);
  if (!result) byName.set(key, (result = analyse(schema, document, key)));
  return result;
}

function analyse(schema: GraphQLSchema, document: DocumentNode, operationName: string | null): OperationPolicy {
  const operation = operationOf(document, operationName);
  const result: OperationPolicy = { scopes: new Set(), undeclared: [], cost: new Map(), conditional: false };
  if (!operation) return result;
  const all: FieldNode[] = rootFields(document, operationName);
  const fields = all.filter((f) => !META_FIELDS.has(f.name.value));
  const keys = new Set<string>();
  for (const field of fields) {
    const declared = fieldPolicy(schema, operation.operation, field.name.value);
    if (!declared) {
      result.undeclared.push(field.name.value);
      continue;
    }
    if (declared.access !== 'public') result.scopes.add(declared.access.scope);
    const key = field.alias?.value ?? field.name.value;
    if (declared.quota && !keys.has(key)) {
      keys.add(key);
      result.cost.set(declared.quota, (result.cost.get(declared.quota) ?? 0) + 1);
    }
  }
  const only = all.length === 1 ? all[0] : undefined;
  result.conditional = only !== undefined && fieldPolicy(schema, operation.operation, only.name.value)?.conditional === true;
  return result;
}

/** Points per quota of the operation (see FieldPolicy.quota). */
export function quotaCostOf(schema: GraphQLSchema, document: DocumentNode, operationName?: string | null): Map<QuotaName, number> {
  return operationPolicy(schema, document, operationName).cost;
}
