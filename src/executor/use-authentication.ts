import { GraphQLError, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { requireScope } from '../auth/request-auth.js';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { serviceUnavailableError } from '../errors/errors.js';
import type { Principal } from '../auth/principal.js';
import type { ExecutorContext } from './context.js';
import { operationPolicy } from './field-policy.js';
import { stopOnRefusal, type Refusal } from './stop-on-refusal.js';

/**
 * Authentication and scopes before anything else of an operation that
 * touches shipments or subscriptions: a request without a valid token gets
 * 401, one without the field's scope 403, even when its arguments are also
 * invalid, on /graphql and on REST alike (REST runs through the same envelop).
 * Which scope each root field needs is its declared policy (field-policy.ts).
 * A request that carries a bearer token has it verified even when it asks only
 * public fields (`{ __typename }`, issueToken): an invalid token is a 401.
 */
const BEARER_SCHEME = /^\s*bearer(\s|$)/i;

export function useAuthentication(): Plugin<ExecutorContext> {
  /**
   * The refusal of an operation, or undefined when it may run: at once when the caller is known without waiting
   * (context.principalNow: a poll's usual case), else a promise of it.
   */
  function refusal(args: { schema: GraphQLSchema; document: DocumentNode; operationName?: string | null; contextValue: unknown }): Refusal {
    const { scopes, undeclared } = operationPolicy(args.schema, args.document, args.operationName);
    const context = args.contextValue as ExecutorContext;
    if (undeclared.length > 0) {
      // Fail closed: a root field that declares no policy is never served (test/field-policy.test.ts).
      context.services.log('error', 'root field without a policy refused', { correlationId: context.correlationId, fields: undeclared });
      return new GraphQLError('Unexpected error.', {
        extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true, http: { status: 500 } },
      });
    }
    // RFC 6750 section 3.1: a request that presents a bearer token gets 401 invalid_token when the token is not
    // valid, whatever it asks for; only a request without one may run public fields.
    const presented = BEARER_SCHEME.test(context.request.headers.get('authorization') ?? '');
    if (scopes.size === 0 && !presented) return undefined;
    const scoped = (principal: Principal): undefined => {
      for (const scope of scopes) requireScope(principal, scope);
      return undefined;
    };
    const known = context.principalNow();
    if (!known)
      return context
        .principal()
        .then(scoped)
        .catch((err: unknown) => failure(context, err));
    try {
      return scoped(known);
    } catch (err) {
      return failure(context, err);
    }
  }
  return {
    onExecute({ args, setResultAndStopExecution }) {
      return stopOnRefusal(refusal(args), setResultAndStopExecution);
    },
  };
}

/**
 * An unexpected failure (the database, say) ends the operation like a resolver's would: as an error of the
 * result, which REST answers with its own body and the correlation id, instead of an exception escaping the
 * route. The result is set before the executor's masking runs, so it is masked here the same way
 * (src/errors/mask-error.ts): a database outage is 503, anything else a 500 whose cause is logged.
 */
function failure(context: ExecutorContext, err: unknown): GraphQLError {
  if (err instanceof GraphQLError && !err.originalError) return err;
  if (isDatabaseUnavailable(err)) {
    context.services.log('error', 'database unavailable', {
      correlationId: context.correlationId,
      error: err instanceof Error ? err.message : String(err),
    });
    return serviceUnavailableError(RETRY_AFTER_SECONDS);
  }
  context.services.log('error', 'authentication failed unexpectedly', {
    correlationId: context.correlationId,
    error: err instanceof Error ? err.stack : String(err),
  });
  return new GraphQLError('Unexpected error.', {
    extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true, http: { status: 500 } },
  });
}
