import { CarrierInputError } from '../carriers/carrier-config.js';
import { CarrierStore } from '../carriers/carrier-store.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { eventsAuth, givesCredentials, type CredentialOptions } from './carrier-credentials.js';
import { notFound, notificationUrl, publicBaseUrl } from './carrier-commands.js';
import { EXIT_OK, type CommandIo } from './client-commands.js';

/**
 * `tracking carrier update CODE …` (docs/carriers.md "Carrier onboarding"): what an
 * operator changes over a carrier's life: its name, its events URL (or none:
 * push only), the credentials of it (`--overlap`: the replaced ones are still
 * tried while the carrier refuses the new), the poll interval. The
 * notification secret has its own command (rotate-secret).
 */

export interface UpdateCarrierOptions extends CredentialOptions {
  name?: string;
  /** A URL, or false for --no-events-url. */
  eventsUrl?: string | false;
  /** False for --no-credentials. */
  credentials?: false;
  pollInterval?: number;
  pollSince?: string;
  overlap?: number;
  json?: boolean;
}

export async function updateCarrierCommand(
  database: Database,
  config: Config,
  carrierCode: string,
  options: UpdateCarrierOptions,
  io: CommandIo & { now: () => Date },
): Promise<number> {
  if (options.credentials === false && givesCredentials(options)) {
    throw new CarrierInputError('--no-credentials takes no --oauth-* or --api-key* options');
  }
  const store = await CarrierStore.open(database.db, config, io.now);
  const base = options.json ? await publicBaseUrl(database, config) : undefined;
  const carrier = await store.updateCarrier(carrierCode, {
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(options.eventsUrl !== undefined ? { eventsUrl: options.eventsUrl === false ? null : options.eventsUrl } : {}),
    ...(options.credentials === false
      ? { auth: { kind: 'none' as const } }
      : givesCredentials(options)
        ? { auth: eventsAuth(options) }
        : {}),
    ...(options.pollInterval !== undefined ? { pollIntervalSeconds: options.pollInterval } : {}),
    ...(options.pollSince !== undefined ? { pollSince: options.pollSince } : {}),
    ...(options.overlap !== undefined ? { overlapSeconds: options.overlap } : {}),
  });
  if (!carrier) return notFound(carrierCode, io);
  if (base) {
    io.stdout.write(`${JSON.stringify({ ...carrier, notificationUrl: notificationUrl(base, carrierCode) })}\n`);
    return EXIT_OK;
  }
  const lines = [
    `Updated carrier ${carrier.carrierCode} (${carrier.name}), ${carrier.status}.`,
    carrier.eventsUrl
      ? `  polls ${carrier.eventsUrl} every ${carrier.pollIntervalSeconds} s (credentials: ${carrier.eventsAuth}), next poll at ${carrier.poll?.nextPollAt ?? '?'}`
      : '  push only: no events URL is polled',
    ...(carrier.previousCredentialsExpireAt
      ? [`  the previous credentials are still tried until ${carrier.previousCredentialsExpireAt}`]
      : []),
  ];
  io.stdout.write(`${lines.join('\n')}\n`);
  return EXIT_OK;
}
