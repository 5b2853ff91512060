import type { IncomingMessage, ServerResponse } from 'node:http';
import * as fetchAPI from '@whatwg-node/fetch';
import { sendNodeResponse, type ServerAdapterPlugin } from '@whatwg-node/server';
import { getOperationAST, GraphQLError, type ExecutionResult } from 'graphql';
import { processRegularResult } from 'graphql-yoga';
import type { Executor } from '../executor/executor.js';
import { usesIncrementalDelivery } from '../executor/incremental-delivery.js';
import { runDocument } from '../executor/run-document.js';
import { unexpectedErrorResponse } from '../errors/route-errors.js';
import { NodeRequest } from './node-request.js';
import { parsedTarget } from './parsed-target.js';
import { serverPipeline } from './server-plugins.js';
import { correlatedErrors } from './use-correlation-id.js';

export interface PersistedServerOptions {
  executor: Executor;
  /** The GraphQL endpoint's path (only an exact POST to it is taken). */
  graphqlEndpoint: string;
  /** The persisted-operations policy's documents (use-persisted-operations.ts): the one Yoga's plugin reads. */
  documentFor(hash: string): string | undefined;
  /** The HTTP plugins Yoga runs for /graphql too, the same instances, CORS included (as the REST server's). */
  plugins: ServerAdapterPlugin[];
  /** Hears an unexpected error the masking replaced, as Yoga's logger does. */
  onMasked(error: unknown): void;
}

export interface PersistedServer {
  /**
   * The persisted query a request names, when this server answers it; undefined leaves the request to Yoga.
   * Reads the body the node:http layer read (http-server.ts) and nothing else: no side effect.
   */
  take(req: IncomingMessage): PersistedCall | undefined;
  /** Answers a request `take` took, on node's response. */
  node(req: IncomingMessage, res: ServerResponse, call: PersistedCall): Promise<void>;
}

export interface PersistedCall {
  query: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  /** The media type of the answer, as Yoga's negotiation picks it for the request's Accept. */
  mediaType: JsonMediaType;
}

type JsonMediaType = 'application/json' | 'application/graphql-response+json';

/** How many persisted documents keep their preparation (parsed, validated, found runnable here). */
const PREPARED_DOCUMENTS = 1000;

/**
 * Persisted queries straight on node:http (docs/graphql.md, Persisted operations): a client of a deployed
 * application sends the same few operations by hash, over and over, as a REST client polls its route. Yoga's
 * pipeline around each one (the fetch adapter's Request and Response, request parsing, its own envelop with a
 * dozen more plugins) cost a third more than the REST route running the same document. So a persisted query
 * takes the REST routes' path (rest-server.ts): the shared HTTP plugins, the service's one executor with the same
 * execution plugins (authentication, limits, cost, quotas, conditional read, kept rendering, compiled execution:
 * they act on /graphql by the request's path, as under Yoga), and Yoga's own result writer (processRegularResult)
 * for the status, the content type and the body.
 *
 * Only what Yoga would answer the same way is taken, all decided before anything runs (a request not taken
 * goes to Yoga unchanged):
 * - an exact `POST /graphql` with a JSON body (Content-Type application/json, UTF-8) that names a persisted
 *   document by `extensions.persistedQuery` alone: no `query` (a registration is Yoga's), no other extension,
 *   `variables` an object or absent, `operationName` a string or absent;
 * - a document the policy holds (an automatic persisted query stored on this instance, or a trusted document),
 *   which parses and validates within the document limits (its first use here runs both through the executor's
 *   plugins), whose chosen operation is a query, without @defer or @stream (their answers come in parts);
 * - an Accept header that names only JSON answers (application/json, application/graphql-response+json, any
 *   type), which Yoga answers with its regular JSON writer.
 * Yoga's plugins that act on such a request act here too: the CSRF rules pass a JSON POST, the persisted
 * policy's read is `documentFor`, errors get the correlation id (correlatedErrors), the masking is the
 * executor's. test/persisted-over-node-http.test.ts holds the answers to Yoga's, request for request.
 */
export function createPersistedServer(options: PersistedServerOptions): PersistedServer {
  const { executor } = options;
  const prepared = new Map<string, Runnable | null>();

  /**
   * Which operations of a persisted document may run here, by operation name ('' for the only one); null if none.
   * Kept by hash, which names one text only (the policy checks it), so that what is kept stays small whatever the
   * documents' size.
   */
  function runnable(hash: string, query: string): Runnable | null {
    let entry = prepared.get(hash);
    if (entry === undefined) {
      entry = prepare(executor, query);
      prepared.set(hash, entry);
      if (prepared.size > PREPARED_DOCUMENTS) prepared.delete(prepared.keys().next().value as string);
    }
    return entry;
  }

  async function handle(request: Request, call: PersistedCall): Promise<Response> {
    let result: ExecutionResult;
    try {
      result = await runDocument(executor, {
        request,
        query: call.query,
        operationName: call.operationName,
        variables: call.variables as Record<string, unknown>,
      });
    } catch (err) {
      // What Yoga does with an error thrown outside the execution's result: masked (the cause logged), in `errors`.
      result = { errors: [masked(executor, err, options.onMasked)] };
    }
    return processRegularResult(correlatedErrors(result), fetchAPI, call.mediaType) as Response;
  }

  const run = serverPipeline(options.plugins, (request, _url, serverContext) =>
    handle(request, serverContext.persistedCall as PersistedCall),
  );

  return {
    take(req) {
      if (req.method !== 'POST' || req.url !== options.graphqlEndpoint) return undefined;
      const body = (req as IncomingMessage & { body?: Buffer }).body;
      if (!body || !isJsonContent(req.headers['content-type'])) return undefined;
      const mediaType = answerType(req.headers.accept);
      if (!mediaType) return undefined;
      const params = hashOnlyParams(body);
      if (!params) return undefined;
      const query = options.documentFor(params.hash);
      if (query === undefined) return undefined;
      const operations = runnable(params.hash, query);
      if (!operations?.has(params.operationName ?? '')) return undefined;
      return { query, operationName: params.operationName, variables: params.variables, mediaType };
    },
    async node(req, res, call) {
      const base = `http://${req.headers.host || 'localhost'}`;
      const url = parsedTarget(req, base);
      const request = new NodeRequest(
        req,
        res,
        base + (req.url ?? '/'),
        (req as IncomingMessage & { body?: Buffer }).body,
      ) as unknown as Request;
      let response: Response;
      try {
        response = await run(request, url, { req, res, persistedCall: call });
      } catch (err) {
        // A plugin's hook failed: the GraphQL family's 500, as the REST server answers its own.
        options.onMasked(err);
        response = unexpectedErrorResponse('graphql', err, { correlationId: '', method: 'POST', url: request.url });
      }
      await sendNodeResponse(response, res, req, true);
    },
  };
}

/** The operation names a document may run here by ('' stands for leaving the name out). */
type Runnable = ReadonlySet<string>;

/** Parses and validates a persisted document through the executor once; which of its operations may run here. */
function prepare(executor: Executor, query: string): Runnable | null {
  let document;
  try {
    document = executor.prepare(query);
  } catch {
    return null; // Yoga answers the error.
  }
  if (usesIncrementalDelivery(document)) return null;
  const names = new Set<string>();
  const operations = document.definitions.filter((d) => d.kind === 'OperationDefinition');
  for (const operation of operations) {
    if (operation.operation === 'query' && operation.name) names.add(operation.name.value);
  }
  // Without a name, the document's only operation runs (graphql-js's rule).
  if (getOperationAST(document)?.operation === 'query') names.add('');
  return names.size > 0 ? names : null;
}

function masked(executor: Executor, error: unknown, onMasked: (error: unknown) => void): GraphQLError {
  const result = executor.masking.maskError(error, 'Unexpected error.');
  if (result !== error) onMasked(error);
  return result instanceof GraphQLError ? result : new GraphQLError(result.message, { originalError: result });
}

/** `application/json`, with no parameter but `charset=utf-8`. */
function isJsonContent(header: string | undefined): boolean {
  if (!header) return false;
  const [type, ...parameters] = header
    .toLowerCase()
    .split(';')
    .map((part) => part.trim());
  return type === 'application/json' && parameters.every((p) => p === 'charset=utf-8' || p === '');
}

/**
 * The JSON media type Yoga's negotiation (its result processors) picks for an Accept header that names only
 * JSON types or any type: the first one listed, `*\/*` meaning application/json; undefined for any other header
 * (a stream type, a charset other than UTF-8), which Yoga answers.
 */
export function answerType(header: string | undefined): JsonMediaType | undefined {
  if (header === undefined || header.trim() === '') return 'application/json';
  let first: JsonMediaType | undefined;
  for (const entry of header.toLowerCase().split(',')) {
    const [type, ...parameters] = entry.split(';').map((part) => part.trim());
    if (!parameters.every((p) => p === '' || p === 'charset=utf-8' || /^q=[0-9.]+$/.test(p))) return undefined;
    const media: JsonMediaType | undefined =
      type === 'application/json' || type === '*/*'
        ? 'application/json'
        : type === 'application/graphql-response+json'
          ? 'application/graphql-response+json'
          : undefined;
    if (!media) return undefined;
    first ??= media;
  }
  return first;
}

const PERSISTED_QUERY = Buffer.from('"persistedQuery"');

interface HashOnlyParams {
  hash: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
}

/** The body's parameters when it names a persisted document by hash alone and nothing else; else undefined. */
function hashOnlyParams(body: Buffer): HashOnlyParams | undefined {
  // Most documents sent as text never name a persisted query: Yoga parses those, and only those, once.
  if (!body.includes(PERSISTED_QUERY)) return undefined;
  let params: unknown;
  try {
    params = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  if (!isObject(params)) return undefined;
  for (const key of Object.keys(params)) if (key !== 'variables' && key !== 'operationName' && key !== 'extensions') return undefined;
  const { variables, operationName, extensions } = params;
  if (variables !== undefined && variables !== null && !isObject(variables)) return undefined;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return undefined;
  if (!isObject(extensions) || Object.keys(extensions).length !== 1) return undefined;
  const persisted = extensions.persistedQuery;
  if (!isObject(persisted) || persisted.version !== 1 || typeof persisted.sha256Hash !== 'string') return undefined;
  return { hash: persisted.sha256Hash, operationName: operationName ?? undefined, variables: variables ?? undefined };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
