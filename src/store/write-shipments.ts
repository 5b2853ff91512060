import type { Db } from '../db/connect.js';
import { rowsPerInsert, skipDuplicateKeys, type SqlDialect } from '../db/dialect.js';
import type { ShipmentMaster } from '../domain/types.js';
import { chunks } from './chunked-state.js';
import type { ShipmentInput } from '../domain/bundle.js';

/**
 * Upserts the shipments of a bundle by (carrier_code, carrier_booking_reference)
 * inside the caller's transaction. Only what differs from the stored state is
 * written, so re-ingesting the same shipments writes nothing.
 *
 * - master data (master_json and its key columns) is replaced;
 * - containers are replaced as a list (order kept in `position`);
 * - accounts are added to the stored ones, never removed: visibility is
 *   granted by whoever loads the data, and a partial re-send (one account's
 *   feed) must not revoke another account's access. Revoking is an operator
 *   action, not an ingest side effect.
 */

export interface ShipmentChanges {
  created: number[];
  /** Existing shipments whose master data, containers or accounts changed. */
  updated: number[];
  /** Shipments whose link keys (bill of lading, container numbers) changed, so their links must be recomputed. */
  linkKeysChanged: number[];
}

interface StoredShipment {
  id: number;
  masterJson: string;
  billOfLadingNumber: string | null;
  containers: { number: string; json: string }[];
  accounts: Set<string>;
}

const shipmentKey = (carrierCode: string, carrierBookingReference: string) => `${carrierCode} ${carrierBookingReference}`;

function masterOf(input: ShipmentInput): ShipmentMaster {
  const { accounts: _accounts, containers: _containers, ...master } = input;
  return master;
}

function containerRows(shipmentId: number, input: ShipmentInput) {
  return input.containers.map((container, position) => ({
    shipment_id: shipmentId,
    container_number: container.containerNumber,
    master_json: JSON.stringify(container),
    position,
  }));
}

export async function storeShipments(
  db: Db,
  dialect: SqlDialect,
  inputs: readonly ShipmentInput[],
  updatedAt: string,
): Promise<ShipmentChanges> {
  const changes: ShipmentChanges = { created: [], updated: [], linkKeysChanged: [] };
  if (inputs.length === 0) return changes;
  const stored = await loadStoredShipments(db, inputs);

  const fresh = inputs.filter((s) => !stored.has(shipmentKey(s.carrierCode, s.carrierBookingReference)));
  for (const batch of chunks(fresh, rowsPerInsert(6))) {
    await db
      .insertInto('shipment')
      .values(
        batch.map((s) => ({
          carrier_code: s.carrierCode,
          carrier_booking_reference: s.carrierBookingReference,
          booking_reference: s.bookingReference ?? null,
          bill_of_lading_number: s.billOfLadingNumber ?? null,
          master_json: JSON.stringify(masterOf(s)),
          updated_at: updatedAt,
        })),
      )
      .execute();
  }
  const freshIds = await loadShipmentIds(db, fresh);

  const containers: ReturnType<typeof containerRows> = [];
  const accounts: { shipment_id: number; account_id: string }[] = [];
  const replaceContainersOf: number[] = [];
  for (const input of inputs) {
    const key = shipmentKey(input.carrierCode, input.carrierBookingReference);
    const freshId = freshIds.get(key);
    if (freshId !== undefined) {
      changes.created.push(freshId);
      containers.push(...containerRows(freshId, input));
      accounts.push(...input.accounts.map((account_id) => ({ shipment_id: freshId, account_id })));
      continue;
    }
    const current = stored.get(key);
    if (!current) throw new Error(`shipment ${key} was neither found nor created`);
    const masterJson = JSON.stringify(masterOf(input));
    const wanted = containerRows(current.id, input);
    const containersChanged =
      wanted.length !== current.containers.length ||
      wanted.some((c, i) => c.container_number !== current.containers[i]?.number || c.master_json !== current.containers[i]?.json);
    const addedAccounts = input.accounts.filter((a) => !current.accounts.has(a));
    if (masterJson === current.masterJson && !containersChanged && addedAccounts.length === 0) continue;

    changes.updated.push(current.id);
    if (masterJson !== current.masterJson) {
      await db
        .updateTable('shipment')
        .set({
          booking_reference: input.bookingReference ?? null,
          bill_of_lading_number: input.billOfLadingNumber ?? null,
          master_json: masterJson,
          updated_at: updatedAt,
        })
        .where('id', '=', current.id)
        .execute();
    }
    if (containersChanged) {
      replaceContainersOf.push(current.id);
      containers.push(...wanted);
    }
    accounts.push(...addedAccounts.map((account_id) => ({ shipment_id: current.id, account_id })));
    const numbersBefore = current.containers
      .map((c) => c.number)
      .sort()
      .join(' ');
    const numbersAfter = wanted
      .map((c) => c.container_number)
      .sort()
      .join(' ');
    if ((input.billOfLadingNumber ?? null) !== current.billOfLadingNumber || numbersBefore !== numbersAfter) {
      changes.linkKeysChanged.push(current.id);
    }
  }

  for (const ids of chunks(replaceContainersOf)) {
    await db.deleteFrom('shipment_container').where('shipment_id', 'in', ids).execute();
  }
  for (const batch of chunks(containers, rowsPerInsert(4))) {
    await db.insertInto('shipment_container').values(batch).execute();
  }
  for (const batch of chunks(accounts, rowsPerInsert(2, 1000))) {
    // Duplicates are possible only through a concurrent ingest granting the same account.
    await skipDuplicateKeys(dialect, db.insertInto('shipment_account').values(batch)).execute();
  }
  return changes;
}

/** Stored state of those inputs that already exist, by shipmentKey. */
async function loadStoredShipments(db: Db, inputs: readonly ShipmentInput[]): Promise<Map<string, StoredShipment>> {
  const byKey = new Map<string, StoredShipment>();
  const byId = new Map<number, StoredShipment>();
  for (const [carrierCode, references] of bookingReferencesByCarrier(inputs)) {
    for (const batch of chunks(references)) {
      const rows = await db
        .selectFrom('shipment')
        .select(['id', 'carrier_booking_reference', 'master_json', 'bill_of_lading_number'])
        .where('carrier_code', '=', carrierCode)
        .where('carrier_booking_reference', 'in', batch)
        .execute();
      for (const row of rows) {
        const shipment: StoredShipment = {
          id: row.id,
          masterJson: row.master_json,
          billOfLadingNumber: row.bill_of_lading_number,
          containers: [],
          accounts: new Set(),
        };
        byKey.set(shipmentKey(carrierCode, row.carrier_booking_reference), shipment);
        byId.set(row.id, shipment);
      }
    }
  }
  for (const ids of chunks([...byId.keys()])) {
    const containers = await db
      .selectFrom('shipment_container')
      .select(['shipment_id', 'container_number', 'master_json'])
      .where('shipment_id', 'in', ids)
      .orderBy('shipment_id')
      .orderBy('position')
      .execute();
    for (const c of containers) byId.get(c.shipment_id)?.containers.push({ number: c.container_number, json: c.master_json });
    const accounts = await db
      .selectFrom('shipment_account')
      .select(['shipment_id', 'account_id'])
      .where('shipment_id', 'in', ids)
      .execute();
    for (const a of accounts) byId.get(a.shipment_id)?.accounts.add(a.account_id);
  }
  return byKey;
}

/** Ids of just-inserted shipments (MySQL has no RETURNING), by shipmentKey. */
async function loadShipmentIds(db: Db, inputs: readonly ShipmentInput[]): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const [carrierCode, references] of bookingReferencesByCarrier(inputs)) {
    for (const batch of chunks(references)) {
      const rows = await db
        .selectFrom('shipment')
        .select(['id', 'carrier_booking_reference'])
        .where('carrier_code', '=', carrierCode)
        .where('carrier_booking_reference', 'in', batch)
        .execute();
      for (const row of rows) ids.set(shipmentKey(carrierCode, row.carrier_booking_reference), row.id);
    }
  }
  return ids;
}

function bookingReferencesByCarrier(inputs: readonly ShipmentInput[]): Map<string, string[]> {
  const byCarrier = new Map<string, string[]>();
  for (const s of inputs) {
    const list = byCarrier.get(s.carrierCode);
    if (list) list.push(s.carrierBookingReference);
    else byCarrier.set(s.carrierCode, [s.carrierBookingReference]);
  }
  return byCarrier;
}
