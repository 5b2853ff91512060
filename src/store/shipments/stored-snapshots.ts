import type { InferResult, Insertable, Kysely } from 'kysely';
import { upsert, type SqlDialect } from '../../db/dialect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import type { ShipmentSnapshotTable } from '../../db/tables/shipment.js';
import { byDetection } from '../../domain/exception-lifecycle.js';
import { REST_TRACKING_FORM, restTrackingJson } from '../../domain/rest-tracking.js';
import { snapshotTrackingParts, type SnapshotTrackingParts } from '../../domain/snapshot.js';
import type { ContainerMaster, ShipmentMaster, TrackingEvent, TrackingException } from '../../domain/types.js';
import { parseShipmentMaster } from '../encoding/json-columns.js';
import { compressText, decompressText } from '../encoding/snapshot-compression.js';
import { writesCompact } from '../encoding/write-forms.js';
import { rowByKeyBatched, type KeyedStatement } from '../batching/keyed-lookups.js';
import { loadShipmentStates } from './chunked-state.js';
import { loadLifecycleRows } from '../exceptions/exception-state.js';
import { inTransaction } from '../../db/retry-transaction.js';

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
  /** REST's `shipmentTracking` as served at this version (domain/rest-tracking.ts); undefined when it cannot be made. */
  restTracking: string | undefined;
}

/** What a snapshot is built from besides the events: the shipment row at the snapshot's version. */
export interface SnapshotShipment {
  id: number;
  /** The version the snapshot belongs to. */
  version: number;
  master: ShipmentMaster;
  /** The row's derived etd/eta at that version. */
  etd: string | null;
  eta: string | null;
}

/** The stored form of a shipment's state at `version`: pure, the same function at every write. */
export function storedSnapshotOf(
  shipment: SnapshotShipment,
  containers: readonly ContainerMaster[],
  events: readonly TrackingEvent[],
  exceptions: readonly TrackingException[],
): StoredSnapshot {
  const tracking = snapshotTrackingParts(containers, events);
  const sorted = [...exceptions].sort(byDetection);
  return {
    shipmentId: shipment.id,
    version: shipment.version,
    tracking,
    exceptions: sorted,
    restTracking: restTrackingJson({ master: shipment.master, etd: shipment.etd, eta: shipment.eta, tracking, exceptions: sorted }),
  };
}

/**
 * How rows are stored (`stored_form`, migration 020). 0: the JSON text columns (rows written before 020).
 * From 1 on: the compressed columns, the text columns empty; `rest_tracking_z` is served only from rows of the
 * current form, whose number moves with REST_TRACKING_FORM (a rendering of another selection is not today's
 * answer). A row of a form this build does not know (written by a newer one) is treated as absent.
 */
export const STORED_FORM = REST_TRACKING_FORM;

/**
 * One statement carries at most about this many bytes of values (well under MySQL's 16 MiB max_allowed_packet
 * default). A binary value may travel as hex, two characters a byte: counted twice.
 */
const MAX_STATEMENT_BYTES = 4_000_000;

type SnapshotRow = Insertable<ShipmentSnapshotTable>;

/**
 * The row of a snapshot: in the current compact form once the upgrade is finished, else in the plain form
 * (stored_form 0, the text columns) that the previous release reads (src/store/encoding/write-forms.ts).
 */
export function snapshotRow(s: StoredSnapshot, compact = true): SnapshotRow {
  if (!compact) return plainSnapshotRow(s);
  return {
    shipment_id: s.shipmentId,
    version: s.version,
    tracking_json: '',
    exceptions_json: '',
    stored_form: STORED_FORM,
    tracking_z: compressText(JSON.stringify(s.tracking)),
    exceptions_z: compressText(JSON.stringify(s.exceptions)),
    rest_tracking_z: s.restTracking === undefined ? null : compressText(s.restTracking),
  };
}

/**
 * stored_form 0, as migration 007 made the row and the previous release writes it: the JSON in the text columns, the
 * compressed ones null. No REST rendering: one is served only from a row of the current form, and the previous
 * release rewrites the text columns of this row without touching the others.
 */
function plainSnapshotRow(s: StoredSnapshot): SnapshotRow {
  return {
    shipment_id: s.shipmentId,
    version: s.version,
    tracking_json: JSON.stringify(s.tracking),
    exceptions_json: JSON.stringify(s.exceptions),
    stored_form: 0,
    tracking_z: null,
    exceptions_z: null,
    rest_tracking_z: null,
  };
}

/** Inserts or replaces the snapshots, inside the caller's transaction, in the form the upgrade allows (write-forms.ts). */
export async function writeSnapshots(db: Kysely<DatabaseSchema>, dialect: SqlDialect, snapshots: readonly StoredSnapshot[]): Promise<void> {
  const compact = writesCompact(db);
  await writeRows(
    db,
    dialect,
    snapshots.map((s) => snapshotRow(s, compact)),
  );
}

async function writeRows(db: Kysely<DatabaseSchema>, dialect: SqlDialect, rows: readonly SnapshotRow[]): Promise<void> {
  let batch: SnapshotRow[] = [];
  let bytes = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const insert = db.insertInto('shipment_snapshot').values(batch);
    await upsert(dialect, insert, 'shipment_id', [
      'version',
      'tracking_json',
      'exceptions_json',
      'stored_form',
      'tracking_z',
      'exceptions_z',
      'rest_tracking_z',
    ]).execute();
    batch = [];
    bytes = 0;
  };
  for (const row of rows) {
    batch.push(row);
    bytes +=
      2 * ((row.tracking_z?.length ?? 0) + (row.exceptions_z?.length ?? 0) + (row.rest_tracking_z?.length ?? 0)) +
      (row.tracking_json?.length ?? 0) +
      (row.exceptions_json?.length ?? 0);
    if (bytes >= MAX_STATEMENT_BYTES || batch.length >= 500) await flush();
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
        s,
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

export type SnapshotColumn = 'tracking' | 'exceptions' | 'rest';

export interface StoredSnapshotRead {
  version: number;
  /** Characters of JSON read (after decompression), and bytes of REST's rendering as read (compressed). */
  bytes: number;
  tracking?: SnapshotTrackingParts;
  exceptions?: TrackingException[];
  /**
   * REST's `shipmentTracking` as stored, compressed (compressText: raw deflate of its UTF-8 JSON), when asked for
   * and stored in the current form (see STORED_FORM): a snapshot keeps it so (src/store/shipments/shipment-snapshot.ts,
   * renderings) and inflates it per answer. As the driver gave it, maybe a view of the statement's packet: a
   * snapshot that keeps it copies it (ShipmentSnapshot, ownBytes), one that answers one request does not.
   */
  restTrackingZ?: Buffer;
}

type StoredRow = InferResult<ReturnType<typeof snapshotQuery>>[number];

/** The read of these columns of stored snapshots as a KeyedStatement (keyed-lookups.ts), by shipment id. */
const snapshotStatements = new Map<string, KeyedStatement<StoredRow>>();

function snapshotStatement(tracking: boolean, exceptions: boolean, rest: boolean): KeyedStatement<StoredRow> {
  const name = `snapshot:${String(tracking)},${String(exceptions)},${String(rest)}`;
  let statement = snapshotStatements.get(name);
  if (!statement) {
    statement = {
      name,
      compile: (db, keys) => {
        const ids = keys.map((k) => k.values[0] as number);
        const query = snapshotQuery(db, tracking, exceptions, rest);
        return (ids.length === 1 ? query.where('shipment_id', '=', ids[0]!) : query.where('shipment_id', 'in', ids)).compile();
      },
      keyOf: (row) => String(row.shipment_id),
      strip: (row) => row as unknown as StoredRow,
    };
    snapshotStatements.set(name, statement);
  }
  return statement;
}

function snapshotQuery(db: Kysely<DatabaseSchema>, tracking: boolean, exceptions: boolean, rest: boolean) {
  return db
    .selectFrom('shipment_snapshot')
    .select(['shipment_id', 'version', 'stored_form'])
    .$if(tracking, (q) => q.select(['tracking_json', 'tracking_z']))
    .$if(exceptions, (q) => q.select(['exceptions_json', 'exceptions_z']))
    .$if(rest, (q) => q.select('rest_tracking_z'));
}

/**
 * The stored snapshot's asked-for columns, parsed (REST's rendering as text); undefined when the shipment has
 * none yet, or one of a form this build does not know. Reads only the columns asked for: a row holds each
 * part in the text column (stored_form 0) or in the compressed one, and both are selected, the other being
 * empty.
 */
export async function readStoredSnapshot(
  db: Kysely<DatabaseSchema>,
  shipmentId: number,
  columns: ReadonlySet<SnapshotColumn>,
): Promise<StoredSnapshotRead | undefined> {
  const wantTracking = columns.has('tracking');
  const wantExceptions = columns.has('exceptions');
  const wantRest = columns.has('rest');
  // First lookups of many shipments at once read their snapshots in one statement on MySQL/MariaDB.
  const row = await rowByKeyBatched(
    db,
    snapshotStatement(wantTracking, wantExceptions, wantRest),
    { values: [shipmentId], text: String(shipmentId) },
    [],
  );
  if (!row) return undefined;
  const form = Number(row.stored_form);
  if (form > STORED_FORM) return undefined;
  const out: StoredSnapshotRead = { version: Number(row.version), bytes: 0 };
  if (wantTracking && row.tracking_json !== undefined) {
    const json = form === 0 ? row.tracking_json : decompressText(row.tracking_z);
    out.bytes += json.length;
    out.tracking = JSON.parse(json) as SnapshotTrackingParts;
  }
  if (wantExceptions && row.exceptions_json !== undefined) {
    const json = form === 0 ? row.exceptions_json : decompressText(row.exceptions_z);
    out.bytes += json.length;
    out.exceptions = JSON.parse(json) as TrackingException[];
  }
  const rest = wantRest ? servedRestRendering(form, row.rest_tracking_z) : undefined;
  if (rest) {
    out.restTrackingZ = rest;
    out.bytes += rest.byteLength;
  }
  return out;
}

/** REST's rendering of a stored row, when the row holds one in the current form (see STORED_FORM). */
function servedRestRendering(form: number, restTrackingZ: Buffer | null | undefined): Buffer | undefined {
  return form === STORED_FORM && restTrackingZ ? restTrackingZ : undefined;
}

/** The stored snapshot's columns a lookup reads with the shipment's row (src/store/shipments/shipment-lookup.ts); null when it has none. */
export interface JoinedRestRendering {
  stored_version?: number | null;
  stored_form?: number | null;
  rest_tracking_z?: Buffer | null;
}

/**
 * REST's stored rendering as a lookup read it with the shipment's row: under readStoredSnapshot's rule
 * (servedRestRendering), and of the row's very version, as ShipmentSnapshot.storedRendering requires of a read
 * of its own. Null when there is none such: the caller renders through the schema, as without it. As the driver
 * gave it: a snapshot that keeps it copies it (ShipmentSnapshot, ownBytes).
 */
export function joinedRestRendering(row: JoinedRestRendering, version: number): Buffer | null {
  if (Number(row.stored_version) !== version) return null;
  return servedRestRendering(Number(row.stored_form), row.rest_tracking_z) ?? null;
}

/**
 * Rewrites rows stored in an older form (those written before migration 020: plain JSON, no REST rendering) in
 * the current one, `batchSize` rows per transaction, so that no lookup waits long on a row lock and an
 * interrupted run loses one batch at most. Each row is rebuilt from its own stored columns and the shipment
 * row at the same version (master data, etd/eta), and written only if neither has moved since it was read: a
 * shipment an ingest changed meanwhile already has a current row. Lookups keep answering throughout: a row
 * reads the same in either form. Returns the rows rewritten; safe to run again, and on several processes at
 * once (they only repeat each other's work).
 *
 * `pause` runs between batches (a background run gives the lookups room); `stop` ends the run after the
 * current batch.
 */
export async function backfillCompactSnapshots(
  db: Kysely<DatabaseSchema>,
  options: { batchSize?: number; span?: number; pause?: () => Promise<void>; stop?: () => boolean } = {},
): Promise<number> {
  const batchSize = options.batchSize ?? 100;
  // Nothing indexes stored_form: each statement looks at one span of primary keys only, so that a large store with
  // (nearly) every row compact already is walked in short statements, never one scan of the whole table that
  // outlives the statement timeout (it did at a million shipments).
  const top = await db
    .selectFrom('shipment_snapshot')
    .select((eb) => eb.fn.max('shipment_id').as('top'))
    .executeTakeFirst();
  const last = Number(top?.top ?? 0);
  let written = 0;
  let after = 0;
  while (after < last) {
    if (options.stop?.()) return written;
    const spanEnd = after + (options.span ?? SCAN_SPAN);
    const ids = await db
      .selectFrom('shipment_snapshot')
      .select('shipment_id')
      .where('stored_form', '<', STORED_FORM)
      .where('shipment_id', '>', after)
      .where('shipment_id', '<=', spanEnd)
      .orderBy('shipment_id')
      .limit(batchSize)
      .execute();
    // A full batch may leave more of this span; a short one finished it.
    after = ids.length === batchSize ? ids[ids.length - 1]!.shipment_id : spanEnd;
    if (ids.length === 0) continue;
    written += await inTransaction(db, (trx) =>
      compactRows(
        trx,
        ids.map((r) => r.shipment_id),
      ),
    );
    await options.pause?.();
  }
  return written;
}

/** Shipment ids one statement of the compaction's walk looks at. */
const SCAN_SPAN = 5_000;

/**
 * One batch of the backfill, in the caller's transaction. Reads without locking and writes each row only if it
 * is still the one read (same version, older form): an ingest that wrote the shipment's snapshot since wins.
 * The writes take the snapshot rows' locks in id order, as an ingest's do, and nothing else.
 */
async function compactRows(db: Kysely<DatabaseSchema>, ids: readonly number[]): Promise<number> {
  const rows = await db
    .selectFrom('shipment_snapshot as ss')
    .innerJoin('shipment as s', 's.id', 'ss.shipment_id')
    .select([
      'ss.shipment_id',
      'ss.version',
      'ss.stored_form',
      'ss.tracking_json',
      'ss.exceptions_json',
      'ss.tracking_z',
      'ss.exceptions_z',
      's.master_json',
      's.etd',
      's.eta',
    ])
    .where('ss.shipment_id', 'in', ids)
    .where('ss.stored_form', '<', STORED_FORM)
    // The shipment row at the snapshot's version: its master data and etd/eta are the snapshot's.
    .whereRef('s.version', '=', 'ss.version')
    .orderBy('ss.shipment_id')
    .execute();
  let written = 0;
  for (const r of rows) {
    const form = Number(r.stored_form);
    const tracking = JSON.parse(form === 0 ? r.tracking_json : decompressText(r.tracking_z)) as SnapshotTrackingParts;
    const exceptions = JSON.parse(form === 0 ? r.exceptions_json : decompressText(r.exceptions_z)) as TrackingException[];
    const master = parseShipmentMaster(r.master_json);
    const { shipment_id, version, ...columns } = snapshotRow({
      shipmentId: r.shipment_id,
      version: Number(r.version),
      tracking,
      exceptions,
      restTracking: restTrackingJson({ master, etd: r.etd, eta: r.eta, tracking, exceptions }),
    });
    const result = await db
      .updateTable('shipment_snapshot')
      .set(columns)
      .where('shipment_id', '=', shipment_id)
      .where('version', '=', version)
      .where('stored_form', '=', form)
      .executeTakeFirst();
    written += Number(result.numUpdatedRows);
  }
  return written;
}
