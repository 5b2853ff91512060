import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { snapshotTrackingParts, type SnapshotTrackingParts } from '../../domain/snapshot.js';
import type { ContainerSnapshot, ShipmentEvent, ShipmentMaster, TrackingException, TransportEvent } from '../../domain/types.js';
import { parseShipmentMaster } from '../encoding/json-columns.js';
import { loadParts, type PartName } from './shipment-reader.js';
import { compressBytes, decompressBytes, ownBytes } from '../encoding/snapshot-compression.js';
import { readStoredSnapshot, type SnapshotColumn } from './stored-snapshots.js';

/** Renderings kept per version: REST's, push's and a few GraphQL selections (src/executor/use-kept-rendering.ts). */
export const MAX_RENDERINGS = 8;

/**
 * A rendering of at most this many bytes is kept as it is, not compressed: inflating one costs about 17 µs
 * whatever its size (zlib's set-up, on this machine), which for the few hundred bytes of a small selection (a
 * shipment's ETA and exceptions) was more than the rest of its kept answer's own work, and saved little memory.
 * Callers never write into a returned rendering (they copy it into the answer), so the kept bytes are returned.
 */
export const RAW_RENDERING_BYTES = 1024;

/** What was read for one batch of columns. */
interface LoadedColumns {
  bytes: number;
  tracking?: SnapshotTrackingParts;
  exceptions?: TrackingException[];
}

/**
 * What a cache holding a snapshot wants to hear about. One object for all the snapshots a cache holds (it is told
 * which): a closure per entry would keep the lookup's whole row alive with it, and every held snapshot's extra
 * objects are marked at each full collection (src/store/shipments/snapshot-cache.ts).
 */
export interface SnapshotListener {
  /** Parts were loaded: the snapshot grew by `bytes` (see LoadedParts.bytes). */
  onLoad(snapshot: ShipmentSnapshot, bytes: number): void;
  /** A load failed: the snapshot is useless and should be dropped, so the next request retries. */
  onFailure(snapshot: ShipmentSnapshot): void;
}

/**
 * The snapshot of one shipment at one version, read on demand and memoized:
 * each stored column (the tracking parts, the exceptions) is read and parsed
 * at most once, and only when a field asks for it (an `eta`-only query reads
 * nothing here).
 *
 * The snapshot was built and stored when the shipment last changed
 * (stored-snapshots.ts): a read is one primary-key statement and JSON.parse,
 * no assembly. Columns asked for in the same tick are read together: GraphQL
 * resolves the sibling fields of ShipmentTracking in one synchronous pass.
 * A shipment without a stored snapshot at least as new as `version` (stored
 * before snapshots were, and not yet backfilled) is assembled from its parts.
 *
 * Everything here is a function of the shipment's stored state at `version`,
 * which is what lets SnapshotCache share one instance between requests.
 */
export class ShipmentSnapshot {
  readonly id: number;
  readonly version: number;
  /** The row's master data as read; parsed at the first field that asks (a kept or stored rendering never does). */
  #masterJson: string | undefined;
  #master?: ShipmentMaster;
  readonly #db: Kysely<DatabaseSchema>;
  /** The cache that holds this snapshot for later requests, if any: see keepRendering(). */
  readonly #listener: SnapshotListener | undefined;
  #batch?: { columns: Set<SnapshotColumn>; result: Promise<LoadedColumns> };
  #tracking?: Promise<SnapshotTrackingParts>;
  #exceptions?: Promise<TrackingException[]>;
  /** Serialized renderings of this version by name, compressed UTF-8 bytes (see rendering()). */
  #renderings?: Map<string, Buffer>;
  /** The names of those kept as they are, not compressed: the small ones (see RAW_RENDERING_BYTES). */
  #raw?: Set<string>;
  /** The stored REST rendering, compressed, as read (see storedRendering()). */
  #storedRendering?: Promise<Buffer | undefined>;

  /** Characters of stored JSON this snapshot was built from so far: a measure of its memory. */
  bytes: number;

  constructor(db: Kysely<DatabaseSchema>, row: { id: number; version: number; master_json: string }, listener?: SnapshotListener) {
    this.id = row.id;
    this.version = row.version;
    this.#masterJson = row.master_json;
    this.bytes = row.master_json.length;
    this.#db = db;
    this.#listener = listener;
  }

  get master(): ShipmentMaster {
    if (this.#master === undefined) {
      this.#master = parseShipmentMaster(this.#masterJson ?? '');
      this.#masterJson = undefined;
    }
    return this.#master;
  }

  async events(): Promise<{ shipmentEvents: ShipmentEvent[]; transportEvents: TransportEvent[] }> {
    return this.#trackingParts();
  }

  async containers(): Promise<ContainerSnapshot[]> {
    return (await this.#trackingParts()).containers;
  }

  exceptions(): Promise<TrackingException[]> {
    this.#exceptions ??= this.#column('exceptions').then(({ exceptions = [] }) => exceptions);
    return this.#exceptions;
  }

  /**
   * A serialized rendering of this snapshot kept by its name (the selection and
   * serialization that produced it: src/executor/shipment-rendering.ts), as
   * UTF-8 bytes, or undefined. A rendering is a function of the snapshot, so it
   * is as exact as the snapshot: it lives and goes with this version. It counts
   * in `bytes`.
   *
   * Kept compressed (raw deflate, as the stored snapshot holds REST's), in a
   * Buffer outside the V8 heap, and inflated for each answer: a rendering
   * (about 7 KB for a shipment of 20 events, 20 KB for one of 60) is a fifth
   * of that compressed, so the same cache budget holds about four times as
   * many shipments, and a lookup the cache answers costs an inflate (about
   * 20 µs) where one it misses costs a statement, and for a version not
   * rendered yet the walk of the snapshot (bench/README.md, Compressed
   * renderings). As bytes they are memory the garbage collector neither copies
   * nor marks (src/store/shipments/snapshot-cache.ts). REST writes them to the socket as
   * they are.
   */
  rendering(name: string): Buffer | undefined {
    const kept = this.#renderings?.get(name);
    if (kept === undefined) return undefined;
    return this.#raw?.has(name) ? kept : decompressBytes(kept);
  }

  /**
   * REST's `shipmentTracking` as stored with this version (src/domain/rest-tracking.ts), read alone: one
   * column, no parsing, kept under `name` as it was read (compressed). Undefined when the stored snapshot is not
   * of this very version (a shipment not yet backfilled, an ingest that committed since the row was read) or
   * holds no such rendering (a row written before migration 020, or a state the rendering cannot be made of);
   * the caller then renders through the schema as before. Memoized like the columns; a failed read is not kept.
   *
   * `read`: what the lookup read with the shipment's row, when it asked (src/store/shipments/shipment-lookup.ts,
   * FindOptions.restRendering): the rendering of this very version, or null for none; then no statement of its own.
   */
  async storedRendering(name: string, read?: Buffer | null): Promise<Buffer | undefined> {
    if (read !== undefined) this.#storedRendering ??= Promise.resolve(read ?? undefined);
    this.#storedRendering ??= readStoredSnapshot(this.#db, this.id, REST_COLUMN).then(
      (stored) => (stored?.version === this.version ? stored.restTrackingZ : undefined),
      (err: unknown) => {
        this.#storedRendering = undefined;
        throw err;
      },
    );
    const compressed = await this.#storedRendering;
    if (compressed === undefined) return undefined;
    this.#keep(name, compressed);
    return decompressBytes(compressed);
  }

  /**
   * Keeps a rendering of this version (JSON text, or its UTF-8 bytes) under its name; see rendering(). A snapshot
   * no cache holds keeps nothing: it answers one request, and compressing for no later one would be wasted.
   */
  keepRendering(name: string, json: string | Buffer): void {
    if (this.#listener === undefined || this.#renderings?.has(name)) return;
    const bytes = typeof json === 'string' ? Buffer.from(json, 'utf8') : json;
    if (bytes.byteLength <= RAW_RENDERING_BYTES) this.#keep(name, bytes, true);
    else this.#keep(name, compressBytes(bytes));
  }

  #keep(name: string, compressed: Buffer, raw = false): void {
    if (this.#listener === undefined) return;
    this.#renderings ??= new Map();
    // A client choosing its selections must not grow one version without bound (its bytes count anyway).
    if (this.#renderings.has(name) || this.#renderings.size >= MAX_RENDERINGS) return;
    // What the cache counts is what it holds: not the larger buffer these bytes may be a view of.
    const own = ownBytes(compressed);
    this.#renderings.set(name, own);
    if (raw) (this.#raw ??= new Set()).add(name);
    this.bytes += own.byteLength;
    this.#listener.onLoad(this, own.byteLength);
  }

  #trackingParts(): Promise<SnapshotTrackingParts> {
    this.#tracking ??= this.#column('tracking').then(
      ({ tracking }) => tracking ?? { shipmentEvents: [], transportEvents: [], containers: [] },
    );
    return this.#tracking;
  }

  /** The column, read with whatever else is asked for in the current tick. */
  #column(name: SnapshotColumn): Promise<LoadedColumns> {
    this.#batch ??= this.#startBatch();
    this.#batch.columns.add(name);
    return this.#batch.result;
  }

  #startBatch(): { columns: Set<SnapshotColumn>; result: Promise<LoadedColumns> } {
    const columns = new Set<SnapshotColumn>();
    // A microtask later, the resolvers of this pass have all asked for their columns.
    const result = Promise.resolve()
      .then(() => {
        this.#batch = undefined;
        return this.#read(columns);
      })
      .then((loaded) => {
        this.bytes += loaded.bytes;
        this.#listener?.onLoad(this, loaded.bytes);
        return loaded;
      });
    result.catch(() => this.#listener?.onFailure(this));
    return { columns, result };
  }

  async #read(columns: ReadonlySet<SnapshotColumn>): Promise<LoadedColumns> {
    const stored = await readStoredSnapshot(this.#db, this.id, columns);
    // A newer stored version than the row's means an ingest committed between
    // the two reads: the newer snapshot is still a true one.
    if (stored && stored.version >= this.version) return stored;
    return assembleFromParts(this.#db, this.id, columns);
  }
}

const REST_COLUMN: ReadonlySet<SnapshotColumn> = new Set(['rest']);

/** The snapshot the slow way, from every stored event version (shipments without a stored snapshot). */
async function assembleFromParts(
  db: Kysely<DatabaseSchema>,
  shipmentId: number,
  columns: ReadonlySet<SnapshotColumn>,
): Promise<LoadedColumns> {
  const parts = new Set<PartName>();
  if (columns.has('tracking')) parts.add('containers').add('events');
  if (columns.has('exceptions')) parts.add('exceptions');
  const loaded = await loadParts(db, shipmentId, parts);
  return {
    bytes: loaded.bytes,
    ...(columns.has('tracking') ? { tracking: snapshotTrackingParts(loaded.containers ?? [], loaded.events ?? []) } : {}),
    ...(loaded.exceptions ? { exceptions: loaded.exceptions } : {}),
  };
}
