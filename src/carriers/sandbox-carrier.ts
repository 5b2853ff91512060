import { createHash } from 'node:crypto';
import { containerCheckDigit } from '../domain/container-number.js';
import type { Fetch } from './events-client.js';
import type { CarrierStore } from './carrier-store.js';

/**
 * The sandbox's simulated DCSA carrier (docs/tracking-requests.md, Sandbox): an in-process `GET /v2/events` at
 * SANDBOX_CARRIER_EVENTS_URL, never on the network, that publishes a scripted voyage for every sandbox reference
 * (bill of lading `SBOX` + 8 digits, booking `SB` + the same digits, container `SBXU` + the last 6 digits and the
 * check digit), digits starting with 9 excepted: those it does not know. The voyage starts when the simulated
 * carrier is first asked for the reference (in this process) and is published as time goes by:
 *
 * - at once: the booking confirmed, the container gated in at Shanghai, planned on SANDBOX STAR leaving in 4
 *   minutes, arriving at Rotterdam in 30 days;
 * - after 2 minutes: the arrival estimated 2 days late (an ETA_DELAY);
 * - after 4 minutes: SANDBOX STAR leaves without the container (a ROLLOVER);
 * - after 5 minutes: the container re-planned on SANDBOX SPIRIT a week later, arriving 7 days late in all.
 *
 * Only a sandbox process uses it (serve passes sandboxCarrierFetch to the poller and the fetcher).
 */

export const SANDBOX_CARRIER = 'SBOX';
export const SANDBOX_CARRIER_EVENTS_URL = 'http://sandbox-carrier.invalid/v2/events';
export const SANDBOX_REFERENCE_PREFIXES = ['SBOX', 'SBXU'];

const MINUTE = 60_000;
const DAY = 86_400_000;

/** The references of sandbox voyage `digits` (8 digits). */
export function sandboxReferences(digits: string): { billOfLading: string; booking: string; container: string } {
  const first10 = `SBXU${digits.slice(-6)}`;
  return { billOfLading: `SBOX${digits}`, booking: `SB${digits}`, container: `${first10}${containerCheckDigit(first10)}` };
}

/** The voyage digits a filter value names, or null when it is no known sandbox reference. */
function voyageOf(filter: string, value: string): string | null {
  let digits: string | undefined;
  if (filter === 'transportDocumentReference') digits = /^SBOX(\d{8})$/.exec(value)?.[1];
  else if (filter === 'carrierBookingReference') digits = /^SB(\d{8})$/.exec(value)?.[1];
  else if (filter === 'equipmentReference') {
    const six = /^SBXU(\d{6})\d$/.exec(value)?.[1];
    // A container names the voyage whose last 6 digits it carries, with the leading digits 00.
    digits = six && sandboxReferences(`00${six}`).container === value ? `00${six}` : undefined;
  }
  if (!digits || digits.startsWith('9')) return null;
  return digits;
}

function uuid(seed: string): string {
  const h = createHash('sha256').update(seed).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const iso = (ms: number) => new Date(ms).toISOString().replace('.000Z', 'Z');

function call(port: 'CNSHA' | 'NLRTM', vessel: 'A' | 'B'): Record<string, unknown> {
  const v =
    vessel === 'A'
      ? { vesselIMONumber: '9321483', vesselName: 'SANDBOX STAR' }
      : { vesselIMONumber: '9311488', vesselName: 'SANDBOX SPIRIT' };
  const voyage = vessel === 'A' ? '101E' : '102E';
  return {
    transportCallID: `SBX-${port}-${voyage}`,
    carrierServiceCode: 'SBX',
    exportVoyageNumber: voyage,
    UNLocationCode: port,
    modeOfTransport: 'VESSEL',
    facilityTypeCode: 'POTE',
    vessel: v,
  };
}

/** The events of voyage `digits` started at `start`, each with the time it is published. */
export function sandboxVoyage(digits: string, start: number): { publishedAt: number; event: Record<string, unknown> }[] {
  const refs = sandboxReferences(digits);
  const documents = [
    { documentReferenceType: 'BKG', documentReferenceValue: refs.booking },
    { documentReferenceType: 'TRD', documentReferenceValue: refs.billOfLading },
  ];
  const out: { publishedAt: number; event: Record<string, unknown> }[] = [];
  let n = 0;
  const add = (publishedAt: number, event: Record<string, unknown>) =>
    out.push({ publishedAt, event: { eventID: uuid(`${refs.billOfLading}/${n++}`), eventCreatedDateTime: iso(publishedAt), ...event } });
  const transport = (classifier: string, code: string, at: number, port: 'CNSHA' | 'NLRTM', vessel: 'A' | 'B') => ({
    eventType: 'TRANSPORT',
    eventClassifierCode: classifier,
    eventDateTime: iso(at),
    transportEventTypeCode: code,
    transportCall: call(port, vessel),
    documentReferences: documents,
  });
  const equipment = (classifier: string, code: string, at: number, vessel: 'A' | 'B') => ({
    eventType: 'EQUIPMENT',
    eventClassifierCode: classifier,
    eventDateTime: iso(at),
    equipmentEventTypeCode: code,
    equipmentReference: refs.container,
    ISOEquipmentCode: '45G1',
    emptyIndicatorCode: 'LADEN',
    transportCall: call('CNSHA', vessel),
    documentReferences: documents,
  });
  const earlier = start - DAY;
  add(start - 2 * DAY, {
    eventType: 'SHIPMENT',
    eventClassifierCode: 'ACT',
    eventDateTime: iso(start - 2 * DAY),
    shipmentEventTypeCode: 'CONF',
    documentTypeCode: 'BKG',
    documentID: refs.booking,
    documentReferences: [documents[1]],
  });
  add(earlier, equipment('ACT', 'GTIN', earlier, 'A'));
  add(earlier, equipment('PLN', 'LOAD', start + 4 * MINUTE, 'A'));
  add(earlier, transport('PLN', 'DEPA', start + 4 * MINUTE, 'CNSHA', 'A'));
  add(earlier, transport('PLN', 'ARRI', start + 30 * DAY, 'NLRTM', 'A'));
  add(start + 2 * MINUTE, transport('EST', 'ARRI', start + 32 * DAY, 'NLRTM', 'A'));
  add(start + 4 * MINUTE, transport('ACT', 'DEPA', start + 4 * MINUTE, 'CNSHA', 'A'));
  add(start + 5 * MINUTE, equipment('PLN', 'LOAD', start + 7 * DAY, 'B'));
  add(start + 5 * MINUTE, transport('PLN', 'DEPA', start + 7 * DAY, 'CNSHA', 'B'));
  add(start + 5 * MINUTE, transport('EST', 'ARRI', start + 37 * DAY, 'NLRTM', 'B'));
  return out;
}

/**
 * A fetch that answers SANDBOX_CARRIER_EVENTS_URL from the script and passes anything else to `next`. Unfiltered
 * polls get an empty list: the simulated carrier publishes only what a tracking request asks for.
 */
export function sandboxCarrierFetch(now: () => Date = () => new Date(), next: Fetch = (input, init) => fetch(input, init)): Fetch {
  const origin = new URL(SANDBOX_CARRIER_EVENTS_URL).origin;
  const started = new Map<string, number>();
  return (input, init) => {
    const url = new URL(input);
    if (url.origin !== origin) return next(input, init);
    const headers = { 'Content-Type': 'application/json', 'API-Version': '2.2.0' };
    if (url.pathname !== '/v2/events') return Promise.resolve(new Response('[]', { status: 404, headers }));
    const t = now().getTime();
    let digits: string | null = null;
    let asked = false;
    for (const filter of ['transportDocumentReference', 'carrierBookingReference', 'equipmentReference']) {
      const value = url.searchParams.get(filter);
      if (value === null) continue;
      asked = true;
      digits = voyageOf(filter, value);
    }
    if (!asked || digits === null) return Promise.resolve(new Response('[]', { status: 200, headers }));
    let start = started.get(digits);
    if (start === undefined) started.set(digits, (start = t));
    const gte = url.searchParams.get('eventCreatedDateTime:gte');
    const from = gte === null ? -Infinity : Date.parse(gte);
    const events = sandboxVoyage(digits, start)
      .filter((e) => e.publishedAt <= t && e.publishedAt >= from)
      .map((e) => e.event);
    return Promise.resolve(new Response(JSON.stringify(events), { status: 200, headers }));
  };
}

/** Configures the simulated carrier in a sandbox database (idempotent: several instances may start at once). */
export async function ensureSandboxCarrier(carriers: CarrierStore): Promise<void> {
  if (await carriers.getCarrier(SANDBOX_CARRIER)) return;
  try {
    await carriers.addCarrier({
      carrierCode: SANDBOX_CARRIER,
      name: 'Sandbox simulated carrier',
      eventsUrl: SANDBOX_CARRIER_EVENTS_URL,
      pollIntervalSeconds: 86_400,
    });
  } catch (err) {
    if (await carriers.getCarrier(SANDBOX_CARRIER)) return;
    throw err;
  }
  await carriers.setReferencePrefixes(SANDBOX_CARRIER, SANDBOX_REFERENCE_PREFIXES);
}

/**
 * The sandbox's EDI example carrier (docs/carriers.md "EDI"): a carrier that pushes X12 315 and IFTSTA
 * instead of DCSA events, configured so that `tracking ingest --format x12-315|iftsta --carrier SEDI` and
 * signed pushes to /v2/carrier-notifications/SEDI can be tried at once. Idempotent, like ensureSandboxCarrier.
 */
export const SANDBOX_EDI_CARRIER = 'SEDI';

export async function ensureSandboxEdiCarrier(carriers: CarrierStore): Promise<void> {
  if (!(await carriers.getCarrier(SANDBOX_EDI_CARRIER))) {
    try {
      await carriers.addCarrier({ carrierCode: SANDBOX_EDI_CARRIER, name: 'Sandbox EDI carrier (X12 315, IFTSTA)' });
    } catch (err) {
      if (!(await carriers.getCarrier(SANDBOX_EDI_CARRIER))) throw err;
    }
  }
  await carriers.setEdiFormats(SANDBOX_EDI_CARRIER, ['x12-315', 'iftsta']);
}
