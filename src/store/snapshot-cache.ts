import { getHeapStatistics } from 'node:v8';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.js';
import { ShipmentSnapshot } from './shipment-snapshot.js';

/**
 * Assembled snapshots of recently looked-up shipments, keyed by shipment id
 * and valid for exactly one version.
 *
 * Exact: every lookup reads the shipment row, and with it its `version`, from
 * the database (the same statement that applies the tenant filter). A cached
 * snapshot is used only when its version is the one just read, and ingest
 * bumps the version in the transaction that changes the shipment's master
 * data, events or exceptions. So a lookup after an ingest's commit sees the
 * new version and reassembles, on this and on every other instance; nothing
 * needs to be told to invalidate.
 *
 * What is cached is the snapshot body only (master data, best-version events,
 * assembled containers, exceptions): the transmission header and the access
 * check are per request and never cached.
 *
 * Bounded by size, not count (one shipment may have 1 container or 100): the
 * stored JSON a snapshot was built from measures it (the parsed, best-version
 * parts take about 0.7 times that in heap). Least recently used snapshots go
 * first once the budget is exceeded.
 */
export class SnapshotCache {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #maxBytes: number;
  /** Map iteration order is insertion order: the first key is the least recently used. */
  readonly #entries = new Map<number, ShipmentSnapshot>();
  #bytes = 0;

  /** `maxBytes` 0 disables caching: every lookup assembles its own snapshot. */
  constructor(db: Kysely<DatabaseSchema>, maxBytes: number = defaultSnapshotCacheBytes()) {
    this.#db = db;
    this.#maxBytes = maxBytes;
  }

  /** Shipments held. */
  get size(): number {
    return this.#entries.size;
  }

  /** Sum of the held snapshots' sizes (see ShipmentSnapshot.bytes). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The snapshot of the shipment at the version of `row`, cached or new. */
  snapshot(row: { id: number; version: number; master_json: string }): ShipmentSnapshot {
    const cached = this.#entries.get(row.id);
    if (cached && cached.version === row.version) {
      this.#entries.delete(row.id);
      this.#entries.set(row.id, cached);
      return cached;
    }
    // A request that read an older version than the cached one (it raced an
    // ingest) gets a snapshot of its own and leaves the newer entry alone.
    if (this.#maxBytes === 0 || (cached && cached.version > row.version)) return new ShipmentSnapshot(this.#db, row);

    const fresh: ShipmentSnapshot = new ShipmentSnapshot(this.#db, row, {
      onLoad: (bytes) => {
        if (this.#entries.get(row.id) !== fresh) return;
        this.#bytes += bytes;
        this.#evict();
      },
      // A failed load must not stay cached: the next lookup retries.
      onFailure: () => this.#drop(row.id, fresh),
    });
    if (cached) this.#drop(row.id, cached);
    this.#entries.set(row.id, fresh);
    this.#bytes += fresh.bytes;
    this.#evict();
    return fresh;
  }

  #drop(id: number, snapshot: ShipmentSnapshot): void {
    if (this.#entries.get(id) !== snapshot) return;
    this.#entries.delete(id);
    this.#bytes -= snapshot.bytes;
  }

  #evict(): void {
    while (this.#bytes > this.#maxBytes) {
      const oldest = this.#entries.entries().next();
      if (oldest.done) break;
      this.#drop(oldest.value[0], oldest.value[1]);
    }
  }
}

/**
 * A quarter of the V8 heap limit: about 1 GiB on a large machine (4 GiB heap
 * limit), proportionally less where Node sizes the heap down (containers with
 * a memory limit), so the cache never crowds out the rest of the process.
 */
export function defaultSnapshotCacheBytes(): number {
  return Math.floor(getHeapStatistics().heap_size_limit / 4);
}
