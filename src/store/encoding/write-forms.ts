import type { Kysely } from 'kysely';

/**
 * Which stored forms this process writes into one database (docs/upgrading.md, Expand, then contract).
 *
 * Until the rolling upgrade to this release is finished (`tracking upgrade finish`), instances of the previous
 * release may still read every row, and they read only the plain JSON text columns: `event.payload_json`,
 * `shipment_snapshot.tracking_json`/`exceptions_json` (stored_form 0) and `shipment.milestones_json`. So until
 * then every write stores those, and leaves the compact columns (`event.payload`, `shipment_snapshot`'s `*_z`,
 * `shipment.milestones`) null; readers take either form. Once the database says the upgrade is finished, writes
 * store the compact forms (src/store/housekeeping/upgrade-state.ts sets this, at start-up and every few seconds).
 *
 * The answer belongs to a database, not to the process: a test process holds several. It is kept by the Kysely
 * dialect adapter, the one object a database's Kysely instance shares with its transactions and its
 * single-connection handles (`transaction()`, `connection()` and `withPlugin` all keep it), so a writer deep in a
 * transaction asks with the handle it was given. A database nobody set reads as not finished: the form every
 * release reads.
 */
const compactByDatabase = new WeakMap<object, boolean>();

function keyOf(db: Kysely<any>): object {
  return db.getExecutor().adapter;
}

/** True when writes into this database store the compact forms (the upgrade is finished). */
export function writesCompact(db: Kysely<any>): boolean {
  return compactByDatabase.get(keyOf(db)) ?? false;
}

/** Records what the database says about the upgrade; see writesCompact. */
export function setWritesCompact(db: Kysely<any>, compact: boolean): void {
  compactByDatabase.set(keyOf(db), compact);
}
