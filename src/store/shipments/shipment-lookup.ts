import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { DatabaseSchema } from '../../db/schema.js';
import { firstRowBatched } from '../batching/batched-lookups.js';
import { chunks } from '../batching/chunks.js';
import { rowByKeyBatched, type KeyedStatement } from '../batching/keyed-lookups.js';
import { joinedRestRendering, type JoinedRestRendering } from './stored-snapshots.js';

/**
 * The lookup rules of docs/architecture.md, REST contract as one SQL statement: the shipment
 * that matches every given parameter and that one of the caller's accounts
 * may see. Tenant filtering is part of the same query, so a shipment of
 * another account is indistinguishable from one that does not exist.
 */

export interface ShipmentLookup {
  carrierCode?: string;
  carrierBookingReference?: string;
  billOfLadingNumber?: string;
  equipmentReference?: string;
}

/** The shipment row as the snapshot reads it; `etd`/`eta` are derived at ingest. */
export interface ShipmentRow {
  id: number;
  carrier_code: string;
  carrier_booking_reference: string;
  master_json: string;
  etd: string | null;
  eta: string | null;
  version: number;
  /**
   * REST's stored rendering of this very version, compressed, read in the lookup's own statement when the caller
   * asked for it (FindOptions.restRendering); null when none such is stored; absent when not asked for.
   */
  restRenderingZ?: Buffer | null;
}

export interface FindOptions {
  /**
   * Read REST's stored rendering with the row (a left join on the stored snapshot, by primary key): a caller
   * that will answer with it unless the snapshot cache holds it (a REST lookup without If-None-Match, a GraphQL
   * selection made from it) saves the statement of its own that a cache miss would cost
   * (ShipmentSnapshot.storedRendering). A 304 needs the version alone, and does not ask.
   */
  restRendering?: boolean;
}

export function findShipment(
  db: Kysely<DatabaseSchema>,
  lookup: ShipmentLookup,
  accountIds: readonly string[],
  options: FindOptions = {},
): Promise<ShipmentRow | null> {
  if (accountIds.length === 0) return Promise.resolve(null);
  const rest = options.restRendering === true;
  // The read itself, not a promise around it: a poll's lookup is most of what it waits for.
  const read = lookupRow(db, lookup, accountIds, rest);
  const booking = lookup.carrierBookingReference;
  return booking === undefined ? read : read.then((row) => row ?? underAlias(db, lookup, booking, accountIds, rest));
}

/**
 * A booking reference the shipment was known by (a stand-in its real booking replaced) still names it
 * (docs/architecture.md, Identity): the same lookup again under its booking now. Only a miss pays this.
 */
async function underAlias(
  db: Kysely<DatabaseSchema>,
  lookup: ShipmentLookup,
  booking: string,
  accountIds: readonly string[],
  rest: boolean,
): Promise<ShipmentRow | null> {
  const current = await bookingOfAlias(db, lookup.carrierCode, booking);
  if (current === null) return null;
  return lookupRow(db, { ...lookup, ...current }, accountIds, rest);
}

/**
 * The lookup's row. On MySQL/MariaDB the lookups of one turn of the event loop share statements: those by
 * booking and/or bill of lading (every poll of REST's forms (a) and (b)) as one key list per account set
 * (keyed-lookups.ts), those by container as UNION branches (batched-lookups.ts: each keeps its own ORDER BY).
 */
function lookupRow(
  db: Kysely<DatabaseSchema>,
  lookup: ShipmentLookup,
  accountIds: readonly string[],
  rest: boolean,
): Promise<ShipmentRow | null> {
  if (lookup.equipmentReference !== undefined) {
    const read = firstRowBatched<ShipmentRow>(db, boundLookup(db, lookup, accountIds, rest));
    return rest ? read.then((row) => row && withRestRendering(row)) : read;
  }
  const columns = KEY_COLUMNS.filter(([k]) => lookup[k] !== undefined);
  const values = columns.map(([k]) => lookup[k] as string);
  return rowByKeyBatched(db, keyedLookupStatement(columns, rest), { values, text: JSON.stringify(values) }, accountIds);
}

/** The row with the stored snapshot's joined columns made into its `restRenderingZ` (joinedRestRendering's rules). */
function withRestRendering(row: ShipmentRow): ShipmentRow {
  const joined = row as ShipmentRow & JoinedRestRendering;
  row.restRenderingZ = joinedRestRendering(joined, row.version);
  delete joined.stored_version;
  delete joined.stored_form;
  delete joined.rest_tracking_z;
  return row;
}

/** The lookup parameters that a key list can hold, with their columns, in the order a key lists them. */
const KEY_COLUMNS = [
  ['carrierCode', 'carrier_code'],
  ['carrierBookingReference', 'carrier_booking_reference'],
  ['billOfLadingNumber', 'bill_of_lading_number'],
] as const;

type KeyColumn = (typeof KEY_COLUMNS)[number];

const keyedStatements = new Map<string, KeyedStatement<ShipmentRow>>();

/**
 * The lookup by the given key columns as a KeyedStatement. Of several shipments one key names (a bill of lading
 * that covers several bookings, docs/lookups-and-polling.md, Identity) a lookup gets the lowest id, alone or
 * batched, on both stores.
 */
function keyedLookupStatement(columns: readonly KeyColumn[], rest: boolean): KeyedStatement<ShipmentRow> {
  const name = `shipment-by:${columns.map(([k]) => k).join(',')}${rest ? '+rest' : ''}`;
  let statement = keyedStatements.get(name);
  if (statement) return statement;
  const keyColumns = columns.map(([, column]) => column);
  // Each key column is selected again under an alias the batch alone reads, and dropped before the row is handed on.
  const aliases = keyColumns.map((c) => KEY_ALIAS + c);
  statement = {
    name,
    compile(db, keys, accountIds) {
      const values: Record<string, unknown> = {};
      keys.forEach((key, k) => key.values.forEach((v, i) => (values[`key${k}_${i}`] = v)));
      accountIds.forEach((id, i) => (values[`account${i}`] = id));
      return bindPlaceholders(compiledKeyedLookup(db, name, keyColumns, keys.length, accountIds.length, rest), values);
    },
    keyOf: (row) => JSON.stringify(aliases.map((a) => String(row[a]))),
    strip(row) {
      for (const a of aliases) delete row[a];
      return rest ? withRestRendering(row as unknown as ShipmentRow) : (row as unknown as ShipmentRow);
    },
    prefer: (a, b) => a.id < b.id,
  };
  keyedStatements.set(name, statement);
  return statement;
}

const KEY_ALIAS = 'tt_key_';

const compiledKeyedLookups = new WeakMap<Kysely<DatabaseSchema>, Map<string, CompiledQuery>>();

/**
 * The keyed lookup for `keyCount` keys and `accountCount` accounts, compiled once per database and shape (as
 * compiledLookup): one key is plain equalities (the statement SQLite and a lone lookup run), several a row-value
 * `IN` list (MySQL/MariaDB only: SQLite's IN takes no list of row values).
 */
function compiledKeyedLookup(
  db: Kysely<DatabaseSchema>,
  name: string,
  keyColumns: readonly string[],
  keyCount: number,
  accountCount: number,
  rest: boolean,
): CompiledQuery {
  let byShape = compiledKeyedLookups.get(db);
  if (!byShape) compiledKeyedLookups.set(db, (byShape = new Map()));
  const shape = `${name}:${keyCount}:${accountCount}`;
  let compiled = byShape.get(shape);
  if (!compiled) {
    const accounts = Array.from({ length: accountCount }, (_, i) => new Placeholder(`account${i}`) as unknown as string);
    const keys = Array.from({ length: keyCount }, (_, k) => keyColumns.map((_c, i) => new Placeholder(`key${k}_${i}`)));
    let query = visibleShipments(db, accounts, rest);
    for (const c of keyColumns) query = query.select(sql.ref(`s.${c}`).as(KEY_ALIAS + c));
    const refs = keyColumns.map((c) => sql.ref(`s.${c}`));
    if (keyCount === 1) {
      for (const [i, ref] of refs.entries()) query = query.where(sql<boolean>`${ref} = ${keys[0]![i]}`);
    } else {
      const left = refs.length === 1 ? refs[0]! : sql`(${sql.join(refs)})`;
      const list = keys.map((key) => (key.length === 1 ? sql`${key[0]}` : sql`(${sql.join(key)})`));
      query = query.where(sql<boolean>`${left} in (${sql.join(list)})`);
    }
    compiled = query.compile();
    byShape.set(shape, compiled);
  }
  return compiled;
}

/** The current key of the shipment a former booking reference names, or null (shipment-identity.ts). */
export async function bookingOfAlias(
  db: Kysely<DatabaseSchema>,
  carrierCode: string | undefined,
  carrierBookingReference: string,
): Promise<{ carrierCode: string; carrierBookingReference: string } | null> {
  let query = db
    .selectFrom('shipment_alias as a')
    .innerJoin('shipment as s', 's.id', 'a.shipment_id')
    .select(['s.carrier_code', 's.carrier_booking_reference'])
    .where('a.carrier_booking_reference', '=', carrierBookingReference);
  if (carrierCode !== undefined) query = query.where('a.carrier_code', '=', carrierCode);
  const row = await query.orderBy('a.shipment_id').limit(1).executeTakeFirst();
  return row ? { carrierCode: row.carrier_code, carrierBookingReference: row.carrier_booking_reference } : null;
}

/** The lookup statement with the request's values bound. */
function boundLookup(db: Kysely<DatabaseSchema>, lookup: ShipmentLookup, accountIds: readonly string[], rest: boolean): CompiledQuery {
  const values: Record<string, unknown> = { ...lookup };
  accountIds.forEach((id, i) => (values[`account${i}`] = id));
  return bindPlaceholders(compiledLookup(db, lookup, accountIds.length, rest), values);
}

/** A statement compiled with Placeholders, with `values` (by placeholder name) in their places. */
function bindPlaceholders({ sql, parameters }: CompiledQuery, values: Record<string, unknown>): CompiledQuery {
  return CompiledQuery.raw(
    sql,
    parameters.map((p) => (p instanceof Placeholder ? values[p.name] : p)),
  );
}

/**
 * Every lookup runs this statement, so it is built and compiled once per
 * shape (which parameters are given, how many accounts) and database, not
 * per request: Kysely's builder and compiler were a few percent of a cached
 * snapshot lookup. The compiled statement's parameters are placeholders
 * that findShipment binds to the request's values.
 */
class Placeholder {
  constructor(readonly name: string) {}
}

const compiledLookups = new WeakMap<Kysely<DatabaseSchema>, Map<string, CompiledQuery>>();

function compiledLookup(db: Kysely<DatabaseSchema>, lookup: ShipmentLookup, accounts: number, rest: boolean): CompiledQuery {
  const shape = `${accounts}:${LOOKUP_KEYS.map((k) => (lookup[k] === undefined ? '-' : k)).join(',')}${rest ? '+rest' : ''}`;
  let byShape = compiledLookups.get(db);
  if (!byShape) compiledLookups.set(db, (byShape = new Map()));
  let compiled = byShape.get(shape);
  if (!compiled) {
    const given = Object.fromEntries(
      LOOKUP_KEYS.filter((k) => lookup[k] !== undefined).map((k) => [k, new Placeholder(k) as unknown as string]),
    ) as ShipmentLookup;
    const accountIds = Array.from({ length: accounts }, (_, i) => new Placeholder(`account${i}`) as unknown as string);
    compiled = lookupQuery(db, given, accountIds, rest).compile();
    byShape.set(shape, compiled);
  }
  return compiled;
}

const LOOKUP_KEYS = ['carrierCode', 'carrierBookingReference', 'billOfLadingNumber', 'equipmentReference'] as const;

/** The shipment row of a lookup, among the shipments one of `accountIds` may see (the tenant rule, docs/architecture.md, REST contract). */
function visibleShipments(db: Kysely<DatabaseSchema>, accountIds: readonly string[], rest = false) {
  return db
    .selectFrom('shipment as s')
    .select(['s.id', 's.carrier_code', 's.carrier_booking_reference', 's.master_json', 's.etd', 's.eta', 's.version'])
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('shipment_account as sa')
          .select('sa.shipment_id')
          .whereRef('sa.shipment_id', '=', 's.id')
          .where('sa.account_id', 'in', accountIds),
      ),
    )
    .$if(rest, (q) =>
      q
        .leftJoin('shipment_snapshot as ss', 'ss.shipment_id', 's.id')
        .select(['ss.version as stored_version', 'ss.stored_form', 'ss.rest_tracking_z']),
    );
}

function lookupQuery(db: Kysely<DatabaseSchema>, lookup: ShipmentLookup, accountIds: readonly string[], rest: boolean) {
  let query = visibleShipments(db, accountIds, rest);
  if (lookup.carrierCode !== undefined) query = query.where('s.carrier_code', '=', lookup.carrierCode);
  if (lookup.carrierBookingReference !== undefined) {
    query = query.where('s.carrier_booking_reference', '=', lookup.carrierBookingReference);
  }
  if (lookup.billOfLadingNumber !== undefined) {
    query = query.where('s.bill_of_lading_number', '=', lookup.billOfLadingNumber);
  }
  if (lookup.equipmentReference !== undefined) {
    // A container number is reused across shipments: among those the caller may
    // see, take the one where the container moved last (docs/architecture.md, REST contract), so a
    // backfilled old shipment does not hide the current one. NULLs sort last
    // under DESC on both SQLite and MySQL.
    query = query
      .innerJoin('shipment_container as sc', 'sc.shipment_id', 's.id')
      .where('sc.container_number', '=', lookup.equipmentReference)
      .orderBy('sc.last_event_at', 'desc')
      .orderBy('s.id', 'desc');
  }
  return query.limit(1);
}

/** The shipment `id` when one of the caller's accounts may see it (a live update re-checks access at each change). */
export async function findShipmentById(db: Kysely<DatabaseSchema>, id: number, accountIds: readonly string[]): Promise<ShipmentRow | null> {
  if (accountIds.length === 0) return null;
  const row = await visibleShipments(db, accountIds).where('s.id', '=', id).executeTakeFirst();
  return row ?? null;
}

/** A shipment's version and carrier arrival (`eta`), by id, whoever sees it; null for an unknown shipment. */
export async function shipmentVersionById(db: Kysely<DatabaseSchema>, id: number): Promise<{ version: number; eta: string | null } | null> {
  const row = await db.selectFrom('shipment').select(['version', 'eta']).where('id', '=', id).executeTakeFirst();
  return row ? { version: Number(row.version), eta: row.eta ?? null } : null;
}

/** Whether the database holds any shipment (the sandbox seeds an empty one). */
export async function hasAnyShipment(db: Kysely<DatabaseSchema>): Promise<boolean> {
  return (await db.selectFrom('shipment').select('id').limit(1).executeTakeFirst()) !== undefined;
}

/** The natural keys of shipments by id (push renders look them up by carrier booking). */
export async function shipmentKeysById(
  db: Kysely<DatabaseSchema>,
  ids: readonly number[],
): Promise<Map<number, { carrierCode: string; carrierBookingReference: string }>> {
  const keys = new Map<number, { carrierCode: string; carrierBookingReference: string }>();
  for (const chunk of chunks([...ids])) {
    const rows = await db
      .selectFrom('shipment')
      .select(['id', 'carrier_code', 'carrier_booking_reference'])
      .where('id', 'in', chunk)
      .execute();
    for (const r of rows) keys.set(r.id, { carrierCode: r.carrier_code, carrierBookingReference: r.carrier_booking_reference });
  }
  return keys;
}
