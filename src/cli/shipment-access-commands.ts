import type { Database } from '../db/connect.js';
import { grantAccountAccess, readShipmentAccess, revokeAccountAccess, type ShipmentKey } from '../store/access/shipment-access.js';
import { EXIT_NOT_FOUND, EXIT_OK, type CommandIo } from './client-commands.js';

/**
 * `tracking shipment accounts|revoke|grant CARRIER BOOKING` (README
 * "Operating"): which accounts' clients see a shipment, and an operator
 * taking one back (or giving it back). Ingest only ever adds accounts and
 * never re-grants a revoked one (src/store/access/shipment-access.ts).
 */

function noShipment(key: ShipmentKey, io: CommandIo): number {
  io.stderr.write(`tracking shipment: no shipment ${key.carrierCode} ${key.carrierBookingReference}\n`);
  return EXIT_NOT_FOUND;
}

export async function listShipmentAccountsCommand(
  database: Database,
  key: ShipmentKey,
  options: { json?: boolean },
  io: CommandIo,
): Promise<number> {
  const access = await readShipmentAccess(database.db, key);
  if (!access) return noShipment(key, io);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ accounts: access.accounts, revoked: access.revoked })}\n`);
    return EXIT_OK;
  }
  const lines = [
    `Shipment ${key.carrierCode} ${key.carrierBookingReference}:`,
    `  accounts: ${access.accounts.join(', ') || '(none)'}`,
    ...access.revoked.map((r) => `  revoked:  ${r.accountId} at ${r.revokedAt} (${r.reason})`),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT_OK;
}

export async function revokeShipmentAccessCommand(
  database: Database,
  key: ShipmentKey,
  options: { account: string; reason: string },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const result = await revokeAccountAccess(database.db, database.dialect, key, options.account, options.reason, io.now());
  if (!result) return noShipment(key, io);
  io.stdout.write(
    `${result.hadAccess ? 'Revoked' : 'Recorded the revocation of'} the access of account ${options.account} to ${key.carrierCode} ` +
      `${key.carrierBookingReference}: its clients' lookups answer 404, and no ingest grants it again ` +
      `(tracking shipment grant does).\n` +
      `${result.subscriptionsDisabled.length} webhook subscription(s) of its clients on the shipment disabled` +
      `${result.subscriptionsDisabled.length > 0 ? `: ${result.subscriptionsDisabled.join(', ')}` : ''}.\n`,
  );
  return EXIT_OK;
}

export async function grantShipmentAccessCommand(
  database: Database,
  key: ShipmentKey,
  options: { account: string },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const result = await grantAccountAccess(database.db, database.dialect, key, options.account, io.now());
  if (!result) return noShipment(key, io);
  io.stdout.write(
    `Account ${options.account} may see ${key.carrierCode} ${key.carrierBookingReference}` +
      `${result.wasRevoked ? ' again (its revocation is lifted)' : ''}` +
      `${result.granted ? '' : ' (it did already)'}.\n`,
  );
  return EXIT_OK;
}
