import { GraphQLError, Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { GraphQLContext } from '../graphql/context.js';

/** Root query fields that need a bearer token. */
const PROTECTED_QUERY_FIELDS = new Set(['shipment']);

/**
 * Authentication before anything else of an operation that reads shipments:
 * a request without a valid token gets 401 even when its arguments are also
 * invalid, on /graphql and on REST alike (REST runs through the same envelop).
 */
export function useAuthentication(): Plugin<GraphQLContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      if (!selectsProtectedField(args.document, args.operationName ?? undefined)) return;
      try {
        await (args.contextValue as GraphQLContext).principal();
      } catch (err) {
        // An unexpected failure (the database, say) ends the operation like a
        // resolver's would: as an error of the result, which REST answers with
        // its own 500 body and the correlation id, instead of an exception
        // escaping the route.
        const error =
          err instanceof GraphQLError
            ? err
            : new GraphQLError('Unexpected error.', { originalError: err instanceof Error ? err : new Error(String(err)) });
        setResultAndStopExecution({ errors: [error] });
      }
    },
  };
}

function selectsProtectedField(document: DocumentNode, operationName: string | undefined): boolean {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const operation = operationName ? operations.find((o) => o.name?.value === operationName) : operations[0];
  if (!operation || operation.operation !== 'query') return false;
  const fragments = new Map(
    document.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const visit = (set: SelectionSetNode, seen: Set<string>): boolean =>
    set.selections.some((s) => {
      if (s.kind === Kind.FIELD) return PROTECTED_QUERY_FIELDS.has(s.name.value);
      if (s.kind === Kind.INLINE_FRAGMENT) return visit(s.selectionSet, seen);
      const fragment = fragments.get(s.name.value);
      if (!fragment || seen.has(s.name.value)) return false;
      return visit(fragment, new Set([...seen, s.name.value]));
    });
  return visit(operation.selectionSet, new Set());
}
