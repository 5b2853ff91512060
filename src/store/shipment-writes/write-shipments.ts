import type { Db } from '../../db/connect.js';
import { lockForUpdate, rowsPerInsert, skipDuplicateKeys, type SqlDialect } from '../../db/dialect.js';
import { recordsDigest, statedContent, statementOf, supersedes, type Statement } from '../../domain/statements.js';
import { recordAccessChanges } from '../access/access-changes.js';
import { chunks } from '../batching/chunks.js';
import type { ShipmentInput } from '../../domain/bundle.js';
import { resolveShipmentIdentities, type Rekeyed } from '../shipments/shipment-identity.js';

/**
 * Upserts the shipments of a bundle by (carrier_code, carrier_booking_reference)
 * inside the caller's transaction. Only what differs from the stored state is
 * written, so re-ingesting the same shipments writes nothing.
 *
 * - each entry is a statement as of a time (src/domain/statements.ts): one
 *   older than the statement a shipment holds, or a replay of one, changes
 *   neither its master data nor its containers (docs/architecture.md, Ingest
 *   bundle);
 * - master data (master_json and its key columns) is replaced;
 * - containers are replaced as a list (order kept in `position`);
 * - accounts are added to the stored ones, never removed, whatever the
 *   statement's time: visibility is granted by whoever loads the data, and
 *   a partial re-send (one account's feed) must not revoke another account's
 *   access. Revoking is an operator action (shipment-access.ts), not an
 *   ingest side effect, and an account revoked there is never granted again
 *   by ingest. Each account added is a GRANTED change of that account, written
 *   here with the grant (src/store/access/access-changes.ts).
 */

export interface ShipmentChanges {
  created: number[];
  /** Existing shipments whose master data, containers or accounts changed. */
  updated: number[];
  /** Existing shipments whose master data or containers changed (their derived state must be refreshed). */
  contentChanged: number[];
  /** Entries that stated nothing new: the shipment holds this statement or a newer one. */
  outdated: number;
  /** Shipments whose link keys (booking, bill of lading, container numbers) changed, so their links must be recomputed. */
  linkKeysChanged: number[];
  /** Stand-in shipments that took their real booking (shipment-identity.ts); also in updated, contentChanged and linkKeysChanged. */
  rekeyed: Rekeyed[];
  /** Accounts given a shipment (new ones included), each recorded as a GRANTED change. */
  granted: { shipmentId: number; accountId: string }[];
}

interface StoredShipment {
  id: number;
  masterJson: string;
  billOfLadingNumber: string | null;
  statedAt: string | null;
  containers: { number: string; json: string }[];
  accounts: Set<string>;
  revoked: Set<string>;
  digests: Set<string>;
}

const shipmentKey = (carrierCode: string, carrierBookingReference: string) => `${carrierCode} ${carrierBookingReference}`;

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
  given: readonly ShipmentInput[],
  updatedAt: string,
  generatedDateTime?: string,
): Promise<ShipmentChanges> {
  const changes: ShipmentChanges = {
    created: [],
    updated: [],
    contentChanged: [],
    outdated: 0,
    linkKeysChanged: [],
    rekeyed: [],
    granted: [],
  };
  if (given.length === 0) return changes;
  // Each entry under the booking of the shipment it is about: one shipment per bill of lading (shipment-identity.ts).
  const { inputs, rekeyed } = await resolveShipmentIdentities(db, dialect, given, updatedAt);
  changes.rekeyed = rekeyed;
  const statements = new Map(inputs.map((s) => [s, statementOf(s, generatedDateTime, updatedAt)]));
  const stored = await loadStoredShipments(
    db,
    dialect,
    inputs,
    [...statements.values()].map((s) => s.digest),
  );
  const digests: { shipment_id: number; digest: string; stated_at: string }[] = [];
  const recordDigest = (shipmentId: number, statement: Statement) => {
    if (recordsDigest(statement)) digests.push({ shipment_id: shipmentId, digest: statement.digest, stated_at: statement.statedAt });
  };

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
          master_json: JSON.stringify(statedContent(s).master),
          updated_at: updatedAt,
          stated_at: statements.get(s)?.statedAt ?? updatedAt,
          booking_stand_in: s.derivedBooking === 'STAND_IN' ? 1 : 0,
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
    const statement = statements.get(input) as Statement;
    const freshId = freshIds.get(key);
    if (freshId !== undefined) {
      changes.created.push(freshId);
      containers.push(...containerRows(freshId, input));
      accounts.push(...input.accounts.map((account_id) => ({ shipment_id: freshId, account_id })));
      recordDigest(freshId, statement);
      continue;
    }
    const current = stored.get(key);
    if (!current) throw new Error(`shipment ${key} was neither found nor created`);
    const addedAccounts = input.accounts.filter((a) => !current.accounts.has(a) && !current.revoked.has(a));
    accounts.push(...addedAccounts.map((account_id) => ({ shipment_id: current.id, account_id })));
    const applies = supersedes(statement, { statedAt: current.statedAt, digestSeen: current.digests.has(statement.digest) });
    if (!current.digests.has(statement.digest)) recordDigest(current.id, statement);
    if (!applies) {
      changes.outdated += 1;
      if (addedAccounts.length > 0) changes.updated.push(current.id);
      continue;
    }

    const masterJson = JSON.stringify(statedContent(input).master);
    const wanted = containerRows(current.id, input);
    const containersChanged =
      wanted.length !== current.containers.length ||
      wanted.some((c, i) => c.container_number !== current.containers[i]?.number || c.master_json !== current.containers[i]?.json);
    const masterChanged = masterJson !== current.masterJson;
    if (masterChanged || statement.statedAt !== current.statedAt) {
      // The statement's time moves even when its content is what the shipment holds: older ones are refused from now on.
      await db
        .updateTable('shipment')
        .set({
          booking_reference: input.bookingReference ?? null,
          bill_of_lading_number: input.billOfLadingNumber ?? null,
          master_json: masterJson,
          stated_at: statement.statedAt,
          ...(masterChanged ? { updated_at: updatedAt } : {}),
        })
        .where('id', '=', current.id)
        .execute();
    }
    if (!masterChanged && !containersChanged) {
      if (addedAccounts.length > 0) changes.updated.push(current.id);
      continue;
    }
    changes.updated.push(current.id);
    changes.contentChanged.push(current.id);
    if (containersChanged) {
      replaceContainersOf.push(current.id);
      containers.push(...wanted);
    }
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
  // Exactly the accounts added: the shipments' rows are held (locked above, or inserted by this transaction),
  // so no other writer added one of them since they were read.
  changes.granted = [...new Map(accounts.map((a) => [`${a.shipment_id} ${a.account_id}`, a])).values()].map((a) => ({
    shipmentId: a.shipment_id,
    accountId: a.account_id,
  }));
  await recordAccessChanges(
    db,
    changes.granted.map((g) => ({ ...g, triggerType: 'GRANTED' })),
    new Date(updatedAt),
  );
  for (const batch of chunks(digests, rowsPerInsert(3))) {
    // The same statement twice in one transaction (or a concurrent ingest of it) records it once.
    await skipDuplicateKeys(dialect, db.insertInto('shipment_statement').values(batch)).execute();
  }
  // A new booking is new content (the snapshot names it) and a new key events link by, whatever the statement did.
  const add = (list: number[], ids: number[]) => list.push(...ids.filter((id) => !list.includes(id)));
  const rekeyedIds = rekeyed.map((r) => r.shipmentId);
  add(changes.updated, rekeyedIds);
  add(changes.contentChanged, rekeyedIds);
  add(changes.linkKeysChanged, rekeyedIds);
  return changes;
}

/** Stored state of those inputs that already exist, by shipmentKey. */
async function loadStoredShipments(
  db: Db,
  dialect: SqlDialect,
  inputs: readonly ShipmentInput[],
  digests: readonly string[],
): Promise<Map<string, StoredShipment>> {
  const byKey = new Map<string, StoredShipment>();
  const byId = new Map<number, StoredShipment>();
  for (const [carrierCode, references] of bookingReferencesByCarrier(inputs)) {
    for (const batch of chunks(references)) {
      // Locked on MySQL/MariaDB: of two ingests stating the same shipment, the second reads what the first wrote
      // (its statement time included) instead of both deciding from the same stale row.
      const rows = await lockForUpdate(
        dialect,
        db
          .selectFrom('shipment')
          .select(['id', 'carrier_booking_reference', 'master_json', 'bill_of_lading_number', 'stated_at'])
          .where('carrier_code', '=', carrierCode)
          .where('carrier_booking_reference', 'in', batch)
          .orderBy('id'),
      ).execute();
      for (const row of rows) {
        const shipment: StoredShipment = {
          id: row.id,
          masterJson: row.master_json,
          billOfLadingNumber: row.bill_of_lading_number,
          statedAt: row.stated_at,
          containers: [],
          accounts: new Set(),
          revoked: new Set(),
          digests: new Set(),
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
    const revoked = await db
      .selectFrom('shipment_account_revocation')
      .select(['shipment_id', 'account_id'])
      .where('shipment_id', 'in', ids)
      .execute();
    for (const r of revoked) byId.get(r.shipment_id)?.revoked.add(r.account_id);
    for (const batch of chunks([...new Set(digests)])) {
      const seen = await db
        .selectFrom('shipment_statement')
        .select(['shipment_id', 'digest'])
        .where('shipment_id', 'in', ids)
        .where('digest', 'in', batch)
        .execute();
      for (const d of seen) byId.get(d.shipment_id)?.digests.add(d.digest);
    }
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
