import { ClientStore, type ApiClient, type ClientCredentials } from '../auth/client-store.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';

import { EXIT_NOT_FOUND, EXIT_OK, type CommandIo } from './cli-context.js';

export type { CommandIo } from './cli-context.js';

export { EXIT_NOT_FOUND, EXIT_OK, EXIT_USAGE } from './cli-context.js';

/**
 * `tracking client ...` (arguments parsed by program.ts). Return the exit
 * code: 0 done, 1 no such client; invalid input (ClientInputError) is a usage
 * error for the caller to report. The client secret is printed once, on
 * create and rotate-secret, and never again.
 */

export async function createClientCommand(
  database: Database,
  config: Config,
  options: { name: string; account: string; json?: boolean },
  io: CommandIo,
): Promise<number> {
  const store = await ClientStore.open(database.db, config);
  const credentials = await store.createClient({ name: options.name, account: options.account });
  if (options.json) {
    io.stdout.write(credentialsJson(credentials));
  } else {
    io.stdout.write(
      `Created API client "${options.name.trim()}" for account ${options.account.trim()} (${config.environment}).\n\n` +
        credentialsBlock(credentials),
    );
  }
  return EXIT_OK;
}

export async function listClientsCommand(database: Database, config: Config, options: { json?: boolean }, io: CommandIo): Promise<number> {
  const store = await ClientStore.open(database.db, config);
  const clients = await store.listClients();
  if (options.json) {
    io.stdout.write(JSON.stringify(clients.map(clientJson)) + '\n');
    return EXIT_OK;
  }
  if (clients.length === 0) {
    io.stdout.write('No API clients. Create one with: tracking client create --name NAME --account ACCOUNT\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['CLIENT_ID', 'ACCOUNT', 'NAME', 'STATUS', 'SCOPES', 'CREATED', 'SECRET_ROTATED', 'PEPPER'],
      clients.map((c) => [
        c.clientId,
        c.accountId,
        c.name,
        c.disabledAt ? `disabled ${c.disabledAt}` : 'active',
        c.scopes.join(' '),
        c.createdAt,
        c.secretRotatedAt,
        c.secretPepper,
      ]),
    ),
  );
  return EXIT_OK;
}

export async function disableClientCommand(database: Database, config: Config, clientId: string, io: CommandIo): Promise<number> {
  const store = await ClientStore.open(database.db, config);
  if (!(await store.disableClient(clientId))) return notFound(clientId, io);
  io.stdout.write(`Disabled client ${clientId}: it can no longer get tokens, and its issued tokens are refused.\n`);
  return EXIT_OK;
}

export async function rotateSecretCommand(
  database: Database,
  config: Config,
  clientId: string,
  options: { json?: boolean },
  io: CommandIo,
): Promise<number> {
  const store = await ClientStore.open(database.db, config);
  const credentials = await store.rotateSecret(clientId);
  if (!credentials) return notFound(clientId, io);
  if (options.json) {
    io.stdout.write(credentialsJson(credentials));
  } else {
    io.stdout.write(
      `New secret for client ${clientId}; the old secret no longer works ` +
        `(tokens already issued stay valid until they expire).\n\n` +
        credentialsBlock(credentials),
    );
  }
  return EXIT_OK;
}

/** `client grant|revoke CLIENT_ID SCOPE`: e.g. track-and-trace.subscribe, to manage webhook subscriptions. */
export async function setScopeCommand(
  database: Database,
  config: Config,
  clientId: string,
  scope: string,
  grant: boolean,
  io: CommandIo,
): Promise<number> {
  const store = await ClientStore.open(database.db, config);
  const scopes = await store.setScope(clientId, scope, grant);
  if (!scopes) return notFound(clientId, io);
  io.stdout.write(
    `Client ${clientId} ${grant ? 'may now request' : 'may no longer request'} ${scope}; its scopes: ${scopes.join(' ')}.\n` +
      'Tokens already issued lose a scope taken back within 5 seconds, on every instance.\n',
  );
  return EXIT_OK;
}

function notFound(clientId: string, io: CommandIo): number {
  io.stderr.write(`tracking client: no client with id "${clientId}" (see: tracking client list)\n`);
  return EXIT_NOT_FOUND;
}

/** Exactly one JSON object with exactly the keys client_id and client_secret (scripts rely on it). */
function credentialsJson({ client_id, client_secret }: ClientCredentials): string {
  return JSON.stringify({ client_id, client_secret }) + '\n';
}

function credentialsBlock({ client_id, client_secret }: ClientCredentials): string {
  return (
    `  client_id:     ${client_id}\n` +
    `  client_secret: ${client_secret}\n\n` +
    `The client secret is shown only once and cannot be retrieved later: store it now.\n` +
    `If it is lost, issue a new one with: tracking client rotate-secret ${client_id}\n`
  );
}

function clientJson(c: ApiClient) {
  return {
    client_id: c.clientId,
    name: c.name,
    account: c.accountId,
    created_at: c.createdAt,
    secret_rotated_at: c.secretRotatedAt,
    disabled_at: c.disabledAt,
    scopes: c.scopes,
    secret_pepper: c.secretPepper,
  };
}

export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd() + '\n';
  return line(header) + rows.map(line).join('');
}
