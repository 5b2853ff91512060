import { loadConfig } from '../src/config/config.js';
import { describe, expect, it } from 'vitest';
import { bodyLimitFor } from '../src/rest/route-table.js';
import { targetProblem } from '../src/http/http-server.js';
import {
  backoffMs,
  DEFAULT_TRANSACTION_RETRY,
  INGEST_TRANSACTION_RETRY,
  isRetryableWriteError,
  retryTransaction,
} from '../src/db/retry-transaction.js';
import { ACQUIRE_TIMEOUT_CODE, isDatabaseUnavailable, isTransientConflict } from '../src/db/unavailable.js';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphQLError } from 'graphql';
import { sql } from 'kysely';
import { connectDatabase } from '../src/db/connect.js';

const driverError = (fields: Record<string, unknown>) => Object.assign(new Error(String(fields.message ?? 'x')), fields);

describe('database error classification (src/db/unavailable.ts)', () => {
  it.each([
    ['refused', { code: 'ECONNREFUSED' }],
    ['reset', { code: 'ECONNRESET' }],
    ['connect timeout', { code: 'ETIMEDOUT' }],
    ['connection lost', { code: 'PROTOCOL_CONNECTION_LOST' }],
    ['client statement deadline', { code: 'PROTOCOL_SEQUENCE_TIMEOUT' }],
    ['pool acquire deadline', { code: ACQUIRE_TIMEOUT_CODE }],
    ['too many connections', { code: 'ER_CON_COUNT_ERROR', errno: 1040 }],
    ['MariaDB max_statement_time', { code: 'ER_STATEMENT_TIMEOUT', errno: 1969 }],
    ['MySQL max_execution_time', { code: 'ER_QUERY_TIMEOUT', errno: 3024 }],
    ['a Galera node not ready (joining, non-primary)', { code: 'ER_UNKNOWN_COM_ERROR', errno: 1047 }],
    ['a deadlock or certification conflict its retries did not end', { code: 'ER_LOCK_DEADLOCK', errno: 1213 }],
    ['a killed connection', { code: 'ER_CONNECTION_KILLED', errno: 1927 }],
    ['SQLite busy', { code: 'SQLITE_BUSY' }],
    ['SQLite busy snapshot', { code: 'SQLITE_BUSY_SNAPSHOT' }],
    ['closed mysql2 connection', { message: "Can't add new command when connection is in closed state" }],
    ['destroyed Kysely', { message: 'driver has already been destroyed' }],
  ])('%s is unavailable', (_, fields) => {
    expect(isDatabaseUnavailable(driverError(fields))).toBe(true);
  });

  it('looks through GraphQL originalError and cause', () => {
    const cause = driverError({ code: 'ECONNREFUSED' });
    expect(isDatabaseUnavailable(new GraphQLError('wrapped', { originalError: cause }))).toBe(true);
    expect(isDatabaseUnavailable(new Error('outer', { cause }))).toBe(true);
  });

  it.each([
    ['a syntax error', { code: 'ER_PARSE_ERROR', errno: 1064 }],
    ['a unique violation', { code: 'ER_DUP_ENTRY', errno: 1062 }],
    ['no such table', { code: 'SQLITE_ERROR' }],
    ['a plain error', {}],
    ['an errno without a server code', { errno: 1040 }],
  ])('%s is not', (_, fields) => {
    expect(isDatabaseUnavailable(driverError(fields))).toBe(false);
  });

  it('deadlocks, lock waits and a busy SQLite file are transient conflicts; a dead server is not', () => {
    expect(isTransientConflict(driverError({ code: 'ER_LOCK_DEADLOCK', errno: 1213 }))).toBe(true);
    expect(isTransientConflict(driverError({ code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 }))).toBe(true);
    expect(isTransientConflict(driverError({ code: 'SQLITE_BUSY' }))).toBe(true);
    expect(isTransientConflict(driverError({ code: 'ECONNREFUSED' }))).toBe(false);
    expect(isRetryableWriteError(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }), INGEST_TRANSACTION_RETRY)).toBe(true);
    // Only ingest looks again for what the other writer inserted: elsewhere a duplicate is the caller's answer.
    expect(isRetryableWriteError(driverError({ code: 'SQLITE_CONSTRAINT_UNIQUE' }))).toBe(false);
    // A Galera certification conflict is errno 1213 like a deadlock.
    expect(isRetryableWriteError(driverError({ code: 'ER_LOCK_DEADLOCK', errno: 1213 }))).toBe(true);
    expect(isRetryableWriteError(driverError({ code: 'ER_PARSE_ERROR', errno: 1064 }))).toBe(false);
  });
});

describe('transaction retries (src/db/retry-transaction.ts)', () => {
  it('backs off exponentially under a cap, with full jitter', () => {
    const policy = { attempts: 8, baseDelayMs: 20, maxDelayMs: 1000 };
    expect([1, 2, 3, 4].map((n) => backoffMs(n, policy, 0.999))).toEqual([19, 39, 79, 159]);
    expect(backoffMs(20, policy, 0.999)).toBe(999);
    expect(backoffMs(3, policy, 0)).toBe(0);
  });

  it('retries a deadlock until it succeeds, and gives up on anything else at once', async () => {
    let calls = 0;
    const policy = { ...DEFAULT_TRANSACTION_RETRY, baseDelayMs: 1 };
    const result = await retryTransaction(async () => {
      if (++calls < 3) throw driverError({ code: 'ER_LOCK_DEADLOCK', errno: 1213 });
      return 'done';
    }, policy);
    expect([result, calls]).toEqual(['done', 3]);
    calls = 0;
    await expect(retryTransaction(async () => (calls++, Promise.reject(new Error('bad'))), policy)).rejects.toThrow('bad');
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      retryTransaction(async () => (calls++, Promise.reject(driverError({ code: 'SQLITE_BUSY' }))), { ...policy, attempts: 4 }),
    ).rejects.toThrow();
    expect(calls).toBe(4);
  });
});

describe('the HTTP edge (src/http/http-server.ts, body-limits.ts)', () => {
  it('accepts origin-form targets with a well-formed Host', () => {
    expect(targetProblem('/v2/shipments?x=1', 'localhost:4000')).toBeUndefined();
    expect(targetProblem('/graphql', '[::1]:4000')).toBeUndefined();
    expect(targetProblem('/health', undefined)).toBeUndefined();
  });

  it.each([
    ['absolute-form', 'http://evil/v2/shipments', 'localhost'],
    ['asterisk-form', '*', 'localhost'],
    ['authority-like path', '//evil/x', 'localhost'],
    ['port out of range', '/health', 'x:99999'],
    ['lone bracket', '/health', '['],
    ['space in host', '/health', 'a b'],
    ['userinfo in host', '/health', 'a@b'],
    ['path in host', '/health', 'a/b'],
  ])('refuses %s', (_, target, host) => {
    expect(targetProblem(target, host)).toMatch(/./);
  });

  it('has route limits below the general one', () => {
    const general = (bytes: number) => loadConfig({ TT_HTTP_MAX_BODY_BYTES: String(bytes) });
    expect(bodyLimitFor('/oauth/token', general(1 << 20))).toBe(8192);
    expect(bodyLimitFor('/v2/subscriptions/abc/rotate-secret', general(1 << 20))).toBe(16384);
    expect(bodyLimitFor('/graphql', general(1 << 20))).toBe(1 << 20);
    expect(bodyLimitFor('/oauth/token', general(4096))).toBe(4096);
  });
});

describe('the SQLite file (src/db/connect.ts)', () => {
  it('is readable by its owner only, with its -wal and -shm files, whatever the umask', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tt-mode-'));
    const previous = process.umask(0o022);
    try {
      const path = join(dir, 'data', 'tracking.sqlite');
      const database = connectDatabase(`sqlite:${path}`);
      await sql`create table t (x integer)`.execute(database.db);
      await sql`insert into t values (1)`.execute(database.db);
      const mode = (file: string) => statSync(file).mode & 0o777;
      expect([mode(path), mode(`${path}-wal`), mode(`${path}-shm`), mode(join(dir, 'data'))]).toEqual([0o600, 0o600, 0o600, 0o700]);
      await database.close();
    } finally {
      process.umask(previous);
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
