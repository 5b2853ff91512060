import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { ApiClientTable } from '../../db/tables/auth.js';
import { retryTransaction } from '../../db/retry-transaction.js';

/** The rows of api_client (src/auth/client-store.ts hashes secrets and checks input). */

export type ApiClientRow = Selectable<ApiClientTable>;

export async function insertApiClient(db: Db, row: Insertable<ApiClientTable>): Promise<void> {
  // Replicas starting together on a Galera cluster insert the sandbox demo client at once: one gets 1213.
  await retryTransaction(() => db.insertInto('api_client').values(row).execute());
}

/** Every client, oldest first. */
export async function listApiClients(db: Db): Promise<ApiClientRow[]> {
  return db.selectFrom('api_client').selectAll().orderBy('created_at').orderBy('client_id').execute();
}

export async function findApiClient(db: Db, clientId: string): Promise<ApiClientRow | undefined> {
  return db.selectFrom('api_client').selectAll().where('client_id', '=', clientId).executeTakeFirst();
}

/** Just what the per-request active check needs. */
export async function findClientStatus(db: Db, clientId: string): Promise<Pick<ApiClientRow, 'client_id' | 'disabled_at'> | undefined> {
  return db.selectFrom('api_client').select(['client_id', 'disabled_at']).where('client_id', '=', clientId).executeTakeFirst();
}

/** Disabled state of several clients at once (the delivery worker's check). */
export async function findClientStatuses(db: Db, clientIds: readonly string[]): Promise<Pick<ApiClientRow, 'client_id' | 'disabled_at'>[]> {
  if (clientIds.length === 0) return [];
  return db.selectFrom('api_client').select(['client_id', 'disabled_at']).where('client_id', 'in', clientIds).execute();
}

/** Updates one client (only while enabled with `onlyEnabled`); whether a row matched. */
export async function updateApiClient(
  db: Db,
  clientId: string,
  set: Updateable<ApiClientTable>,
  options: { onlyEnabled?: boolean } = {},
): Promise<boolean> {
  let query = db.updateTable('api_client').set(set).where('client_id', '=', clientId);
  if (options.onlyEnabled) query = query.where('disabled_at', 'is', null);
  const result = await query.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
