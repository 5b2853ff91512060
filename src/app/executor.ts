import { randomUUID } from 'node:crypto';
import type { Plugin } from '@envelop/core';
import type { Principal } from '../auth/principal.js';
import type { InternalContext } from '../executor/context.js';
import { createExecutor, type Executor } from '../executor/executor.js';
import { checkOwnDocuments } from '../executor/own-documents.js';
import { useAuthentication } from '../executor/use-authentication.js';
import { useCompiledExecution } from '../executor/use-compiled-execution.js';
import { useConditionalGet } from '../executor/use-conditional-get.js';
import { useGraphQLLimits } from '../executor/use-graphql-limits.js';
import { useGraphQLQuotas } from '../executor/use-graphql-quotas.js';
import { useKeptRendering } from '../executor/use-kept-rendering.js';
import { useIntrospectionPolicy } from '../executor/use-introspection-policy.js';
import { useOperationCost } from '../executor/use-operation-cost.js';
import { useOperationMetrics } from '../executor/use-operation-metrics.js';
import type { AppContext } from '../graphql/context.js';
import { schema } from '../graphql/schema/index.js';
import type { Logger } from '../observability/logger.js';
import { maskServiceError } from '../errors/mask-error.js';
import { currentRequest } from '../observability/request-context.js';
import type { ServiceSet } from './services.js';

export const GRAPHQL_ENDPOINT = '/graphql';

/**
 * The service's one executor (docs/architecture.md, Executor): the schema, the context every execution gets,
 * and the execution plugins in the order they must run. The HTTP app (create-app.ts) hands the same plugin
 * instances to Yoga; the workers (workers.ts) use it alone. Stops start-up with a ConfigError when a document
 * limit is too low for the service's own documents.
 */
export function createAppExecutor(set: ServiceSet, options: { logger: Logger; plugins?: Plugin<any>[] }): Executor {
  const { services, rateLimits } = set;
  const { config } = services;
  const executor = createExecutor({
    schema,
    maskError: maskServiceError,
    onMasked: (error) => options.logger.yogaLogger.error(error),
    context: (initial): AppContext => {
      const given = initial as InternalContext;
      // Push delivery's owner, or the caller once known without waiting (principalNow).
      let known: Principal | undefined = given.asPrincipal;
      let principal: Promise<Principal> | undefined;
      const request = initial.request as Request;
      return {
        services,
        correlationId: given.correlationId ?? currentRequest()?.correlationId ?? randomUUID(),
        principal: () => (principal ??= known ? Promise.resolve(known) : services.authenticate(request).then(identify)),
        principalNow: () => {
          if (known) return known;
          const now = services.principalNow(request);
          return now && (known = identify(now));
        },
        // Only the token grant reads the address (its failed-authentication limits): resolved when read.
        grant: given.grant ?? {
          get remoteAddress() {
            return rateLimits.addressOf(request, initial);
          },
        },
        ...(given.transmission ? { transmission: given.transmission } : {}),
        ...(given.conditional ? { conditional: given.conditional } : {}),
        ...(given.rendered ? { rendered: given.rendered } : {}),
      };
    },
    plugins: [
      // First, so that operations the plugins below refuse are counted too.
      ...(config.metrics.enabled ? [useOperationMetrics()] : []),
      ...useGraphQLLimits(config.graphql.limits),
      // Before the refusals below, so that a 401 or 429 answer carries the cost too.
      useOperationCost({ limits: config.graphql.limits, quotas: rateLimits.quotas, graphqlEndpoint: GRAPHQL_ENDPOINT }),
      useIntrospectionPolicy({ policy: config.graphql.introspection, authenticate: services.authenticate }),
      useAuthentication(),
      ...(rateLimits.quotas ? [useGraphQLQuotas(rateLimits.quotas, GRAPHQL_ENDPOINT)] : []),
      useConditionalGet(),
      // After the conditional read (a 304 has no body), before execution: /graphql answers keep their rendering.
      useKeptRendering({ graphqlEndpoint: GRAPHQL_ENDPOINT }),
      useCompiledExecution(options.logger, { maxOperations: config.graphql.compiledCacheSize }),
      ...(options.plugins ?? []),
    ] as Plugin<any>[],
  });
  checkOwnDocuments(executor);
  return executor;
}

/** Names the verified client in the request's access-log line. */
function identify(principal: Principal): Principal {
  const info = currentRequest();
  if (info) info.clientId = principal.clientId;
  return principal;
}
