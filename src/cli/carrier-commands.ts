import { CarrierStore, DEFAULT_SECRET_OVERLAP_SECONDS, type CarrierSource } from '../carriers/carrier-store.js';
import { eventsAuth, type CredentialOptions } from './carrier-credentials.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { CarrierInputError } from '../carriers/carrier-config.js';
import { readServiceSecret } from '../store/housekeeping/service-secrets.js';
import { EXIT_NOT_FOUND, EXIT_OK, table, type CommandIo } from './client-commands.js';

/**
 * `tracking carrier add|list|disable|rotate-secret` (arguments parsed by
 * program.ts; input errors are CarrierInputError, usage errors of the
 * command). The notification secret is printed once, on add and
 * rotate-secret; credentials of the events URL are never printed.
 */

export interface AddCarrierOptions extends CredentialOptions {
  name?: string;
  secret?: string;
  eventsUrl?: string;
  pollInterval?: number;
  pollSince?: string;
  json?: boolean;
}

/** Where a carrier pushes its events: the callbackUrl of its DCSA event subscription. */
export function notificationUrl(config: Pick<Config, 'baseUrl'>, carrierCode: string): string {
  return `${config.baseUrl}/v2/carrier-notifications/${carrierCode}`;
}

/** Name of the base address `tracking serve` records in the database at each start (serve.ts). */
export const SERVED_BASE_URL = 'served_base_url';

/**
 * The base address carriers reach the service at, for the URLs the CLI prints: TT_BASE_URL when set (as the
 * server reads it), else the address the last `tracking serve` on this database recorded, so a CLI run in
 * another shell never hands a carrier a guessed `localhost:4000`. Neither: a usage error (nothing written).
 */
export async function publicBaseUrl(database: Database, config: Pick<Config, 'baseUrl' | 'baseUrlSet'>): Promise<Pick<Config, 'baseUrl'>> {
  if (config.baseUrlSet) return { baseUrl: config.baseUrl };
  const served = await readServiceSecret(database.db, SERVED_BASE_URL);
  if (served) return { baseUrl: served };
  throw new CarrierInputError(
    'TT_BASE_URL is not set and no `tracking serve` has run on this database yet: set TT_BASE_URL to the address ' +
      'carriers reach this service at (e.g. TT_BASE_URL=https://tracking.example.com), or start the server first',
  );
}

export async function addCarrierCommand(
  database: Database,
  config: Config,
  carrierCode: string,
  options: AddCarrierOptions,
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const base = await publicBaseUrl(database, config);
  const store = await CarrierStore.open(database.db, config, io.now);
  const { carrier, secret } = await store.addCarrier({
    carrierCode,
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.secret !== undefined ? { secret: options.secret } : {}),
    ...(options.eventsUrl !== undefined ? { eventsUrl: options.eventsUrl } : {}),
    auth: eventsAuth(options),
    ...(options.pollInterval !== undefined ? { pollIntervalSeconds: options.pollInterval } : {}),
    ...(options.pollSince !== undefined ? { pollSince: options.pollSince } : {}),
  });
  const url = notificationUrl(base, carrier.carrierCode);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ carrierCode: carrier.carrierCode, notificationUrl: url, notificationSecret: secret })}\n`);
    return EXIT_OK;
  }
  io.stdout.write(
    `Added carrier ${carrier.carrierCode} (${carrier.name}).\n\n` +
      secretBlock(url, secret) +
      (carrier.eventsUrl
        ? `\nThe poller reads ${carrier.eventsUrl} every ${carrier.pollIntervalSeconds} s from ${carrier.poll?.watermark ?? '?'} on.\n`
        : ''),
  );
  return EXIT_OK;
}

export async function listCarriersCommand(
  database: Database,
  config: Config,
  options: { json?: boolean },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const base = options.json ? await publicBaseUrl(database, config) : undefined;
  const store = await CarrierStore.open(database.db, config, io.now);
  const carriers = await store.listCarriers();
  if (base) {
    io.stdout.write(`${JSON.stringify(carriers.map((c) => ({ ...c, notificationUrl: notificationUrl(base, c.carrierCode) })))}\n`);
    return EXIT_OK;
  }
  if (carriers.length === 0) {
    io.stdout.write('No carriers. Add one with: tracking carrier add CODE --name NAME\n');
    return EXIT_OK;
  }
  io.stdout.write(
    table(
      ['CARRIER', 'NAME', 'STATUS', 'EVENTS_URL', 'AUTH', 'WATERMARK', 'LAST_POLL', 'LEASE', 'BACKOFF_UNTIL', 'LAST_ERROR'],
      carriers.map((c: CarrierSource) => [
        c.carrierCode,
        c.name,
        c.status,
        c.eventsUrl ?? '(push only)',
        c.eventsUrl ? c.eventsAuth : '',
        c.poll?.watermark ?? '',
        c.poll?.lastPolledAt ?? '',
        c.poll?.leaseOwner ? `${c.poll.leaseOwner} until ${c.poll.leaseUntil}` : '',
        c.backoff?.until ?? '',
        (c.poll?.lastError ?? '').slice(0, 60),
      ]),
    ),
  );
  return EXIT_OK;
}

export async function disableCarrierCommand(database: Database, config: Config, carrierCode: string, io: CommandIo): Promise<number> {
  const store = await CarrierStore.open(database.db, config);
  if (!(await store.disableCarrier(carrierCode))) return notFound(carrierCode, io);
  io.stdout.write(`Disabled carrier ${carrierCode}: its notifications are refused (404) and it is no longer polled.\n`);
  return EXIT_OK;
}

export async function rotateCarrierSecretCommand(
  database: Database,
  config: Config,
  carrierCode: string,
  options: { secret?: string; overlap?: number; json?: boolean },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const base = await publicBaseUrl(database, config);
  const store = await CarrierStore.open(database.db, config, io.now);
  const overlap = options.overlap ?? DEFAULT_SECRET_OVERLAP_SECONDS;
  const secret = await store.rotateSecret(carrierCode, options.secret, overlap);
  if (secret === null) return notFound(carrierCode, io);
  const url = notificationUrl(base, carrierCode);
  if (options.json) {
    io.stdout.write(`${JSON.stringify({ carrierCode, notificationUrl: url, notificationSecret: secret })}\n`);
    return EXIT_OK;
  }
  const until = new Date(io.now().getTime() + overlap * 1000).toISOString();
  io.stdout.write(
    `New notification secret for carrier ${carrierCode}. ` +
      (overlap > 0
        ? `Notifications signed with the old one are accepted until ${until}:\n`
        : `Notifications signed with the old one are refused from now on:\n`) +
      `update the carrier's subscription (DCSA PUT /v2/event-subscriptions/{id}/secret) ${overlap > 0 ? 'before then' : 'right away'}.\n\n` +
      secretBlock(url, secret),
  );
  return EXIT_OK;
}

export function notFound(carrierCode: string, io: CommandIo): number {
  io.stderr.write(`tracking carrier: no carrier "${carrierCode}" (see: tracking carrier list)\n`);
  return EXIT_NOT_FOUND;
}

function secretBlock(url: string, secret: string): string {
  return (
    `  callbackUrl: ${url}\n` +
    `  secret:      ${secret}\n\n` +
    `Give both to the carrier for its DCSA event subscription. The secret is shown only once\n` +
    `and cannot be retrieved later; if it is lost, issue a new one with: tracking carrier rotate-secret CODE\n`
  );
}
