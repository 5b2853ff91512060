import type { BenchDatabase } from './databases.js';
import { counts, measure } from './measure.js';
import type { BenchOptions } from './options.js';
import type { ServerProcess } from './processes.js';
import { fixed, table, thousands } from './report.js';
import { scenarios } from './scenarios.js';
import { startServers, type Servers } from './setup.js';

/**
 * The scale comparison of a large run (`--shipments` above `--scale-from`,
 * default 10,000): the same lookups measured on the first `--scale-from`
 * shipments, before the rest is seeded, and on all of them at the end, side by side, with the
 * service's RSS and snapshot cache. Keys are random over all shipments of
 * each stage, so at both sizes most lookups read a snapshot nobody asked
 * for yet: the comparison is of the indexed reads, not of the cache.
 */

/** The scenarios a stage measures (name prefixes of scenarios.ts). */
const PROBES = ['REST full snapshot', 'REST conditional', 'GraphQL partial'];

export interface ScaleStage {
  shipments: number;
  rows: { name: string; rps: number; p50: number; p99: number }[];
  rssMiB: number;
  cacheMiB: number;
}

/** Measures the probes on `shipments` shipments with the running servers. */
export async function scaleStage(servers: Servers, options: BenchOptions, shipments: number): Promise<ScaleStage> {
  const rows: ScaleStage['rows'] = [];
  for (const scenario of scenarios(servers.credentials, shipments).filter((s) => PROBES.some((p) => s.name.startsWith(p)))) {
    await scenario.prepare?.(servers.service);
    const expected = scenario.expected ? { expected: scenario.expected } : {};
    const { load } = await measure(
      servers.service,
      scenario.next,
      { connections: options.connections, seconds: options.seconds, ...expected },
      { seconds: options.warmupSeconds },
    );
    rows.push({ name: scenario.name, rps: load.requestsPerSecond, p50: load.p50, p99: load.p99 });
  }
  const stats = await counts(servers.service);
  return {
    shipments,
    rows,
    rssMiB: servers.service.rssMiB(),
    cacheMiB: (stats.snapshotCache?.bytes ?? 0) / 2 ** 20,
  };
}

/** Starts the servers on the first stage's data, measures, stops them. */
export async function firstScaleStage(bench: BenchDatabase, options: BenchOptions): Promise<ScaleStage> {
  const running: ServerProcess[] = [];
  try {
    const servers = await startServers(bench, options, (server) => running.push(server));
    return await scaleStage(servers, options, options.scaleFrom);
  } finally {
    for (const server of running) await server.stop();
  }
}

export function scaleTable(small: ScaleStage, large: ScaleStage): string {
  const header = ['scenario', ...[small, large].flatMap((s) => [`${thousands(s.shipments)} req/s`, 'p50 ms', 'p99 ms']), 'p99 ratio'];
  const rows = small.rows.map((row) => {
    const big = large.rows.find((r) => r.name === row.name);
    return [
      row.name,
      fixed(row.rps, 0),
      String(row.p50),
      String(row.p99),
      fixed(big?.rps ?? NaN, 0),
      String(big?.p50 ?? ''),
      String(big?.p99 ?? ''),
      fixed((big?.p99 ?? NaN) / row.p99, 2),
    ];
  });
  rows.push([
    'service RSS / snapshot cache MiB',
    `${fixed(small.rssMiB, 0)} / ${fixed(small.cacheMiB, 0)}`,
    '',
    '',
    `${fixed(large.rssMiB, 0)} / ${fixed(large.cacheMiB, 0)}`,
    '',
    '',
    '',
  ]);
  return table(header, rows);
}
