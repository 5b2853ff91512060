import { readFileSync } from 'node:fs';
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

/**
 * The server's counters and memory figures (GET /internal/stats). `settle`: after the end of a run, when
 * requests cut off at its end still reach the server: let them finish first. At the start of a measured span the
 * counters are read at once: read 300 ms late they had counted that span's first requests already, which
 * overstated the SQL statements and CPU per request by 7 % in a 4-second run, and several times over in a short
 * fixed-amount run (the first lookups).
 */
export async function counts(server: ServerProcess, settle = true): Promise<Counts> {
  if (settle) await new Promise((resolve) => setTimeout(resolve, 300));
  return (await (await fetch(`${server.url}/internal/stats`)).json()) as Counts;
}

export interface Measured {
  load: LoadResult;
  sqlPerRequest: number;
  /**
   * The server process's CPU time (user + system, from /proc) per request over the run, in µs: unlike req/s,
   * it does not count the time the server waited for a core other work held. It still rises on a loaded machine
   * (caches) and at low throughput (less work shared per event-loop turn and per batched statement), so compare
   * it between runs of similar req/s. NaN where /proc is not readable.
   */
  cpuMicrosPerRequest: number;
  /** The database server's CPU time per request in µs, when the bench owns it (databaseCpu); else NaN. */
  dbCpuMicrosPerRequest: number;
  /** Pages the database read from disk per request (Run.diskReads); NaN when not read. */
  diskReadsPerRequest: number;
}

/**
 * The database server whose CPU time the bench reads beside the service's: its own (--private-mariadb), where
 * nothing else runs statements, so all of its CPU is the run's. On this 2-core machine the service and the
 * database share the cores, and a change that moves work from one to the other shows only with both figures.
 */
let databasePid: number | undefined;

export function databaseCpu(pid: number | undefined): void {
  databasePid = pid;
}

/** CPU time of the database server in µs (NaN when the bench does not own it). */
export function databaseCpuMicros(): number {
  return databasePid === undefined ? NaN : cpuMicros(databasePid);
}

/** CPU time of a process in µs (utime + stime of /proc/PID/stat, in clock ticks of 10 ms); NaN without /proc. */
export function cpuMicros(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) in parentheses: utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

export interface Run {
  connections: number;
  /** Either a duration or a number of requests. */
  seconds?: number;
  amount?: number;
  expected?: number[];
  /**
   * MariaDB's count of pages read from disk into the buffer pool so far (`Innodb_buffer_pool_reads`), read at
   * both ends of the measured run: a scenario that reads pages from disk per request measures the disk as much
   * as the service (the scale runs, where the data outgrows the pool; bench/README.md, Scale runs).
   */
  diskReads?: () => Promise<number>;
}

/**
 * An optional warm-up, then the measured run on the same connections, with its SQL statements per request
 * (the server's counters read as the first measured request is sent and after the last answer).
 */
export async function measure(server: ServerProcess, next: () => RequestSpec, run: Run, warmup?: LoadOptions['warmup']): Promise<Measured> {
  let before: Promise<Counts> | undefined;
  let cpuBefore = NaN;
  let dbCpuBefore = NaN;
  let poolBefore: Promise<number> | undefined;
  const load = await runLoad(server.url, next, {
    ...run,
    ...(warmup ? { warmup } : {}),
    onMeasureStart: () => {
      cpuBefore = cpuMicros(server.pid);
      dbCpuBefore = databaseCpuMicros();
      poolBefore = run.diskReads?.();
      before = counts(server, false);
    },
  });
  const cpuAfter = cpuMicros(server.pid);
  const dbCpuAfter = databaseCpuMicros();
  const poolAfter = run.diskReads ? await run.diskReads() : NaN;
  const start = await (before ?? counts(server, false));
  const after = await counts(server);
  const requests = after.requests - start.requests;
  return {
    load,
    sqlPerRequest: (after.statements - start.statements) / requests,
    cpuMicrosPerRequest: (cpuAfter - cpuBefore) / requests,
    dbCpuMicrosPerRequest: (dbCpuAfter - dbCpuBefore) / requests,
    diskReadsPerRequest: (poolAfter - ((await poolBefore) ?? NaN)) / requests,
  };
}

/** A single request's response, outside any measurement. */
export function send(server: ServerProcess, spec: RequestSpec): Promise<Response> {
  return fetch(`${server.url}${spec.path}`, { method: spec.method, headers: spec.headers, body: spec.body });
}
