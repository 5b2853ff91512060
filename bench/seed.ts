import { performance } from 'node:perf_hooks';
import type { Database } from '../src/db/connect.js';
import { ingestBundle } from '../src/ingest/ingest-bundle.js';
import { parseBundle } from '../src/ingest/parse-bundle.js';

/**
 * Loads generated bundles through the real ingest path (parseBundle, then
 * ingestBundle), timing validation and storage separately.
 */

export interface IngestTiming {
  events: number;
  shipments: number;
  /** Seconds spent in parseBundle (validation and normalization). */
  parseSeconds: number;
  /** Seconds spent in ingestBundle (the database transaction, derived state, exceptions). */
  ingestSeconds: number;
}

export function eventsPerSecond(t: IngestTiming): { total: number; ingestOnly: number } {
  return { total: t.events / (t.parseSeconds + t.ingestSeconds), ingestOnly: t.events / t.ingestSeconds };
}

/**
 * Validates and ingests one raw bundle; throws with the first issues when it is invalid. `exclusive`, when
 * given, runs the ingest (not the validation) in its turn: parallel seed workers on one SQLite file take turns
 * on its one writer (bench/seed-worker.ts).
 */
export async function ingestRaw(
  database: Database,
  raw: unknown,
  timing: IngestTiming,
  exclusive: <T>(ingest: () => Promise<T>) => Promise<T> = (ingest) => ingest(),
): Promise<void> {
  const t0 = performance.now();
  const parsed = parseBundle(raw);
  const t1 = performance.now();
  if (!parsed.ok) throw new Error(`generated bundle is invalid: ${JSON.stringify(parsed.issues.slice(0, 3))}`);
  let t2 = t1;
  const summary = await exclusive(() => {
    t2 = performance.now();
    return ingestBundle(database, parsed.bundle, { now: () => new Date() });
  });
  const t3 = performance.now();
  timing.parseSeconds += (t1 - t0) / 1000;
  timing.ingestSeconds += (t3 - t2) / 1000;
  timing.events += summary.eventsStored;
  timing.shipments += summary.shipmentsCreated;
}

export function emptyTiming(): IngestTiming {
  return { events: 0, shipments: 0, parseSeconds: 0, ingestSeconds: 0 };
}
