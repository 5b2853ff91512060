import type { InferResult, Kysely } from 'kysely';
import { upsert, type SqlDialect } from '../db/dialect.js';
import type { DatabaseSchema } from '../db/schema.js';
import { byDetection } from '../domain/exception-lifecycle.js';
import { snapshotTrackingParts, type SnapshotTrackingParts } from '../domain/snapshot.js';
import type { ContainerMaster, TrackingEvent, TrackingException } from '../domain/types.js';
import { firstRowBatched } from './batched-lookups.js';
import { loadShipmentStates } from './chunked-state.js';
import { loadLifecycleRows } from './exception-state.js';
import { inTransaction } from '../db/retry-transaction.js';

/**
 * Stored snapshots (issue 12: no assembly on the read path). Whatever moves
 * a shipment's version writes its snapshot at that version in the same
 * transaction, so a lookup reads the snapshot with one primary-key read and
 * parses it; best versions, container histories and exception order are
 * computed once per change instead of once per read (and per instance).
 *
 * The in-memory SnapshotCache stays in front of this as the second tier.
 */

export interface StoredSnapshot {
  shipmentId: number;
  version: number;
  tracking: SnapshotTrackingParts;
  exceptions: TrackingException[];
}

/** The stored form of a shipment's state at `version`: pure, the same function at every write. */
export function storedSnapshotOf(
  shipmentId: number,
  version: number,
  containers: readonly ContainerMaster[],
  events: readonly TrackingEvent[],
  exceptions: readonly TrackingException[],
): StoredSnapshot {
  return {
    shipmentId,
    version,
    tracking: snapshotTrackingParts(containers, events),
    exceptions: [...exceptions].sort(byDetection),
  };
}

/** One statement carries at most about this many characters of JSON (well under MySQL's 16 MiB max_allowed_packet default). */
const MAX_STATEMENT_CHARS = 4_000_000;

/** Inserts or replaces the snapshots, inside the caller's transaction. */
export async function writeSnapshots(db: Kysely<DatabaseSchema>, dialect: SqlDialect, snapshots: readonly StoredSnapshot[]): Promise<void> {
  let batch: { shipment_id: number; version: number; tracking_json: string; exceptions_json: string }[] = [];
  let chars = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const insert = db.insertInto('shipment_snapshot').values(batch);
    await upsert(dialect, insert, 'shipment_id', ['version', 'tracking_json', 'exceptions_json']).execute();
    batch = [];
    chars = 0;
  };
  for (const s of snapshots) {
    const row = {
      shipment_id: s.shipmentId,
      version: s.version,
      tracking_json: JSON.stringify(s.tracking),
      exceptions_json: JSON.stringify(s.exceptions),
    };
    batch.push(row);
    chars += row.tracking_json.length + row.exceptions_json.length;
    if (chars >= MAX_STATEMENT_CHARS || batch.length >= 500) await flush();
  }
  await flush();
}

/**
 * Builds and writes the snapshots of the given shipments from their stored
 * parts, at their current versions: after a change that moved a version
 * without a refresh (an operator's clear), and to backfill shipments stored
 * before snapshots were. On MySQL/MariaDB the shipment rows are locked until
 * the caller's transaction ends (loadShipmentStates).
 */
export async function rebuildSnapshots(db: Kysely<DatabaseSchema>, dialect: SqlDialect, shipmentIds: readonly number[]): Promise<void> {
  const states = await loadShipmentStates(db, dialect, shipmentIds);
  const exceptions = await loadLifecycleRows(db, [...states.keys()]);
  await writeSnapshots(
    db,
    dialect,
    [...states.values()].map((s) =>
      storedSnapshotOf(
        s.id,
        s.version,
        s.containers,
        s.events,
        (exceptions.get(s.id) ?? []).map((r) => r.body),
      ),
    ),
  );
}

/**
 * Writes the snapshot of every shipment that has none (those stored before
 * migration 007), a chunk per transaction so a large store never holds one
 * long transaction. Safe to run again after an interruption.
 */
export async function backfillStoredSnapshots(db: Kysely<DatabaseSchema>, dialect: SqlDialect): Promise<number> {
  let written = 0;
  for (;;) {
    const missing = await db
      .selectFrom('shipment as s')
      .select('s.id')
      .where((eb) =>
        eb.not(eb.exists(eb.selectFrom('shipment_snapshot as ss').select('ss.shipment_id').whereRef('ss.shipment_id', '=', 's.id'))),
      )
      .orderBy('s.id')
      .limit(200)
      .execute();
    if (missing.length === 0) return written;
    await inTransaction(db, (trx) =>
      rebuildSnapshots(
        trx,
        dialect,
        missing.map((r) => r.id),
      ),
    );
    written += missing.length;
  }
}

export type SnapshotColumn = 'tracking' | 'exceptions';

export interface StoredSnapshotRead {
  version: number;
  /** Characters of JSON read. */
  bytes: number;
  tracking?: SnapshotTrackingParts;
  exceptions?: TrackingException[];
}

/** The stored snapshot's asked-for columns, parsed; undefined when the shipment has none yet. */
export async function readStoredSnapshot(
  db: Kysely<DatabaseSchema>,
  shipmentId: number,
  columns: ReadonlySet<SnapshotColumn>,
): Promise<StoredSnapshotRead | undefined> {
  const wantTracking = columns.has('tracking');
  const wantExceptions = columns.has('exceptions');
  const query = db
    .selectFrom('shipment_snapshot')
    .select('version')
    .$if(wantTracking, (q) => q.select('tracking_json'))
    .$if(wantExceptions, (q) => q.select('exceptions_json'))
    .where('shipment_id', '=', shipmentId);
  // First lookups of many shipments at once read their snapshots in one statement on MySQL/MariaDB.
  const row = await firstRowBatched<InferResult<typeof query>[number]>(db, query.compile());
  if (!row) return undefined;
  const out: StoredSnapshotRead = { version: Number(row.version), bytes: 0 };
  if (wantTracking && row.tracking_json !== undefined) {
    out.bytes += row.tracking_json.length;
    out.tracking = JSON.parse(row.tracking_json) as SnapshotTrackingParts;
  }
  if (wantExceptions && row.exceptions_json !== undefined) {
    out.bytes += row.exceptions_json.length;
    out.exceptions = JSON.parse(row.exceptions_json) as TrackingException[];
  }
  return out;
}
