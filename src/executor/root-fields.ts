import { Kind, type DocumentNode, type FieldNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/**
 * The root fields of the operation a request runs (by `operationName`, else
 * the document's first), through inline fragments and named fragment
 * spreads, each spread followed once per path (a cyclic spread is invalid
 * and refused by validation anyway). Authentication, quotas and the
 * introspection policy all decide on these before execution.
 */
export function rootFields(document: DocumentNode, operationName?: string | null): FieldNode[] {
  const operation = operationOf(document, operationName);
  if (!operation) return [];
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const fields: FieldNode[] = [];
  const visit = (set: SelectionSetNode, seen: ReadonlySet<string>): void => {
    for (const s of set.selections) {
      if (s.kind === Kind.FIELD) fields.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) visit(s.selectionSet, seen);
      else {
        const fragment = fragments.get(s.name.value);
        if (fragment && !seen.has(s.name.value)) visit(fragment, new Set([...seen, s.name.value]));
      }
    }
  };
  visit(operation.selectionSet, new Set());
  return fields;
}

/** The operation a request runs: by `operationName`, else the document's first. */
export function operationOf(document: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
}
