import type { DocumentNode, ExecutionResult } from 'graphql';
import type { InternalContext } from './context.js';
import { prepareIn, type Executor } from './executor.js';

/**
 * Runs one of the service's fixed GraphQL documents through the executor's
 * envelop (parse, validate, contextFactory, execute: the approach of Yoga's
 * Sofa plugin), so REST routes and push delivery take the code path of
 * /graphql: the same authentication, validation, limits and plugins. After a
 * document's first run, parsing and validating it are cache lookups.
 */
export async function runDocument<T>(
  executor: Executor,
  input: {
    request: Request;
    query: string;
    /** Which operation of the document runs; may be left out when it has one. */
    operationName?: string;
    variables: Record<string, unknown>;
    context?: InternalContext;
  },
): Promise<ExecutionResult<T>> {
  const initial = { request: input.request, ...input.context };
  const enveloped = executor.getEnveloped(initial);
  const document = prepareIn(enveloped, input.query, validatedIn(executor));
  // Built at once by the executor's plugins (no promise to wait for unless one of them needs it).
  const built = enveloped.contextFactory({ ...initial, params: { query: input.query, variables: input.variables } });
  const contextValue = built instanceof Promise ? await built : built;
  return (await enveloped.execute({
    schema: enveloped.schema,
    document,
    operationName: input.operationName,
    variableValues: input.variables,
    contextValue,
  })) as ExecutionResult<T>;
}

/**
 * The fixed document, parsed through the plugins on every run (the operation metrics take its name there), and
 * validated through them on its first run only. A fixed document is valid once and for all against the one
 * schema, and the executor's document cache answers the same DocumentNode for the same text, so running the
 * validation hooks again for it would only find the cached answer (use-document-cache.ts) while each plugin
 * adds its rules and closures: a few percent of a conditional poll (304). A document the cache let go is
 * parsed into a new node, and that one is validated again.
 */
function validatedIn(executor: Executor): WeakSet<DocumentNode> {
  let valid = validDocuments.get(executor);
  if (!valid) validDocuments.set(executor, (valid = new WeakSet()));
  return valid;
}

const validDocuments = new WeakMap<Executor, WeakSet<DocumentNode>>();
