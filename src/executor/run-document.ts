import type { ExecutionResult } from 'graphql';
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
    operationName: string;
    variables: Record<string, unknown>;
    context?: InternalContext;
  },
): Promise<ExecutionResult<T>> {
  const initial = { request: input.request, ...input.context };
  const enveloped = executor.getEnveloped(initial);
  const document = prepareIn(enveloped, input.query);
  const contextValue = await enveloped.contextFactory({ ...initial, params: { query: input.query, variables: input.variables } });
  return (await enveloped.execute({
    schema: enveloped.schema,
    document,
    operationName: input.operationName,
    variableValues: input.variables,
    contextValue,
  })) as ExecutionResult<T>;
}
