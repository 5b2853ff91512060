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
 *
 * A shipment is admitted from its second lookup on: the first lookup of a
 * shipment the cache has not seen recently gets a snapshot of its own, as if
 * the cache were off. Keeping what a one-off lookup read costs the process
 * more than it saves: every kept snapshot survives the young generation and
 * is copied into the old one. Under a stream of lookups of distinct
 * shipments (a client's first pass, a scan) caching them cost about a fifth
 * of the lookups' throughput, the garbage collector's threads taking CPU the
 * database needed (bench/README.md, Latest figures), and the entries were
 * never used again, while they pushed polled shipments out. A shipment polled again is cached at
 * its second lookup, and stays admitted across its versions: a change does
 * not send it back to the door. The door remembers ids only (`seenIds`,
 * about two generations of that many).
 */
export class SnapshotCache {
  readonly #db: Kysely<DatabaseSchema>;
  readonly #maxBytes: number;
  /** Map iteration order is insertion order: the first key is the least recently used. */
  readonly #entries = new Map<number, ShipmentSnapshot>();
  #bytes = 0;
  /** Ids looked up recently, in two generations: the current one, and the one before it (see the class comment). */
  #seen = new Set<number>();
  #seenBefore = new Set<number>();
  readonly #seenIds: number;

  /**
   * `maxBytes` 0 disables caching: every lookup assembles its own snapshot. `seenIds`: how many shipment ids a
   * generation of the door remembers.
   */
  constructor(db: Kysely<DatabaseSchema>, maxBytes: number = defaultSnapshotCacheBytes(), seenIds = 100_000) {
    this.#db = db;
    this.#maxBytes = maxBytes;
    this.#seenIds = seenIds;
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
    if (!cached && !this.#admit(row.id)) return new ShipmentSnapshot(this.#db, row);

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

  /** Whether a shipment not in the cache is let in: it was looked up recently. Either way it is remembered. */
  #admit(id: number): boolean {
    if (this.#seen.has(id)) return true;
    const seenBefore = this.#seenBefore.has(id);
    this.#seen.add(id);
    if (this.#seen.size >= this.#seenIds) {
      this.#seenBefore = this.#seen;
      this.#seen = new Set();
    }
    return seenBefore;
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
