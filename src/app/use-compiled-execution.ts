import type { DocumentNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { makeExecute, type Plugin } from 'graphql-yoga';
import type { Logger } from './logger.js';

/**
 * Compiled execution (graphql-jit): each operation is compiled once into a
 * function that walks its selection without the interpreting executor's
 * per-field bookkeeping. A full snapshot is a few thousand fields, and that
 * bookkeeping was the first limit of the lookup (bench/README.md).
 *
 * Compiled operations are cached per parsed document and operation name.
 * Yoga's parser cache hands out one document object per query string, so the
 * REST documents and a client's repeated query compile once, and the cache
 * lets go of a document when Yoga's does.
 *
 * @NOTE not @envelop/graphql-jit: it caches by document alone, so a document
 * with two operations (GraphiQL's default has a mutation and a query) would
 * run whichever operation was compiled first.
 *
 * Error semantics are those of the interpreter: graphql-jit's errors are
 * GraphQLErrors that carry the resolver error's extensions (code, details,
 * http), which Yoga's status handling and the REST mapping read.
 */
export function useCompiledExecution(logger: Logger): Plugin {
  const cache = new WeakMap<DocumentNode, Map<string, CompiledQuery | null>>();

  function compiled(args: { schema: Parameters<typeof compileQuery>[0]; document: DocumentNode; operationName?: string | null }) {
    const key = args.operationName ?? '';
    let byOperation = cache.get(args.document);
    if (!byOperation) cache.set(args.document, (byOperation = new Map()));
    let entry = byOperation.get(key);
    if (entry === undefined) {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      if (isCompiledQuery(result)) {
        entry = result;
      } else {
        // The interpreter runs it instead and reports the problem the usual way.
        logger.log('warn', 'graphql-jit could not compile an operation', { errors: result.errors?.map((e) => e.message) });
        entry = null;
      }
      byOperation.set(key, entry);
    }
    return entry;
  }

  const execute = makeExecute((args) => {
    const query = compiled(args);
    if (!query) throw new Error('compiled execution without a compiled query');
    return query.query(args.rootValue, args.contextValue, args.variableValues);
  });

  return {
    onExecute({ args, setExecuteFn }) {
      if (compiled(args)) setExecuteFn(execute);
    },
  };
}
