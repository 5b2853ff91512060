import { getHeapStatistics } from 'node:v8';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { FrequencySketch } from './frequency-sketch.js';
import { ShipmentSnapshot, type SnapshotListener } from './shipment-snapshot.js';

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
 *
 * Once the cache is full, a shipment past the door takes the place of the
 * least recently used one only if it is looked up more often lately
 * (FrequencySketch, TinyLFU's admission). Under lookups spread evenly over
 * many more shipments than fit (a million, a scan), almost every lookup is a
 * miss whatever the cache holds; letting each second lookup in then only
 * churned the cache, every entry a new old-generation object and every
 * eviction old-generation garbage, whose collections were the p99 of such a
 * run (bench/README.md, the million-shipment run). Now the held entries stay,
 * the misses cost what a cache-off lookup does, and shipments polled often
 * still win their place.
 *
 * Renderings, most of an entry's size, are kept as bytes outside the V8 heap
 * (ShipmentSnapshot.rendering): the budget counts them with the rest, but
 * the garbage collector does not copy or mark them.
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
  /** Lookups per shipment lately, for the admission of a full cache (see the class comment). */
  readonly #frequency: FrequencySketch;
  /** What every held snapshot tells (one object, not closures per entry: ShipmentSnapshot's SnapshotListener). */
  readonly #listener: SnapshotListener = {
    onLoad: (snapshot, bytes) => {
      if (this.#entries.get(snapshot.id) !== snapshot) return;
      this.#bytes += bytes;
      this.#evict();
    },
    // A failed load must not stay cached: the next lookup retries.
    onFailure: (snapshot) => this.#drop(snapshot.id, snapshot),
  };

  /**
   * `maxBytes` 0 disables caching: every lookup assembles its own snapshot. `seenIds`: how many shipment ids a
   * generation of the door remembers.
   */
  constructor(db: Kysely<DatabaseSchema>, maxBytes: number = defaultSnapshotCacheBytes(), seenIds = 100_000) {
    this.#db = db;
    this.#maxBytes = maxBytes;
    this.#seenIds = seenIds;
    this.#frequency = new FrequencySketch(maxBytes === 0 ? 0 : seenIds);
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
    if (this.#maxBytes > 0) this.#frequency.increment(row.id);
    const cached = this.#entries.get(row.id);
    if (cached && cached.version === row.version) {
      this.#entries.delete(row.id);
      this.#entries.set(row.id, cached);
      return cached;
    }
    // A request that read an older version than the cached one (it raced an
    // ingest) gets a snapshot of its own and leaves the newer entry alone.
    if (this.#maxBytes === 0 || (cached && cached.version > row.version)) return new ShipmentSnapshot(this.#db, row);
    if (!cached && !this.#admit(row)) return new ShipmentSnapshot(this.#db, row);

    const fresh = new ShipmentSnapshot(this.#db, row, this.#listener);
    if (cached) this.#drop(row.id, cached);
    this.#entries.set(row.id, fresh);
    this.#bytes += fresh.bytes;
    this.#evict();
    return fresh;
  }

  /**
   * Whether a shipment not in the cache is let in: it was looked up recently (either way it is remembered), and
   * the cache has room or the shipment is looked up more often than the one it would push out.
   */
  #admit(row: { id: number; master_json: string }): boolean {
    if (!this.#passesDoor(row.id)) return false;
    // Full: the entry, at its smallest (ShipmentSnapshot.bytes before any load), would push another out.
    if (this.#bytes + row.master_json.length <= this.#maxBytes) return true;
    const victim = this.#entries.keys().next();
    return victim.done || this.#frequency.estimate(row.id) > this.#frequency.estimate(victim.value);
  }

  #passesDoor(id: number): boolean {
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

/** The default budget's ceiling: 256 MiB (docs/operating.md, Sizing the snapshot cache). */
export const DEFAULT_SNAPSHOT_CACHE_CEILING = 256 * 1024 * 1024;

/**
 * A quarter of the V8 heap limit, at most 256 MiB: proportionally less where
 * Node sizes the heap down (containers with a memory limit), so the cache never
 * crowds out the rest of the process. The ceiling: beyond the polled working
 * set of a busy instance (a few thousand shipments at tens of KB each), more
 * cache only holds one-off lookups, and the process's memory grows with it
 * (1.9 GiB RSS with a 674 MiB cache in the million-shipment run). An operator
 * with a larger polled set sets TT_SNAPSHOT_CACHE_MB.
 */
export function defaultSnapshotCacheBytes(): number {
  return Math.min(Math.floor(getHeapStatistics().heap_size_limit / 4), DEFAULT_SNAPSHOT_CACHE_CEILING);
}
