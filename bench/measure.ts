import { runLoad, type LoadResult, type RequestSpec } from './load.js';
import type { ServerProcess } from './processes.js';

/**
 * Measurements against one server: a load run plus the server's own count of
 * SQL statements and requests over that run (TT_COUNT_QUERIES=1), which gives
 * the SQL round trips per request.
 */

interface Counts {
  statements: number;
  requests: number;
  snapshotCache?: { entries: number; bytes: number };
  heap?: { majorCollections: number; usedAfterLastMajor: number };
}

/** The server's counters and memory figures (GET /internal/stats). */
export async function counts(server: ServerProcess): Promise<Counts> {
  // Requests cut off at the end of a run still reach the server: let them finish first.
  await new Promise((resolve) => setTimeout(resolve, 300));
  return (await (await fetch(`${server.url}/internal/stats`)).json()) as Counts;
}

export interface Measured {
  load: LoadResult;
  sqlPerRequest: number;
}

export interface Run {
  connections: number;
  /** Either a duration or a number of requests. */
  seconds?: number;
  amount?: number;
  expected?: number[];
}

/** An optional warm-up run, then the measured run with its SQL statements per request. */
export async function measure(
  server: ServerProcess,
  next: () => RequestSpec,
  run: Run,
  warmup?: { next: () => RequestSpec; run: Run },
): Promise<Measured> {
  if (warmup) await runLoad(server.url, warmup.next, warmup.run);
  const before = await counts(server);
  const load = await runLoad(server.url, next, run);
  const after = await counts(server);
  return { load, sqlPerRequest: (after.statements - before.statements) / (after.requests - before.requests) };
}

/** A single request's response, outside any measurement. */
export function send(server: ServerProcess, spec: RequestSpec): Promise<Response> {
  return fetch(`${server.url}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
}
