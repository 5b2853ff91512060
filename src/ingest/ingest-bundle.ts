import type { Database, Db } from '../db/connect.js';
import type { SqlDialect } from '../db/dialect.js';
import { inTransaction, INGEST_TRANSACTION_RETRY } from '../db/retry-transaction.js';
import type { ExceptionTransition } from '../domain/exception-lifecycle.js';
import { refreshShipments } from '../store/shipment-writes/derived-state.js';
import type { IngestBundle } from '../domain/bundle.js';
import { linkNewEvents, linkShipmentsToStoredEvents } from '../store/events/link-events.js';
import { storeEvents, type StoredEvents } from '../store/events/write-events.js';
import { storeShipments } from '../store/shipment-writes/write-shipments.js';
import { enqueueDcsaNotifications, enqueueGrantedEvents, linkedEventSeqs } from '../store/push/dcsa-outbox.js';
import type { ExceptionThresholds } from '../domain/thresholds.js';

/**
 * Writes a validated bundle (see parseBundle) in one transaction: nothing of
 * it is stored when any step fails. Re-ingesting a bundle changes nothing,
 * not even a shipment's version.
 */

export interface IngestOptions {
  /** The clock for ingested_at / updated_at and the time-based exception rules. */
  now: () => Date;
  /** Exception thresholds for the refresh; default docs/architecture.md, Exception rules. */
  thresholds?: ExceptionThresholds;
  /**
   * Called after the commit with the shipments whose snapshot may have
   * changed (e.g. to drop cached snapshots); not called when none did.
   * @NOTE the data is committed by then: an error thrown here rejects the
   * ingest call although the bundle is stored.
   */
  onTouched?: (shipmentIds: readonly number[]) => void | Promise<void>;
}

export interface IngestSummary {
  shipmentsCreated: number;
  /** Existing shipments whose master data, containers or accounts changed (a stand-in booking replaced by the real one included). */
  shipmentsUpdated: number;
  /**
   * Shipment entries that changed no master data or containers because the
   * shipment already holds this statement or a newer one (a replay, a late
   * copy); their accounts were still granted.
   */
  shipmentsOutdated: number;
  /** Events appended to the store. */
  eventsStored: number;
  /** Events skipped because their eventID was already stored. */
  eventsAlreadyStored: number;
  /** Of the events stored now, those matching no shipment yet (kept; linked when the shipment arrives). */
  eventsUnlinked: number;
  /** Shipments whose derived state was recomputed (new or changed master data, or new events). */
  shipmentsRefreshed: number;
  /** Exception transitions this bundle caused, in order (committed with it). */
  exceptionTransitions: ExceptionTransition[];
}

export async function ingestBundle(database: Database, bundle: IngestBundle, options: IngestOptions): Promise<IngestSummary> {
  const now = options.now();
  // Overlapping ingests collide (deadlocks and certification conflicts on MySQL/MariaDB/Galera, SQLITE_BUSY, a
  // unique key the other one inserted first): the whole transaction runs
  // again, reading what the other committed (retry-transaction.ts).
  const result = await inTransaction(
    database.db,
    (trx) => writeBundle(trx, database.dialect, bundle, now, options.thresholds),
    INGEST_TRANSACTION_RETRY,
  );
  if (result.touched.length > 0) await options.onTouched?.(result.touched);
  return result.summary;
}

interface Written {
  summary: IngestSummary;
  touched: number[];
}

async function writeBundle(
  trx: Db,
  dialect: SqlDialect,
  bundle: IngestBundle,
  now: Date,
  thresholds: ExceptionThresholds | undefined,
): Promise<Written> {
  const at = now.toISOString();
  const shipments = await storeShipments(trx, dialect, bundle.shipments, at, bundle.generatedDateTime);
  // Before the bundle's events are stored, so these statements only scan
  // what was there before; the new events are linked right after.
  const linkedBefore = shipments.linkKeysChanged.length > 0 ? new Set(await linkedEventSeqs(trx, shipments.linkKeysChanged)) : null;
  await linkShipmentsToStoredEvents(trx, dialect, shipments.created, shipments.linkKeysChanged);

  let events: StoredEvents = { storedSeqs: [], stored: new Map(), alreadyStored: 0 };
  let links = { shipmentIds: new Set<number>(), unlinked: 0 };
  if (bundle.events.length > 0) {
    if (!bundle.carrierCode) throw new Error('a bundle with events needs its carrierCode (parseBundle enforces this)');
    events = await storeEvents(trx, dialect, bundle.carrierCode, bundle.events, at);
    links = await linkNewEvents(trx, dialect, bundle.carrierCode, events.storedSeqs);
  }

  // A grant of accounts alone changes nothing derived (snapshots hold no accounts): only new content refreshes.
  const touched = [...new Set([...shipments.created, ...shipments.contentChanged, ...links.shipmentIds])].sort((a, b) => a - b);
  // A stand-in shipment that took its real booking: one change in the log, before what the bundle's data changed.
  const leadingTriggers = new Map(
    shipments.rekeyed.map((r) => [r.shipmentId, [{ triggerType: 'SHIPMENT_MERGED' as const, eventID: null, exceptionID: null }]]),
  );
  const refreshed =
    touched.length > 0
      ? await refreshShipments(trx, dialect, touched, now, { thresholds, storedEvents: events.stored, leadingTriggers })
      : null;
  // DCSA event subscriptions: the new events, and stored ones a new shipment (or a new bill of lading or
  // container of a shipment) links (docs/dcsa-events.md: Consuming the service as a DCSA publisher).
  const earlier = shipments.created.length > 0 ? await linkedEventSeqs(trx, shipments.created) : [];
  const relinked = linkedBefore ? (await linkedEventSeqs(trx, shipments.linkKeysChanged)).filter((seq) => !linkedBefore.has(seq)) : [];
  const notified = [...earlier, ...relinked, ...events.storedSeqs];
  // An account given an existing shipment: its subscriptions get the shipment's past events first (a new
  // shipment's are all in `notified`, for every account that sees it).
  const created = new Set(shipments.created);
  await enqueueGrantedEvents(
    trx,
    dialect,
    shipments.granted.filter((g) => !created.has(g.shipmentId)),
    notified,
    now,
  );
  await enqueueDcsaNotifications(trx, dialect, notified, now);
  return {
    touched,
    summary: {
      shipmentsCreated: shipments.created.length,
      shipmentsUpdated: shipments.updated.length,
      shipmentsOutdated: shipments.outdated,
      eventsStored: events.storedSeqs.length,
      eventsAlreadyStored: events.alreadyStored,
      eventsUnlinked: links.unlinked,
      shipmentsRefreshed: touched.length,
      exceptionTransitions: refreshed?.transitions.map((t) => t.transition) ?? [],
    },
  };
}
