import { runLoad, type LoadOptions, type LoadResult, type RequestSpec } from './load.js';
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

/**
 * An optional warm-up, then the measured run on the same connections, with its SQL statements per request
 * (the server's counters read as the first measured request is sent and after the last answer).
 */
export async function measure(server: ServerProcess, next: () => RequestSpec, run: Run, warmup?: LoadOptions['warmup']): Promise<Measured> {
  let before: Promise<Counts> | undefined;
  const load = await runLoad(server.url, next, {
    ...run,
    ...(warmup ? { warmup } : {}),
    onMeasureStart: () => void (before = counts(server)),
  });
  const start = await (before ?? counts(server));
  const after = await counts(server);
  return { load, sqlPerRequest: (after.statements - start.statements) / (after.requests - start.requests) };
}

/** A single request's response, outside any measurement. */
export function send(server: ServerProcess, spec: RequestSpec): Promise<Response> {
  return fetch(`${server.url}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
}
