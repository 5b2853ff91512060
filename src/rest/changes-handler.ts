import { GraphQLError } from 'graphql';
import { requireScope } from '../auth/request-auth.js';
import { READ_SCOPE } from '../auth/scopes.js';
import { DCSA } from '../errors/errors.js';
import { DcsaResponder } from '../errors/dcsa-responses.js';
import { jsonResponse } from '../http-messages/json-response.js';
import { omitAbsent } from '../http-messages/rest-body.js';
import { runDocument } from '../executor/run-document.js';
import { FEED_DOCUMENTS } from '../executor/feed-documents.js';
import type { AppServices } from '../graphql/context.js';
import type { Executor } from '../executor/executor.js';

const PARAMETERS = ['after', 'limit', 'include'] as const;
const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * GET /v2/changes (docs/account-feed.md): the account's change feed. Query parameters become variables of
 * the fixed feed documents (src/executor/feed-documents.ts) run through the executor, so authentication,
 * validation, quotas and errors are the lookup's. `include=snapshot` picks the document with snapshots.
 */
export async function handleChanges(
  request: Request,
  url: URL,
  executor: Executor,
  services: AppServices,
  correlationId: string,
): Promise<Response> {
  const respond = new DcsaResponder(request, services, correlationId);
  if (request.method !== 'GET') {
    return respond.fail(405, [{ ...DCSA.invalidQuery, errorCodeMessage: 'Use GET for /v2/changes.' }], { Allow: 'GET' });
  }
  const problem = checkParameters(url.searchParams);
  if (problem) {
    // Authentication comes first: the 401/403 the document would give, before any 400.
    const denied = await authenticationError(request, services);
    return denied ? respond.resultError(denied) : respond.invalid(problem.message, problem.property);
  }
  const limit = url.searchParams.get('limit');
  const document = url.searchParams.get('include') === 'snapshot' ? FEED_DOCUMENTS.changesWithSnapshots : FEED_DOCUMENTS.changes;
  const result = await runDocument<{ accountChanges: { changes: object[]; next: string; hasMore: boolean } }>(executor, {
    request,
    ...document,
    variables: { after: url.searchParams.get('after'), limit: limit === null ? null : Number(limit) },
    context: { correlationId },
  });
  const error = result.errors?.[0];
  if (error) return respond.resultError(error);
  const page = result.data?.accountChanges;
  return jsonResponse(omitAbsent(page), 200, NO_STORE);
}

function checkParameters(params: URLSearchParams): { message: string; property: string } | null {
  const seen = new Set<string>();
  for (const [name, value] of params) {
    const property = name.slice(0, 100);
    if (!(PARAMETERS as readonly string[]).includes(name)) {
      return { property, message: `Unknown query parameter ${property}; allowed: ${PARAMETERS.join(', ')}.` };
    }
    if (seen.has(name)) return { property, message: `Query parameter ${name} is given more than once.` };
    seen.add(name);
    if (name === 'limit' && !/^[1-9][0-9]{0,3}$/.test(value)) return { property, message: 'limit must be an integer from 1 to 1000' };
    if (name === 'include' && value !== 'snapshot') return { property, message: 'include may only be snapshot' };
  }
  return null;
}

/** Why the request may not read the feed at all (401 or 403), or undefined when it may. */
async function authenticationError(request: Request, services: AppServices): Promise<GraphQLError | undefined> {
  try {
    requireScope(await services.authenticate(request), READ_SCOPE);
    return undefined;
  } catch (err) {
    return err instanceof GraphQLError ? err : new GraphQLError('Unexpected error.', { originalError: err as Error });
  }
}
