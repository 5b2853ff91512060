import { envelop, useEngine, useExtendContext, useMaskedErrors, useSchema, type MaskError, type Plugin } from '@envelop/core';
import { execute, parse, specifiedRules, subscribe, validate, type DocumentNode, type GraphQLError, type GraphQLSchema } from 'graphql';
import { useDocumentCache } from './use-document-cache.js';

/**
 * The one GraphQL executor of the service (docs/architecture.md, Executor): an envelop instance with the
 * schema, the context factory, the execution plugins (authentication, document limits, quotas, compiled
 * execution, conditional reads) and the error masking. Yoga serves /graphql with the same plugin instances
 * (`plugins`), REST routes and push delivery run their fixed documents with `getEnveloped` (run-document.ts),
 * and the workers build it without any HTTP layer.
 *
 * It takes the schema as a parameter: the executor is below the floor that defines the schema.
 */
export interface Executor {
  /** Per-execution envelop: parse, validate, contextFactory, execute (Yoga's Sofa approach). */
  getEnveloped: ReturnType<typeof envelop>;
  /** The execution plugins, context factory first, for Yoga's plugin list (masking excluded: Yoga masks with `masking`). */
  plugins: Plugin<any>[];
  masking: { maskError: MaskError; isDev: false };
  schema: GraphQLSchema;
  /**
   * A fixed document, parsed and validated through the plugins (the document limits see it); throws its first
   * error. After the first call both are cache lookups (use-document-cache.ts).
   */
  prepare(query: string, initial?: Record<string, unknown>): DocumentNode;
}

export interface ExecutorOptions {
  schema: GraphQLSchema;
  /** Builds the executor's part of the context from the initial one (request, params, InternalContext). */
  context(initial: Record<string, unknown>): object;
  /** Execution plugins, in order. */
  plugins: Plugin<any>[];
  maskError: MaskError;
  /** Hears each error the masking replaced, with its cause and stack (the log; nothing of it leaves the process). */
  onMasked(error: unknown): void;
}

export function createExecutor(options: ExecutorOptions): Executor {
  const plugins: Plugin<any>[] = [useExtendContext((initial) => options.context(initial) as Record<string, unknown>), ...options.plugins];
  const masking = { maskError: options.maskError, isDev: false } as const;
  // As Yoga masks /graphql (src/app/create-app.ts hands it `masking`): each error once, the cause logged.
  const masked = new WeakSet<object>();
  const maskOnce: MaskError = (error, message) => {
    if (typeof error === 'object' && error !== null && masked.has(error)) return error as Error;
    const result = options.maskError(error, message);
    if (result !== error) options.onMasked(error);
    masked.add(result);
    return result;
  };
  const getEnveloped = envelop({
    plugins: [
      useEngine({ parse, validate, execute, subscribe, specifiedRules }),
      useSchema(options.schema),
      useDocumentCache(),
      ...plugins,
      useMaskedErrors({ maskError: maskOnce }),
    ],
  });
  return {
    getEnveloped,
    plugins,
    masking,
    schema: options.schema,
    prepare(query, initial) {
      // By default a POST: nothing here refuses a mutation, but the plugins see a request as over HTTP.
      return prepareIn(getEnveloped(initial ?? { request: new Request('http://internal/graphql', { method: 'POST' }) }), query);
    },
  };
}

/** Parses and validates `query` in one envelop run; throws the first error. */
export function prepareIn(
  enveloped: ReturnType<ReturnType<typeof envelop>>,
  query: string,
  validated?: WeakSet<DocumentNode>,
): DocumentNode {
  const document: DocumentNode = enveloped.parse(query);
  // A node known valid (`validated`, kept by the caller for its fixed documents) skips the validation hooks.
  if (validated?.has(document)) return document;
  const errors: readonly GraphQLError[] = enveloped.validate(enveloped.schema, document);
  if (errors.length > 0) throw errors[0] as GraphQLError;
  validated?.add(document);
  return document;
}
