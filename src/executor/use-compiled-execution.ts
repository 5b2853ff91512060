import { getOperationAST, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { makeExecute, type Plugin } from 'graphql-yoga';
import type { Logger } from '../observability/logger.js';
import { usesIncrementalDelivery } from './incremental-delivery.js';

export interface CompiledExecutionOptions {
  /** Operations kept compiled, least recently used dropped first (TT_GRAPHQL_COMPILED_CACHE_SIZE); 0 runs everything interpreted. Default 100. */
  maxOperations?: number;
}

/**
 * Compiled execution (graphql-jit): each operation is compiled once into a
 * function that walks its selection without the interpreting executor's
 * per-field bookkeeping. A full snapshot is a few thousand fields, and that
 * bookkeeping was the first limit of the lookup (bench/README.md).
 *
 * Compiling runs on the event loop and grows with the document: only
 * documents that passed validation, and so the limits of
 * use-graphql-limits.ts, are compiled (a 1,000-alias lookup took 30 to 60 s
 * and 3 GB before those limits); any other is left to the interpreter.
 *
 * Compiled operations are kept per operation of a parsed document, in a
 * cache bounded by count. Yoga's parser cache hands out one document object
 * per query string, so the REST documents and a client's repeated query
 * compile once.
 *
 * @NOTE not @envelop/graphql-jit: it caches by document alone, so a document
 * with two operations (GraphiQL's default has a mutation and a query) would
 * run whichever operation was compiled first.
 *
 * Documents with `@defer` or `@stream` run interpreted (Yoga's executor, which
 * delivers the parts incrementally); the others stay compiled.
 *
 * Error semantics are those of the interpreter: graphql-jit's errors are
 * GraphQLErrors that carry the resolver error's extensions (code, details,
 * http), which Yoga's status handling and the REST mapping read.
 */
export function useCompiledExecution(logger: Logger, options: CompiledExecutionOptions = {}): Plugin {
  const maxOperations = options.maxOperations ?? 100;
  const validated = new WeakSet<DocumentNode>();
  const cache = new OperationCache<CompiledQuery | null>(maxOperations);

  function compiled(args: { schema: Parameters<typeof compileQuery>[0]; document: DocumentNode; operationName?: string | null }) {
    if (maxOperations === 0 || !validated.has(args.document)) return null;
    const operation = getOperationAST(args.document, args.operationName);
    if (!operation) return null;
    let entry = cache.get(operation);
    if (entry === undefined && usesIncrementalDelivery(args.document)) {
      // graphql-jit knows no incremental delivery: it would answer @defer and @stream all at once.
      entry = null;
      cache.set(operation, entry);
    }
    if (entry === undefined) {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      if (isCompiledQuery(result)) {
        entry = result;
      } else {
        // The interpreter runs it instead and reports the problem the usual way.
        logger.log('warn', 'graphql-jit could not compile an operation', { errors: result.errors?.map((e) => e.message) });
        entry = null;
      }
      cache.set(operation, entry);
    }
    return entry;
  }

  const execute = makeExecute((args) => {
    const query = compiled(args);
    if (!query) throw new Error('compiled execution without a compiled query');
    return query.query(args.rootValue, args.contextValue, args.variableValues);
  });

  return {
    onValidate({ params }) {
      // Also on a hit of Yoga's validation cache: its result reaches these callbacks too.
      return ({ valid }) => {
        if (valid) validated.add(params.documentAST);
      };
    },
    onExecute({ args, setExecuteFn }) {
      if (compiled(args)) setExecuteFn(execute);
    },
  };
}

/**
 * Least recently used first out, by count: a Map iterates in insertion order,
 * so a hit is moved to the end and the first key is the oldest. Keyed by the
 * operation's node, which is unique to its parsed document.
 */
export class OperationCache<V> {
  private readonly entries = new Map<OperationDefinitionNode, V>();
  constructor(private readonly max: number) {}

  get(key: OperationDefinitionNode): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: OperationDefinitionNode, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value as OperationDefinitionNode);
  }
}
