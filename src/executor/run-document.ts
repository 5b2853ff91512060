import type { ExecutionResult } from 'graphql';
import type { YogaServerInstance } from 'graphql-yoga';
import type { InternalContext } from './context.js';

type Yoga = YogaServerInstance<Record<string, unknown>, Record<string, unknown>>;

/**
 * Runs one of the service's fixed GraphQL documents through Yoga's envelop
 * (parse, validate, contextFactory, execute: the approach of Yoga's Sofa
 * plugin), so REST routes and push delivery take the code path of /graphql:
 * the same authentication, validation, limits and plugins. Yoga's parser and
 * validation caches make parse and validate lookups after the first call.
 */
export async function runDocument<T>(
  yoga: Yoga,
  input: {
    request: Request;
    query: string;
    operationName: string;
    variables: Record<string, unknown>;
    context?: InternalContext;
  },
): Promise<ExecutionResult<T>> {
  const initial = { request: input.request, ...input.context };
  const enveloped = yoga.getEnveloped(initial);
  const document = enveloped.parse(input.query);
  const validationErrors = enveloped.validate(enveloped.schema, document);
  if (validationErrors.length > 0) throw new Error(`fixed document ${input.operationName} is invalid: ${validationErrors[0]?.message}`);
  const contextValue = await enveloped.contextFactory({ ...initial, params: { query: input.query, variables: input.variables } });
  return (await enveloped.execute({
    schema: enveloped.schema,
    document,
    operationName: input.operationName,
    variableValues: input.variables,
    contextValue,
  })) as ExecutionResult<T>;
}
