import SchemaBuilder from '@pothos/core';
import RelayPlugin from '@pothos/plugin-relay';
import ValidationPlugin from '@pothos/plugin-validation';
import { DCSA, lookupError, type DetailedError } from '../errors/errors.js';
import type { GraphQLContext } from './context.js';

/**
 * The Pothos builder: context type, scalar shapes and plugins only; types
 * live in `schema/`, one file per type family (Pothos app layout).
 */
export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  DefaultFieldNullability: false;
  Scalars: {
    /** Canonical UTC timestamps, `YYYY-MM-DDTHH:mm:ss.sssZ` (see `toUtcIso`), in and out. */
    DateTime: { Input: string; Output: string };
  };
}>({
  plugins: [RelayPlugin, ValidationPlugin],
  defaultFieldNullability: false,
  // Global object identification and connections (docs/graphql.md, Object identification and Pagination).
  // node/nodes are defined in schema/node.ts, not by the plugin: they answer null for a forged ID (the
  // plugin's would refuse it, telling a forged ID from an unknown one) and apply each type's own access rule.
  relay: {
    nodeQueryOptions: false,
    nodesQueryOptions: false,
    clientMutationId: 'omit',
    cursorType: 'String',
    nodesOnConnection: false,
    nodeTypeOptions: {
      description:
        'An object with a global ID: clients cache it by its `id`, and `node(id:)` fetches it again (Relay Global Object Identification).',
    },
    idFieldOptions: {
      description: 'Opaque global ID, stable across restarts and equal on every store; pass it to node(id:) or nodes(ids:).',
    },
    pageInfoTypeOptions: { description: 'Where a page of a connection starts and ends (Relay Cursor Connections).' },
    hasNextPageFieldOptions: { description: 'More items follow endCursor (forward paging).' },
    hasPreviousPageFieldOptions: { description: 'More items precede startCursor (backward paging); false when paging forward.' },
    startCursorFieldOptions: { description: 'The cursor of the first edge; pass it as `before` for the previous page.' },
    endCursorFieldOptions: { description: 'The cursor of the last edge; pass it as `after` for the next page.' },
    pageInfoFieldOptions: { description: 'Where this page starts and ends.' },
    edgesFieldOptions: { description: 'The items of this page, each with its cursor.' },
    nodeFieldOptions: { description: 'The item.' },
    cursorFieldOptions: { description: 'Pass as `after` (or `before`) to page from this item.' },
  },
  validation: {
    // Validation failures become the same BAD_USER_INPUT error, with one DCSA
    // detailed error per issue, on GraphQL and (through the REST mapping) on REST.
    validationError: (failure, args) => {
      const details: DetailedError[] = failure.issues.map((issue) => {
        const keys = (issue.path ?? []).map((p) => (typeof p === 'object' && p !== null && 'key' in p ? p.key : p));
        // property: the field the value belongs to (DCSA); jsonPath: where exactly, array positions included.
        const property = keys
          .filter((k) => typeof k !== 'number')
          .map(String)
          .join('.');
        const jsonPath = `$${keys.map((k) => (typeof k === 'number' ? `[${k}]` : `.${String(k)}`)).join('')}`;
        const raw = property ? args[property] : undefined;
        return {
          ...DCSA.invalidParameter,
          ...(property ? { property, jsonPath } : {}),
          ...(typeof raw === 'string' ? { value: raw.slice(0, 500) } : {}),
          errorCodeMessage: issue.message.slice(0, 200),
        };
      });
      return lookupError('BAD_USER_INPUT', details.map((d) => d.errorCodeMessage).join('; '), details);
    },
  },
});
