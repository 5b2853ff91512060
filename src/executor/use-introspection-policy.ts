import { GraphQLError, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { IntrospectionPolicy } from '../config/config.js';
import { rootFields } from './root-fields.js';
import type { Principal } from '../auth/principal.js';
import type { ExecutorContext } from './context.js';

export interface IntrospectionPolicyOptions {
  /** Resolved TT_GRAPHQL_INTROSPECTION. */
  policy: IntrospectionPolicy;
  /** Verifies the request's bearer token (AppServices.authenticate); rejects when there is none or it is not valid. */
  authenticate(request: Request): Promise<Principal>;
}

/**
 * Who may read the schema (TT_GRAPHQL_INTROSPECTION): introspection
 * (`__schema`, `__type`) and the "Did you mean …?" suggestions of GraphQL
 * errors, which spell out field, argument and enum names to anyone probing.
 * `public` changes nothing; `token` asks for a valid access token (any
 * scope); `off` refuses introspection and hides suggestions for everyone.
 *
 * Authentication is lazy (context.principal()): only an operation that
 * introspects, or an answer that carries a suggestion, verifies the token.
 *
 * @NOTE not Armor's block-field-suggestions plugin: it rewrites validation
 * errors in place, which Yoga caches per document for every later request
 * (token or not), and it misses "Did you mean the enum value …?".
 */
export function useIntrospectionPolicy({ policy, authenticate }: IntrospectionPolicyOptions): Plugin<ExecutorContext> {
  if (policy === 'public') return {};
  // One verification per request, shared by the execution check and the answer.
  const verified = new WeakMap<Request, Promise<boolean>>();
  const hasValidToken = (request: Request): Promise<boolean> => {
    let result = verified.get(request);
    if (!result) {
      result = authenticate(request).then(
        () => true,
        () => false,
      );
      verified.set(request, result);
    }
    return result;
  };
  return {
    // Before compiled execution: a refused operation is never compiled. Synchronous unless the operation
    // introspects: every other operation (a poll among them) goes on at once.
    onExecute({ args, setResultAndStopExecution }) {
      if (!introspects(args.document, args.operationName ?? undefined)) return undefined;
      if (policy === 'off') {
        setResultAndStopExecution({ errors: [introspectionOff()] });
        return undefined;
      }
      // The context's own principal, so the access log names the client.
      return (args.contextValue as ExecutorContext).principal().then(
        () => undefined,
        (err: unknown) => setResultAndStopExecution({ errors: [introspectionNeedsToken(err)] }),
      );
    },
    async onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || !('errors' in result) || !result.errors?.some((e) => hasSuggestion(e.message))) return;
      if (policy === 'token' && (await hasValidToken(request))) return;
      setResult(withoutSuggestions(result as ExecutionResult));
    },
  };
}

/** Whether the operation that runs selects `__schema` or `__type` (they exist only on the query root). */
export function introspects(document: DocumentNode, operationName: string | undefined): boolean {
  // Asked of every operation, and documents are cached (use-document-cache.ts): answered once per document and name.
  let byName = introspecting.get(document);
  if (!byName) introspecting.set(document, (byName = new Map()));
  let answer = byName.get(operationName);
  if (answer === undefined) {
    answer = rootFields(document, operationName).some((field) => field.name.value === '__schema' || field.name.value === '__type');
    byName.set(operationName, answer);
  }
  return answer;
}

const introspecting = new WeakMap<DocumentNode, Map<string | undefined, boolean>>();

// graphql-js appends its suggestions at the end of a message:
// ' Did you mean "a", "b", or "c"?', ' Did you mean the enum value "X"?'.
const SUGGESTION = /\s*Did you mean .*\?$/s;

export function hasSuggestion(message: string): boolean {
  return SUGGESTION.test(message);
}

/** The message without its suggestion. */
export function withoutSuggestion(message: string): string {
  return message.replace(SUGGESTION, '');
}

/** Copies, never mutates: Yoga caches validation errors per document. */
function withoutSuggestions(result: ExecutionResult): ExecutionResult {
  return {
    ...result,
    errors: result.errors?.map((error) =>
      hasSuggestion(error.message)
        ? new GraphQLError(withoutSuggestion(error.message), {
            nodes: error.nodes,
            source: error.source,
            positions: error.positions,
            path: error.path,
            originalError: error.originalError,
            extensions: error.extensions,
          })
        : error,
    ),
  };
}

function introspectionOff(): GraphQLError {
  return new GraphQLError('GraphQL introspection is disabled on this service.', {
    extensions: { code: 'INTROSPECTION_DISABLED', http: { status: 400 } },
  });
}

/** The authentication error (401, WWW-Authenticate), saying why a token is asked for. */
function introspectionNeedsToken(err: unknown): GraphQLError {
  if (!(err instanceof GraphQLError)) {
    return new GraphQLError('Unexpected error.', { originalError: err instanceof Error ? err : new Error(String(err)) });
  }
  return new GraphQLError(`GraphQL introspection requires a valid access token: ${err.message}`, {
    originalError: err.originalError ?? undefined,
    extensions: err.extensions,
  });
}
