import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { SqlDialect } from '../../db/dialect.js';
import type { DatabaseSchema } from '../../db/schema.js';
import { detectEpisodes, explainLapse, type ExceptionEngineInput } from '../../domain/exception-engine.js';
import {
  reconcileExceptions,
  type ExceptionTransition,
  type LifecycleRow,
  type ReconcileResult,
} from '../../domain/exception-lifecycle.js';
import type { TrackingEvent } from '../../domain/types.js';
import { milestoneChanges, milestoneIndex, type MilestoneIndex } from '../../domain/milestone-changes.js';
import { pushTriggers, type PushTrigger } from '../../domain/push/push-triggers.js';
import { computeSchedule, splitByType } from '../../domain/snapshot.js';
import { containerLastEventTimes, loadShipmentStates, type ShipmentState } from '../shipments/chunked-state.js';
import { chunks } from '../batching/chunks.js';
import { loadLifecycleRows, writeReconciled, type Reconciled } from '../exceptions/exception-state.js';
import { encodeMilestonesJson } from '../shipments/milestones-payload.js';
import { writesCompact } from '../encoding/write-forms.js';
import { enqueuePushTriggers } from '../push/push-outbox.js';
import { storedSnapshotOf, writeSnapshots, type StoredSnapshot } from '../shipments/stored-snapshots.js';
import { DEFAULT_THRESHOLDS, type ExceptionThresholds } from '../../domain/thresholds.js';

/**
 * Derived state per shipment, recomputed from the append-only event store
 * whenever ingest (or the clock) touches a shipment, so that reads never
 * recompute: etd/eta on the shipment row, each container's last event time,
 * the stored exceptions (reconciled, never replaced: see exception-state),
 * the milestone index push delivery detects new milestones against, the
 * version that snapshot caches key on and the snapshot lookups serve at that
 * version (stored-snapshots.ts). The push triggers of the changes go to the
 * outbox in the same transaction (push-outbox.ts).
 */

export interface RefreshOptions {
  /**
   * True when the caller changed the shipment's master data or events, so its
   * version must move even if no derived value did. Default true.
   */
  contentChanged?: boolean;
  /** Exception thresholds; default docs/architecture.md, Exception rules. */
  thresholds?: ExceptionThresholds;
  /**
   * Events the caller stored in this transaction, by seq, exactly as stored (see loadShipmentStates): the refresh
   * takes these from here instead of reading them back.
   */
  storedEvents?: ReadonlyMap<number, TrackingEvent>;
  /** Triggers the caller's own change of a shipment caused (a merge: shipment-identity.ts), pushed before those of the refresh. */
  leadingTriggers?: ReadonlyMap<number, readonly PushTrigger[]>;
}

export interface RefreshResult {
  /** Shipments whose version was bumped. */
  bumped: number[];
  /** Exception transitions, per shipment, in the order they happened. */
  transitions: { shipmentId: number; transition: ExceptionTransition }[];
  /** Push triggers enqueued, per shipment. */
  triggers: Map<number, PushTrigger[]>;
}

/**
 * Recomputes the derived state of the given shipments inside the caller's
 * transaction. On MySQL/MariaDB the shipment rows are locked first (in id
 * order), so two transactions refreshing one shipment take turns instead of
 * reconciling its exceptions from the same stale state.
 */
export async function refreshShipments(
  db: Kysely<DatabaseSchema>,
  dialect: SqlDialect,
  shipmentIds: readonly number[],
  now: Date,
  options: RefreshOptions = {},
): Promise<RefreshResult> {
  const contentChanged = options.contentChanged ?? true;
  const thresholds = options.thresholds ?? DEFAULT_THRESHOLDS;
  const states = await loadShipmentStates(db, dialect, shipmentIds, options.storedEvents);
  const storedExceptions = await loadLifecycleRows(db, [...states.keys()]);
  const updatedAt = now.toISOString();
  const result: RefreshResult = { bumped: [], transitions: [], triggers: new Map() };
  const snapshots: StoredSnapshot[] = [];
  const containerTimes: ContainerLastEventAt[] = [];
  const reconciledAll: Reconciled[] = [];
  const bumps: DerivedColumns[] = [];
  for (const state of states.values()) {
    const schedule = computeSchedule(state.master, splitByType(state.events).transport);
    const scheduleChanged = schedule.etd !== state.etd || schedule.eta !== state.eta;
    for (const [containerNumber, lastEventAt] of containerLastEventTimes(state)) {
      if (state.containerLastEventAt.get(containerNumber) === lastEventAt) continue;
      containerTimes.push({ shipmentId: state.id, containerNumber, lastEventAt });
    }
    const stored = storedExceptions.get(state.id) ?? [];
    const reconciled = reconcileShipment(state, stored, now, thresholds);
    reconciledAll.push({ shipmentId: state.id, stored, result: reconciled });
    for (const transition of reconciled.transitions) result.transitions.push({ shipmentId: state.id, transition });

    const milestones = milestoneIndex(state.events);
    const milestonesJson = JSON.stringify(milestones);
    // No index yet (a shipment stored before push delivery): nothing to compare with, nothing pushed for milestones.
    const before = state.milestonesJson === null ? null : (JSON.parse(state.milestonesJson) as MilestoneIndex);
    const triggers = [
      ...(options.leadingTriggers?.get(state.id) ?? []),
      ...pushTriggers(before ? milestoneChanges(before, milestones) : [], reconciled.transitions),
    ];
    if (triggers.length > 0) result.triggers.set(state.id, triggers);

    const clockSensitive = isClockSensitive(state) ? 1 : 0;
    const exceptionsChanged = reconciled.servedChanged.size > 0;
    const milestonesChanged = milestonesJson !== state.milestonesJson;
    if (!contentChanged && !scheduleChanged && !exceptionsChanged && !milestonesChanged && clockSensitive === state.clockSensitive) {
      continue;
    }
    bumps.push({
      id: state.id,
      ...schedule,
      clock_sensitive: clockSensitive,
      ...(milestonesChanged ? { milestones_json: milestonesJson } : {}),
    });
    result.bumped.push(state.id);
    const exceptions = reconciled.rows.map((r) => r.body);
    snapshots.push(
      storedSnapshotOf(
        { id: state.id, version: state.version + 1, master: state.master, ...schedule },
        state.containers,
        state.events,
        exceptions,
      ),
    );
  }
  // Written set-based, a few statements per chunk of shipments; the shipment
  // rows are locked already (loadShipmentStates), and every statement
  // touches rows in key order.
  await writeContainerLastEventTimes(db, containerTimes);
  await writeReconciled(db, reconciledAll, now);
  await bumpVersions(db, updatedAt, bumps);
  await writeSnapshots(db, dialect, snapshots);
  await enqueuePushTriggers(db, result.triggers, now);
  return result;
}

/** Moves a shipment's version (what snapshot caches key on), with any derived columns that changed. */
export async function bumpVersion(
  db: Kysely<DatabaseSchema>,
  shipmentId: number,
  updatedAt: string,
  derived: { etd?: string | null; eta?: string | null; clock_sensitive?: number } = {},
): Promise<void> {
  await db
    .updateTable('shipment')
    .set((eb) => ({ ...derived, version: eb('version', '+', 1), updated_at: updatedAt }))
    .where('id', '=', shipmentId)
    .execute();
}

/** The derived columns a refresh writes with a version bump (milestones_json only when it changed). */
interface DerivedColumns {
  id: number;
  etd: string | null;
  eta: string | null;
  clock_sensitive: number;
  milestones_json?: string;
}

/**
 * Rows per set-based UPDATE. The server evaluates a CASE branch by branch for
 * each row, so a statement costs rows squared: 100 rows per statement took a
 * third less than 500 for 1,695 shipments on MariaDB.
 */
const ROWS_PER_UPDATE = 100;

/** `CASE WHEN <key of row> THEN <value> ... ELSE <column> END`: a per-row value in one UPDATE; rows not listed keep theirs. */
function perRow<R, V>(rows: readonly R[], key: (row: R) => RawBuilder<unknown>, value: (row: R) => V, column: string): RawBuilder<V> {
  return sql<V>`case ${sql.join(
    rows.map((r) => sql`when ${key(r)} then ${value(r)}`),
    sql` `,
  )} else ${sql.ref(column)} end`;
}

/** bumpVersion for many shipments: one UPDATE per chunk. */
async function bumpVersions(db: Kysely<DatabaseSchema>, updatedAt: string, rows: readonly DerivedColumns[]): Promise<void> {
  const id = (r: { id: number }) => sql`${sql.ref('id')} = ${r.id}`;
  const compact = writesCompact(db);
  for (const batch of chunks(rows, ROWS_PER_UPDATE)) {
    const milestones = batch.flatMap((r) => (r.milestones_json === undefined ? [] : [{ id: r.id, json: r.milestones_json }]));
    await db
      .updateTable('shipment')
      .set((eb) => ({
        etd: perRow(batch, id, (r) => r.etd, 'etd'),
        eta: perRow(batch, id, (r) => r.eta, 'eta'),
        clock_sensitive: perRow(batch, id, (r) => r.clock_sensitive, 'clock_sensitive'),
        // The compact form (src/store/shipments/milestones-payload.ts), and no plain text beside it: a row converted by
        // migration 023's backfill or written since reads its milestones from `milestones` alone. Until the upgrade
        // is finished, the plain text the previous release reads, and no compact form that would shadow it
        // (src/store/encoding/write-forms.ts).
        ...(milestones.length > 0
          ? compact
            ? {
                milestones: perRow(milestones, id, (r) => encodeMilestonesJson(r.json), 'milestones'),
                milestones_json: perRow(milestones, id, () => null, 'milestones_json'),
              }
            : {
                milestones: perRow(milestones, id, () => null, 'milestones'),
                milestones_json: perRow(milestones, id, (r) => r.json, 'milestones_json'),
              }
          : {}),
        version: eb('version', '+', 1),
        updated_at: updatedAt,
      }))
      .where(
        'id',
        'in',
        batch.map((r) => r.id),
      )
      .execute();
  }
}

interface ContainerLastEventAt {
  shipmentId: number;
  containerNumber: string;
  lastEventAt: string | null;
}

/** Sets the containers' last_event_at: one UPDATE per chunk. */
async function writeContainerLastEventTimes(db: Kysely<DatabaseSchema>, rows: readonly ContainerLastEventAt[]): Promise<void> {
  const key = (r: ContainerLastEventAt) =>
    sql`${sql.ref('shipment_id')} = ${r.shipmentId} and ${sql.ref('container_number')} = ${r.containerNumber}`;
  for (const batch of chunks(rows, ROWS_PER_UPDATE)) {
    await db
      .updateTable('shipment_container')
      .set({ last_event_at: perRow(batch, key, (r) => r.lastEventAt, 'last_event_at') })
      .where('shipment_id', 'in', [...new Set(batch.map((r) => r.shipmentId))])
      .execute();
  }
}

/**
 * Whether the shipment's exceptions can change with the clock alone: some
 * container has a free-time expiry and has not yet been returned empty, so a
 * demurrage or detention window may open or pass without any new event.
 */
export function isClockSensitive(state: ShipmentState): boolean {
  const returned = new Set(
    state.events
      .filter(
        (e) =>
          e.eventType === 'EQUIPMENT' &&
          e.eventClassifierCode === 'ACT' &&
          e.equipmentEventTypeCode === 'GTIN' &&
          e.emptyIndicatorCode === 'EMPTY',
      )
      .map((e) => (e.eventType === 'EQUIPMENT' ? e.equipmentReference : '')),
  );
  return state.containers.some((c) => c.references.free_time_exp_dt && !returned.has(c.containerNumber));
}

/** Reconciles a shipment's stored exceptions with the episodes of its facts at `now` (pure). */
export function reconcileShipment(
  state: ShipmentState,
  stored: readonly LifecycleRow[],
  now: Date,
  thresholds: ExceptionThresholds,
): ReconcileResult {
  const facts: ExceptionEngineInput = {
    shipment: state.master,
    containers: state.containers,
    events: state.events,
    now: now.toISOString(),
    thresholds,
  };
  return reconcileExceptions({
    shipment: state.master,
    stored,
    episodes: detectEpisodes(facts),
    now: facts.now,
    explainLapse: (type, condition) => explainLapse(facts, type, condition),
  });
}
