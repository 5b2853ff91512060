import { parseArgs, type ParseArgsConfig } from 'node:util';
import { ClientInputError, ClientStore, type ApiClient, type ClientCredentials } from '../auth/client-store.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';

/** Where a command writes; process.stdout/stderr in the bin, string buffers in tests. */
export interface CommandIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export const EXIT_OK = 0;
export const EXIT_NOT_FOUND = 1;
export const EXIT_USAGE = 2;

export const CLIENT_USAGE = `Usage:
  tracking client create --name NAME --account ACCOUNT [--json]
  tracking client list [--json]
  tracking client disable CLIENT_ID
  tracking client rotate-secret CLIENT_ID [--json]
`;

class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * `tracking client ...`: `args` are the words after `client`. Returns the exit
 * code: 0 done, 1 no such client, 2 usage error (message and usage on stderr).
 * The client secret is printed once, on create and rotate-secret, and never again.
 */
export async function runClientCommand(
  database: Database,
  config: Config,
  args: string[],
  io: CommandIo,
): Promise<number> {
  const [command, ...rest] = args;
  try {
    switch (command) {
      case 'create':
        return await create(database, config, rest, io);
      case 'list':
        return await list(database, config, rest, io);
      case 'disable':
        return await disable(database, config, rest, io);
      case 'rotate-secret':
        return await rotate(database, config, rest, io);
      case 'help':
      case '--help':
      case '-h':
        io.stdout.write(CLIENT_USAGE);
        return EXIT_OK;
      default:
        throw new UsageError(command ? `unknown command "client ${command}"` : 'missing command');
    }
  } catch (err) {
    if (err instanceof UsageError || err instanceof ClientInputError) {
      io.stderr.write(`tracking client: ${err.message}\n\n${CLIENT_USAGE}`);
      return EXIT_USAGE;
    }
    throw err;
  }
}

async function create(database: Database, config: Config, args: string[], io: CommandIo): Promise<number> {
  const { values } = parse(args, { name: { type: 'string' }, account: { type: 'string' }, json: { type: 'boolean' } }, 0);
  const name = values.name;
  const account = values.account;
  if (typeof name !== 'string') throw new UsageError('create needs --name NAME');
  if (typeof account !== 'string') throw new UsageError('create needs --account ACCOUNT');
  const store = await ClientStore.open(database.db, config);
  const credentials = await store.createClient({ name, account });
  if (values.json) {
    io.stdout.write(credentialsJson(credentials));
  } else {
    io.stdout.write(
      `Created API client "${name.trim()}" for account ${account.trim()} (${config.environment}).\n\n` +
        credentialsBlock(credentials),
    );
  }
  return EXIT_OK;
}

async function list(database: Database, config: Config, args: string[], io: CommandIo): Promise<number> {
  const { values } = parse(args, { json: { type: 'boolean' } }, 0);
  const store = await ClientStore.open(database.db, config);
  const clients = await store.listClients();
  if (values.json) {
    io.stdout.write(JSON.stringify(clients.map(clientJson)) + '\n');
    return EXIT_OK;
  }
  if (clients.length === 0) {
    io.stdout.write('No API clients. Create one with: tracking client create --name NAME --account ACCOUNT\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['CLIENT_ID', 'ACCOUNT', 'NAME', 'STATUS', 'CREATED', 'SECRET_ROTATED'],
      clients.map((c) => [
        c.clientId,
        c.accountId,
        c.name,
        c.disabledAt ? `disabled ${c.disabledAt}` : 'active',
        c.createdAt,
        c.secretRotatedAt,
      ]),
    ),
  );
  return EXIT_OK;
}

async function disable(database: Database, config: Config, args: string[], io: CommandIo): Promise<number> {
  const { positionals } = parse(args, {}, 1);
  const clientId = positionals[0] ?? '';
  const store = await ClientStore.open(database.db, config);
  if (!(await store.disableClient(clientId))) return notFound(clientId, io);
  io.stdout.write(`Disabled client ${clientId}: it can no longer get tokens, and its issued tokens are refused.\n`);
  return EXIT_OK;
}

async function rotate(database: Database, config: Config, args: string[], io: CommandIo): Promise<number> {
  const { values, positionals } = parse(args, { json: { type: 'boolean' } }, 1);
  const clientId = positionals[0] ?? '';
  const store = await ClientStore.open(database.db, config);
  const credentials = await store.rotateSecret(clientId);
  if (!credentials) return notFound(clientId, io);
  if (values.json) {
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

/**
 * Strict parsing: unknown options, missing values, a repeated option and a
 * wrong number of positionals are usage errors, not silently ignored.
 */
function parse(args: string[], options: Options, positionalCount: number) {
  let parsed;
  try {
    parsed = parseArgs({ args, options, strict: true, allowPositionals: positionalCount > 0, tokens: true });
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option') continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} given more than once`);
    seen.add(token.name);
  }
  if (parsed.positionals.length !== positionalCount) {
    throw new UsageError(
      positionalCount === 0
        ? `unexpected argument "${parsed.positionals[0]}"`
        : `expected exactly one CLIENT_ID, got ${parsed.positionals.length}`,
    );
  }
  return parsed;
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
  };
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join('  ').trimEnd() + '\n';
  return line(header) + rows.map(line).join('');
}
