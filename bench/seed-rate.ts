import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { createConnection } from 'mysql2/promise';
import { benchMysqlUrl, createBenchDatabase } from './databases.js';
import { Seeder, seedRates } from './seeder.js';

/**
 * The seed's rate alone, for choosing its settings (bench/README.md, Scale runs):
 *
 *   node dist-bench/bench/seed-rate.js [mysql|sqlite] [shipments] [workers] [shipments per bundle] [forwarder|full]
 *
 * seeds a fresh database (`tt_bench_seed`, dropped after) as `npm run bench` seeds it and prints events/s with the
 * CPU seconds per event of this process (its worker threads included) and, when the MariaDB server runs on this
 * machine, of mariadbd (which other clients of a shared server add to). Alternate settings in one window.
 */

const [dialect = 'mysql', shipments = '5000', workers = '2', perBundle = '250', profile = 'forwarder'] = process.argv.slice(2);
if (dialect !== 'mysql' && dialect !== 'sqlite') throw new Error('the store is mysql or sqlite');
if (profile !== 'forwarder' && profile !== 'full') throw new Error('the profile is forwarder or full');

/** mariadbd's CPU seconds from /proc, or null when its pid file is not readable here. */
async function serverCpuSeconds(): Promise<number | null> {
  if (dialect !== 'mysql') return null;
  try {
    const conn = await createConnection(benchMysqlUrl());
    const [rows] = await conn.query('select @@pid_file as file');
    await conn.end();
    const pid = readFileSync((rows as { file: string }[])[0]?.file ?? '', 'utf8').trim();
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

const bench = await createBenchDatabase(dialect, 'tt_bench_seed');
try {
  const server0 = await serverCpuSeconds();
  const cpu0 = process.cpuUsage();
  const seeder = Seeder.start({
    url: bench.url,
    workers: Number(workers),
    perBundle: Number(perBundle),
    generate: { profile },
    serialIngest: dialect === 'sqlite',
  });
  const run = await seeder.seed(0, Number(shipments));
  await seeder.close();
  const cpu = process.cpuUsage(cpu0);
  const server1 = await serverCpuSeconds();
  const perEvent = (seconds: number) => `${((seconds * 1e6) / run.events).toFixed(0)} µs`;
  process.stdout.write(
    `${dialect}, ${shipments} ${profile} shipments, ${workers} workers, ${perBundle} per bundle: ${run.events} events in ` +
      `${run.wallSeconds.toFixed(1)} s, ${seedRates(run).eventsPerSecond.toFixed(0)} events/s; CPU per event: this process ` +
      `${perEvent((cpu.user + cpu.system) / 1e6)}` +
      `${server0 !== null && server1 !== null ? `, mariadbd ${perEvent(server1 - server0)}` : ''}; load average ${loadavg()[0]?.toFixed(1)}\n`,
  );
} finally {
  await bench.destroy();
}
