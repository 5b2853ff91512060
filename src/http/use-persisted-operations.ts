import { usePersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { documentHash } from './trusted-documents.js';

/** Bytes of document text the automatic persisted queries keep per instance; least recently used out first. */
export const APQ_STORE_BYTES = 16 * 1024 * 1024;
/** How long a stored document is kept after it was last stored or used. */
export const APQ_TTL_MS = 24 * 60 * 60 * 1000;

/** The code of a request refused in trusted-documents mode. */
export const TRUSTED_DOCUMENTS_ONLY = 'TRUSTED_DOCUMENTS_ONLY';

/**
 * Persisted operations on /graphql (docs/graphql.md, Persisted operations), with
 * `@graphql-yoga/plugin-persisted-operations`. Only Yoga's pipeline has these hooks (onParams): the REST routes
 * and push run their fixed documents in-process (src/executor/run-document.ts) and are never affected.
 *
 * - `trusted` unset: automatic persisted queries in the Apollo format for every client, and any document runs. A
 *   hash alone that this instance does not hold answers PersistedQueryNotFound (404), and the client sends the hash
 *   with the document, which is checked against the hash and stored. The store is this process's memory, bounded
 *   by bytes: behind a load balancer a miss on another instance costs the client one resend, never an error, so
 *   nothing needs to be shared.
 * - `trusted` set (TT_GRAPHQL_TRUSTED_DOCUMENTS): only the manifest's documents run, by hash. A document sent as
 *   text runs only when its hash is in the manifest (GraphiQL's default document, an Apollo client's resend).
 *   Anything else is a 400 naming the rule.
 */
export function usePersistedOperationsPolicy(trusted: ReadonlyMap<string, string> | undefined): PersistedOperations {
  return trusted ? trustedDocumentsOnly(trusted) : automaticPersistedQueries();
}

/** The policy's Yoga plugins, and its documents for the prepared path (persisted-server.ts). */
export interface PersistedOperations {
  plugins: Plugin[];
  /**
   * The document a hash sent alone runs under this policy, or undefined when it answers otherwise (unknown: not
   * found, or refused). Reading it counts as a use, as Yoga's plugin's own read does (the store keeps what is used).
   */
  documentFor(hash: string): string | undefined;
}

interface PersistedQuery {
  version: 1;
  sha256Hash: string;
}

/** `extensions.persistedQuery` of a request in the Apollo format, or undefined. */
function persistedQueryOf(extensions: Record<string, unknown> | undefined): PersistedQuery | undefined {
  const value = extensions?.persistedQuery as Partial<PersistedQuery> | undefined;
  return value?.version === 1 && typeof value.sha256Hash === 'string' ? (value as PersistedQuery) : undefined;
}

function automaticPersistedQueries(): PersistedOperations {
  // Yoga's own LRU helper bounds by count; documents differ in size by orders of magnitude, so bound bytes.
  const store = new LRUCache<string, string>({
    maxSize: APQ_STORE_BYTES,
    maxEntrySize: APQ_STORE_BYTES / 16,
    sizeCalculation: (query) => Math.max(1, query.length * 2),
    ttl: APQ_TTL_MS,
    updateAgeOnGet: true,
  });
  const plugins: Plugin[] = [
    {
      // Registration (hash and document together), which the library leaves to the application: a document is
      // kept only under its own hash, so no one can make a hash run another document.
      onParams({ params }) {
        const persisted = persistedQueryOf(params.extensions);
        if (!persisted || typeof params.query !== 'string') return;
        if (documentHash(params.query) !== persisted.sha256Hash) {
          throw new GraphQLError('PersistedQueryMismatch: extensions.persistedQuery.sha256Hash is not the SHA-256 hash of the query.', {
            extensions: { code: 'PERSISTED_QUERY_MISMATCH', http: { status: 400 } },
          });
        }
        store.set(persisted.sha256Hash, params.query);
      },
    },
    usePersistedOperations({
      getPersistedOperation: (hash) => store.get(hash) ?? null,
      allowArbitraryOperations: true,
      customErrors: {
        // Apollo Client's persisted-queries link resends with the document on exactly this message.
        notFound: { message: 'PersistedQueryNotFound', extensions: { code: 'PERSISTED_QUERY_NOT_FOUND', http: { status: 404 } } },
        // Neither a document nor a hash: Yoga's own answer to a request without a query.
        keyNotFound: { message: 'Must provide query string.', extensions: { http: { status: 400 } } },
      },
    }),
  ];
  return { plugins, documentFor: (hash) => store.get(hash) };
}

function trustedDocumentsOnly(trusted: ReadonlyMap<string, string>): PersistedOperations {
  const refusal = (what: string) => () =>
    new GraphQLError(
      `${what}: this server runs only trusted documents (TT_GRAPHQL_TRUSTED_DOCUMENTS), sent by the SHA-256 hash of their text in extensions.persistedQuery.sha256Hash.`,
      { extensions: { code: TRUSTED_DOCUMENTS_ONLY, http: { status: 400 } } },
    );
  const plugins: Plugin[] = [
    {
      // A document sent as text that the manifest holds is the same operation as its hash: run it by hash.
      onParams({ params, setParams }) {
        if (typeof params.query !== 'string') return;
        const hash = documentHash(params.query);
        if (!trusted.has(hash)) return;
        const { query: _query, ...rest } = params;
        setParams({ ...rest, extensions: { ...params.extensions, persistedQuery: { version: 1, sha256Hash: hash } } });
      },
    },
    usePersistedOperations({
      getPersistedOperation: (hash) => trusted.get(hash) ?? null,
      allowArbitraryOperations: false,
      customErrors: {
        persistedQueryOnly: refusal('A document outside the trusted documents'),
        notFound: refusal('PersistedQueryNotFound'),
        keyNotFound: refusal('No persisted query hash'),
      },
    }),
  ];
  return { plugins, documentFor: (hash) => trusted.get(hash) };
}
