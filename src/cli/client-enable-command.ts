import { ClientStore } from '../auth/client-store.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { EXIT_NOT_FOUND, EXIT_OK, type CommandIo } from './client-commands.js';

/** `tracking client enable CLIENT_ID`: a disabled client may get tokens again (docs/operating.md "Operating"). */
export async function enableClientCommand(database: Database, config: Config, clientId: string, io: CommandIo): Promise<number> {
  const store = await ClientStore.open(database.db, config);
  if (!(await store.enableClient(clientId))) {
    io.stderr.write(`tracking client: no client with id "${clientId}" (see: tracking client list)\n`);
    return EXIT_NOT_FOUND;
  }
  io.stdout.write(
    `Enabled client ${clientId}: it may get tokens again with its current secret.\n` +
      'Webhook subscriptions disabled while it was disabled stay disabled: the client creates them again.\n',
  );
  return EXIT_OK;
}
