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

type IntVar = (name: string, fallback: number, min: number, max: number) => number;

export function resilienceConfig(intVar: IntVar): ResilienceConfig {
  return {
    db: {
      connectMs: intVar('TT_DB_CONNECT_TIMEOUT_MS', 3000, 100, 120_000),
      acquireMs: intVar('TT_DB_ACQUIRE_TIMEOUT_MS', 3000, 50, 120_000),
      statementMs: intVar('TT_DB_STATEMENT_TIMEOUT_MS', 5000, 0, 3_600_000),
      sqliteBusyMs: intVar('TT_SQLITE_BUSY_TIMEOUT_MS', 2000, 0, 60_000),
    },
    http: {
      headersTimeoutMs: intVar('TT_HTTP_HEADERS_TIMEOUT_MS', 10_000, 1000, 300_000),
      requestTimeoutMs: intVar('TT_HTTP_REQUEST_TIMEOUT_MS', 30_000, 1000, 3_600_000),
      maxBodyBytes: intVar('TT_HTTP_MAX_BODY_BYTES', 1024 * 1024, 1024, 1024 * 1024 * 1024),
      keepAliveTimeoutMs: intVar('TT_HTTP_KEEP_ALIVE_TIMEOUT_MS', 65_000, 1000, 600_000),
    },
    shutdownGraceSeconds: intVar('TT_SHUTDOWN_GRACE_SECONDS', 10, 1, 600),
  };
}

/** How long the service waits for the database before answering 503 (README "Limits and timeouts"). */
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
