import { CarrierStore } from '../carriers/carrier-store.js';
import { checkEdiFormats, checkEdiTimes, checkReferencePrefixes } from '../carriers/carrier-config.js';
import type { Config } from '../config/config.js';
import type { Database } from '../db/connect.js';
import { notFound } from './carrier-commands.js';
import { EXIT_OK, type CommandIo } from './client-commands.js';

/** `tracking carrier enable|remove CODE` (docs/carriers.md "Carrier onboarding"): the other ends of a carrier's life than add and disable. */

export async function enableCarrierCommand(
  database: Database,
  config: Config,
  carrierCode: string,
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const store = await CarrierStore.open(database.db, config, io.now);
  if (!(await store.enableCarrier(carrierCode))) return notFound(carrierCode, io);
  const carrier = await store.getCarrier(carrierCode);
  io.stdout.write(
    `Enabled carrier ${carrierCode}: its notifications are accepted again` +
      (carrier?.eventsUrl ? `, and ${carrier.eventsUrl} is polled from its watermark ${carrier.poll?.watermark ?? ''} now.\n` : '.\n'),
  );
  return EXIT_OK;
}

export async function removeCarrierCommand(database: Database, config: Config, carrierCode: string, io: CommandIo): Promise<number> {
  const store = await CarrierStore.open(database.db, config);
  if (!(await store.removeCarrier(carrierCode))) return notFound(carrierCode, io);
  io.stdout.write(
    `Removed carrier ${carrierCode}: its secret, credentials and poll state are gone, its notifications are refused (404).\n` +
      `The events it sent stay, with the shipments they belong to. Add it again with: tracking carrier add ${carrierCode}\n`,
  );
  return EXIT_OK;
}

/** `tracking carrier prefixes CODE PREFIXES` (docs/tracking-requests.md): how tracking requests recognise the carrier. */
export async function carrierPrefixesCommand(
  database: Database,
  config: Config,
  carrierCode: string,
  value: string,
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const prefixes = checkReferencePrefixes(value);
  const store = await CarrierStore.open(database.db, config, io.now);
  if (!(await store.setReferencePrefixes(carrierCode, prefixes))) return notFound(carrierCode, io);
  io.stdout.write(
    `Tracking requests without carrierCode now recognise carrier ${carrierCode} by the prefixes ${(prefixes ?? [carrierCode]).join(', ')}.\n`,
  );
  return EXIT_OK;
}

/**
 * `tracking carrier formats CODE FORMATS [--times local|utc]` (docs/carriers.md "EDI", "Times"): the EDI formats the
 * carrier sends besides DCSA, and how its times without a zone code are read (kept as it was when not given).
 */
export async function carrierFormatsCommand(
  database: Database,
  config: Config,
  carrierCode: string,
  value: string,
  options: { times?: string },
  io: CommandIo & { now: () => Date },
): Promise<number> {
  const formats = checkEdiFormats(value);
  const times = options.times === undefined ? undefined : checkEdiTimes(options.times);
  const store = await CarrierStore.open(database.db, config, io.now);
  if (!(await store.setEdiFormats(carrierCode, formats, times))) return notFound(carrierCode, io);
  const carrier = await store.getCarrier(carrierCode);
  const timesSaid =
    carrier?.ediTimes === 'utc'
      ? 'its times without a zone code are UTC'
      : 'its times without a zone code are the local time of their location';
  io.stdout.write(
    formats.length === 0
      ? `Carrier ${carrierCode} sends DCSA events only: its EDI is refused.\n`
      : `Carrier ${carrierCode} may send ${formats.join(', ')} besides DCSA events (tracking ingest --format, its signed pushes); ${timesSaid}.\n`,
  );
  return EXIT_OK;
}
