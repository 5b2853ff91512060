import type { ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { conditionalHeaders, selectionKey } from '../domain/conditional-read.js';
import type { ConditionalRead, ExecutorContext } from './context.js';
import { operationPolicy } from './field-policy.js';
import { selectsMovingField } from './moving-fields.js';

/**
 * Conditional polling over GraphQL's GET form (RFC 9110; README "Conditional
 * polling"): `GET /graphql?query=…` whose operation is one conditional field (its policy says so: `shipment`)
 * gets the entity tag of what it selects, and `If-None-Match` with that tag
 * gets 304 with no body, decided in the lookup before anything else is read
 * (src/graphql/schema/transmission.ts), as on GET /v2/shipments.
 *
 * The selection part of the tag covers the document, the operation name and
 * the variables, so two different queries never share a tag. POST is never
 * conditional (RFC 9110: If-None-Match on POST is about the target resource,
 * and POSTed queries are not cached by anyone).
 */
export function useConditionalGet(): Plugin<ExecutorContext> {
  const byRequest = new WeakMap<Request, ConditionalRead>();
  return {
    onExecute({ args, extendContext }) {
      const ctx = args.contextValue as ExecutorContext & { request?: Request; params?: { query?: string } };
      const request = ctx.request;
      // REST's lookup sets its own; push deliveries (their in-process request is a GET too) and POSTs are
      // not conditional.
      if (!request || request.method !== 'GET' || ctx.conditional || ctx.transmission) return;
      if (!operationPolicy(args.schema, args.document, args.operationName).conditional) return;
      // A prediction moves while the version stays: its tag would answer 304 for an answer that changed.
      if (selectsMovingField(args.schema, args.document)) return;
      const conditional: ConditionalRead = {
        ifNoneMatch: request.headers.get('if-none-match'),
        selection: selectionKey(JSON.stringify([ctx.params?.query ?? '', args.operationName ?? null, args.variableValues ?? null])),
      };
      byRequest.set(request, conditional);
      extendContext({ conditional } as Partial<ExecutorContext>);
    },
    onResultProcess({ request, result, setResultProcessor }) {
      const conditional = byRequest.get(request);
      if (!conditional?.etag || Array.isArray(result) || Symbol.asyncIterator in (result as object)) return;
      if (conditional.notModified && !(result as ExecutionResult).errors?.length) {
        setResultProcessor(
          (_result, fetchAPI) => new fetchAPI.Response(null, { status: 304, headers: conditionalHeaders(conditional.etag) }),
          'application/json',
        );
      }
    },
    onResponse({ request, response }) {
      const etag = byRequest.get(request)?.etag;
      if (!etag || response.status !== 200) return;
      for (const [name, value] of Object.entries(conditionalHeaders(etag))) response.headers.set(name, value);
    },
  };
}
