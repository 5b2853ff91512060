import { GraphQLError, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { requireScope } from '../auth/request-auth.js';
import { READ_SCOPE, SUBSCRIBE_SCOPE } from '../auth/scopes.js';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.js';
import { serviceUnavailableError } from '../service/errors.js';
import { rootFields } from '../service/root-fields.js';
import type { ExecutorContext } from './context.js';

/** Root fields (of any operation type) that need a bearer token, and the scope each needs. */
const PROTECTED_FIELDS = new Map<string, string>([
  ['shipment', READ_SCOPE],
  ['webhookSubscriptions', SUBSCRIBE_SCOPE],
  ['webhookSubscription', SUBSCRIBE_SCOPE],
  ['webhookDeliveries', SUBSCRIBE_SCOPE],
  ['createWebhookSubscription', SUBSCRIBE_SCOPE],
  ['deleteWebhookSubscription', SUBSCRIBE_SCOPE],
  ['rotateWebhookSubscriptionSecret', SUBSCRIBE_SCOPE],
  ['shipmentUpdates', READ_SCOPE],
]);

/**
 * Authentication and scopes before anything else of an operation that
 * touches shipments or subscriptions: a request without a valid token gets
 * 401, one without the field's scope 403, even when its arguments are also
 * invalid, on /graphql and on REST alike (REST runs through the same envelop).
 */
export function useAuthentication(): Plugin<ExecutorContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const scopes = protectedScopes(args.document, args.operationName ?? undefined);
      if (scopes.size === 0) return;
      const context = args.contextValue as ExecutorContext;
      try {
        const principal = await context.principal();
        for (const scope of scopes) requireScope(principal, scope);
      } catch (err) {
        // An unexpected failure (the database, say) ends the operation like a
        // resolver's would: as an error of the result, which REST answers with
        // its own body and the correlation id, instead of an exception
        // escaping the route. The result is set before Yoga's masking runs,
        // so it is masked here the same way (src/app/mask-error.ts): a
        // database outage is 503, anything else a 500 whose cause is logged.
        let error: GraphQLError;
        if (err instanceof GraphQLError && !err.originalError) error = err;
        else if (isDatabaseUnavailable(err)) {
          context.services.log('error', 'database unavailable', {
            correlationId: context.correlationId,
            error: err instanceof Error ? err.message : String(err),
          });
          error = serviceUnavailableError(RETRY_AFTER_SECONDS);
        } else {
          context.services.log('error', 'authentication failed unexpectedly', {
            correlationId: context.correlationId,
            error: err instanceof Error ? err.stack : String(err),
          });
          error = new GraphQLError('Unexpected error.', {
            extensions: { code: 'INTERNAL_SERVER_ERROR', unexpected: true, http: { status: 500 } },
          });
        }
        setResultAndStopExecution({ errors: [error] });
      }
    },
  };
}

/** The scopes the operation's protected root fields need (empty: nothing protected). */
function protectedScopes(document: DocumentNode, operationName: string | undefined): Set<string> {
  return new Set(rootFields(document, operationName).flatMap((field) => PROTECTED_FIELDS.get(field.name.value) ?? []));
}
