/**
 * Limits and timeouts of the HTTP edge and the database (README "Limits and
 * timeouts"), read from the environment with config.ts's validation.
 */
export interface ResilienceConfig {
  db: DatabaseTimeouts;
  http: HttpLimits;
  /** `TT_SHUTDOWN_GRACE_SECONDS`: on SIGTERM/SIGINT, in-flight requests get this long before the process exits. Default 10. */
  shutdownGraceSeconds: number;
}

export interface HttpLimits {
  /** `TT_HTTP_HEADERS_TIMEOUT_MS`: the request line and headers must arrive within this. Default 10000. */
  headersTimeoutMs: number;
  /** `TT_HTTP_REQUEST_TIMEOUT_MS`: the whole request, body included, must arrive within this (408 otherwise). Default 30000. */
  requestTimeoutMs: number;
  /** `TT_HTTP_MAX_BODY_BYTES`: request body limit of routes without a smaller one of their own. Default 1 MiB. */
  maxBodyBytes: number;
  /** `TT_HTTP_KEEP_ALIVE_TIMEOUT_MS`: idle keep-alive connections close after this; longer than usual load balancer idle timeouts. Default 65000. */
  keepAliveTimeoutMs: number;
}

/** Reads an integer variable with its declared default and bounds (src/config/variables.ts). */
type IntVar = (name: string) => number;

export function resilienceConfig(intVar: IntVar): ResilienceConfig {
  return {
    db: {
      connectMs: intVar('TT_DB_CONNECT_TIMEOUT_MS'),
      acquireMs: intVar('TT_DB_ACQUIRE_TIMEOUT_MS'),
      statementMs: intVar('TT_DB_STATEMENT_TIMEOUT_MS'),
      sqliteBusyMs: intVar('TT_SQLITE_BUSY_TIMEOUT_MS'),
    },
    http: {
      headersTimeoutMs: intVar('TT_HTTP_HEADERS_TIMEOUT_MS'),
      requestTimeoutMs: intVar('TT_HTTP_REQUEST_TIMEOUT_MS'),
      maxBodyBytes: intVar('TT_HTTP_MAX_BODY_BYTES'),
      keepAliveTimeoutMs: intVar('TT_HTTP_KEEP_ALIVE_TIMEOUT_MS'),
    },
    shutdownGraceSeconds: intVar('TT_SHUTDOWN_GRACE_SECONDS'),
  };
}

/** How long the service waits for the database before answering 503 (docs/operating.md "Limits and timeouts"). */
export interface DatabaseTimeouts {
  /** TCP connect and handshake of a new MySQL connection, ms. */
  connectMs: number;
  /** Waiting for a free pool connection (a new one included), ms. */
  acquireMs: number;
  /**
   * One statement, ms: enforced by the server (MariaDB max_statement_time,
   * MySQL max_execution_time for SELECTs) and by a client-side deadline
   * slightly later, for a server that does not answer at all. 0: none.
   */
  statementMs: number;
  /** SQLite busy_timeout: how long a writer waits for the file's write lock, ms. */
  sqliteBusyMs: number;
}
