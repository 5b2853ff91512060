import { bundleOf, eventsPerShipment } from './generate.js';
import { createBenchDatabase } from './databases.js';
import { emptyTiming, ingestRaw, type IngestTiming } from './seed.js';

/**
 * Ingest throughput for one large bundle (docs/architecture.md, Ingest bundle): at least
 * `events` events for a fresh database, as one `tracking ingest` of one file
 * would load it (one transaction).
 */
export async function ingestBenchmark(dialect: 'mysql' | 'sqlite', events: number): Promise<IngestTiming> {
  const bench = await createBenchDatabase(dialect, 'tt_bench_ingest');
  try {
    const shipments = Math.ceil(events / eventsPerShipment(4));
    // One carrier per bundle: every third index is the same carrier.
    const indexes = Array.from({ length: shipments }, (_, i) => i * 3);
    const raw = bundleOf(indexes, { tag: 'I', space: 7 });
    const timing = emptyTiming();
    await ingestRaw(bench.database, raw, timing);
    return timing;
  } finally {
    await bench.destroy();
  }
}
