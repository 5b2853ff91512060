import type { Insertable } from 'kysely';
import type { Db } from '../../db/connect.js';
import { isUniqueViolation } from '../../db/dialect.js';
import { retryTransaction } from '../../db/retry-transaction.js';
import type { SigningKeyTable } from '../../db/tables/auth.js';

/**
 * Generated, persisted service values (table service_secret), written once by
 * whichever process gets there first.
 */

export async function readServiceSecret(db: Db, name: string): Promise<string | undefined> {
  const row = await db.selectFrom('service_secret').select('value').where('name', '=', name).executeTakeFirst();
  return row?.value;
}

/**
 * Stores `value` under `name` unless a value is already there, and returns the
 * value that won. Race-safe across processes through the primary key on name:
 * when two processes start at once, one insert succeeds, the other gets a
 * unique violation and reads the winner's value, so both use the same one.
 */
export async function storeServiceSecretOnce(db: Db, name: string, value: string): Promise<string> {
  try {
    await retryTransaction(() => db.insertInto('service_secret').values({ name, value, created_at: new Date().toISOString() }).execute());
    return value;
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    const winner = await readServiceSecret(db, name);
    if (winner === undefined) throw new Error(`service_secret "${name}" vanished after a unique violation`, { cause: err });
    return winner;
  }
}

/**
 * Stores `value` under `name`, replacing what is there: values a process records for others to read, such as the
 * base address `tracking serve` runs under (`served_base_url`, read by the CLI when TT_BASE_URL is unset).
 */
export async function recordServiceValue(db: Db, name: string, value: string): Promise<void> {
  // A start-up write of every instance at once: on a Galera cluster two of them collide at commit (1213).
  await retryTransaction(() => recordServiceValueOnce(db, name, value));
}

async function recordServiceValueOnce(db: Db, name: string, value: string): Promise<void> {
  const now = new Date().toISOString();
  const updated = await db.updateTable('service_secret').set({ value, created_at: now }).where('name', '=', name).executeTakeFirst();
  if (Number(updated.numUpdatedRows) > 0) return;
  try {
    await db.insertInto('service_secret').values({ name, value, created_at: now }).execute();
  } catch (err) {
    // Another process recorded it first: its value and ours describe the same thing; keep the later write.
    if (!isUniqueViolation(err)) throw err;
    await db.updateTable('service_secret').set({ value, created_at: now }).where('name', '=', name).execute();
  }
}

/** Stored signing keys (the sandbox's generated key; src/auth/signing-keys.ts). */
export async function insertSigningKey(db: Db, row: Insertable<SigningKeyTable>): Promise<void> {
  await db.insertInto('signing_key').values(row).execute();
}

export async function deleteSigningKey(db: Db, kid: string): Promise<void> {
  await db.deleteFrom('signing_key').where('kid', '=', kid).execute();
}

export async function findSigningKey(db: Db, kid: string): Promise<{ private_jwk: string } | undefined> {
  return db.selectFrom('signing_key').select(['private_jwk']).where('kid', '=', kid).executeTakeFirst();
}

/** Records that the key `kid` signs nothing valid any more (`tracking keys retire`); false when it already was. */
export async function retireSigningKey(db: Db, kid: string, reason: string, now: Date): Promise<boolean> {
  try {
    await db.insertInto('retired_signing_key').values({ kid, reason, retired_at: now.toISOString() }).execute();
    return true;
  } catch (err) {
    if (isUniqueViolation(err)) return false;
    throw err;
  }
}

/** The kids of every retired signing key (few: one per rotation). */
export async function listRetiredSigningKeys(db: Db): Promise<{ kid: string; reason: string; retiredAt: string }[]> {
  const rows = await db.selectFrom('retired_signing_key').select(['kid', 'reason', 'retired_at']).orderBy('retired_at').execute();
  return rows.map((r) => ({ kid: r.kid, reason: r.reason, retiredAt: r.retired_at }));
}
