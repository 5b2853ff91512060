import type { Database } from '../db/connect.js';
import { listRetiredSigningKeys, retireSigningKey } from '../store/housekeeping/service-secrets.js';
import { EXIT_OK, type CommandIo } from './client-commands.js';

/**
 * `tracking keys retire KID --reason TEXT` (README "Live updates", "Operating"): tokens signed by the key
 * `kid` are refused from now on, on every instance within 5 seconds (src/auth/access-check.ts), and the live
 * streams they opened end with UNAUTHENTICATED. Retire a key after TT_SIGNING_KEY has moved to a new one: the
 * retired key's tokens would otherwise stay valid until they expire (at most an hour). `tracking keys retired`
 * lists them.
 */
export async function retireKeyCommand(
  database: Database,
  kid: string,
  options: { reason: string },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const fresh = await retireSigningKey(database.db, kid, options.reason, io.now());
  io.stdout.write(
    fresh
      ? `Retired signing key ${kid}: its tokens are refused, and the streams they opened end, on every instance within 5 seconds.\n`
      : `Signing key ${kid} was retired already.\n`,
  );
  return EXIT_OK;
}

export async function listRetiredKeysCommand(database: Database, options: { json?: boolean }, io: CommandIo): Promise<number> {
  const keys = await listRetiredSigningKeys(database.db);
  if (options.json) io.stdout.write(`${JSON.stringify(keys)}\n`);
  else
    io.stdout.write(keys.length === 0 ? 'No retired signing keys.\n' : keys.map((k) => `${k.kid}  ${k.retiredAt}  ${k.reason}\n`).join(''));
  return EXIT_OK;
}
