import { JSEDINotation, X12Generator } from 'node-x12';
import { v5 as uuidv5 } from 'uuid';
import { ingestEdi } from '../../src/carriers/edi-ingest.js';
import type { Database } from '../../src/db/connect.js';
import { containerCheckDigit } from '../../src/domain/container-number.js';
import type { TrackingEvent } from '../../src/domain/types.js';
import { ingestBundle } from '../../src/ingest/ingest-bundle.js';
import { HOUR, type SimEvent, type SimShipment, type World } from './world.js';

/**
 * The simulated world into a database through the real ingest paths, as the service would have received it:
 * every shipment's master data first, then each carrier's events poll by poll (every POLL_HOURS), each
 * ingested with `now` = that hour, so that `ingested_at` is when the service got it. DCSA carriers through
 * ingestBundle; the X12 carriers as one 315 interchange per poll through the EDI ingest (src/carriers/edi-ingest.ts),
 * whose events are created at the interchange's time (GS04/05) and whose repeated statuses are duplicates.
 */

/** How often the service gets each carrier's news (a poll, a mailbox of 315s). */
export const POLL_HOURS = 4;

const NAMESPACE = '3f6b0d44-49e7-4c51-9b0a-5e2a1c7d8e90';

export function containerNumber(shipment: SimShipment): string {
  return `${shipment.container}${containerCheckDigit(shipment.container)}`;
}

export interface IngestedWorld {
  /** The service's shipment id of each simulated shipment (by its index). */
  shipmentIds: number[];
  bundles: number;
  interchanges: number;
  eventsStored: number;
}

export async function ingestWorld(database: Database, world: World): Promise<IngestedWorld> {
  const before = new Date(world.start - 30 * 24 * HOUR);
  let eventsStored = 0;
  for (const carrier of world.carriers) {
    const shipments = world.shipments.filter((s) => s.lane.carrier === carrier);
    if (shipments.length === 0) continue;
    await ingestBundle(
      database,
      {
        shipments: shipments.map((s) => ({
          carrierBookingReference: s.booking,
          carrierCode: carrier.code,
          vesselName: s.events[0]!.vessel.name,
          voyageNumber: s.events[0]!.voyage,
          portOfLoading: { unLocationCode: s.lane.pol },
          portOfDischarge: { unLocationCode: s.lane.pod },
          references: {},
          accounts: ['eta-bench'],
          containers: [{ containerNumber: containerNumber(s), references: {} }],
        })),
        events: [],
      },
      { now: () => before },
    );
  }
  const ids = await database.db.selectFrom('shipment').select(['id', 'carrier_booking_reference']).execute();
  const idByBooking = new Map(ids.map((r) => [r.carrier_booking_reference, Number(r.id)]));
  const shipmentIds = world.shipments.map((s) => idByBooking.get(s.booking)!);

  // Every message, at the poll (every POLL_HOURS) that brought it.
  const byPoll = new Map<number, Array<{ shipment: SimShipment; event: SimEvent }>>();
  for (const shipment of world.shipments) {
    for (const event of shipment.events) {
      const poll = Math.ceil(event.received / (POLL_HOURS * HOUR)) * POLL_HOURS * HOUR;
      const list = byPoll.get(poll) ?? [];
      list.push({ shipment, event });
      byPoll.set(poll, list);
    }
  }
  let bundles = 0;
  let interchanges = 0;
  for (const poll of [...byPoll.keys()].sort((a, b) => a - b)) {
    const now = () => new Date(poll);
    for (const carrier of world.carriers) {
      // A duplicate sent within one poll arrives in another message: one copy per poll here.
      const seen = new Set<string>();
      const items = byPoll.get(poll)!.filter((x) => x.shipment.lane.carrier === carrier && !seen.has(x.event.id) && seen.add(x.event.id));
      if (items.length === 0) continue;
      if (carrier.format === 'dcsa') {
        const summary = await ingestBundle(
          database,
          { carrierCode: carrier.code, shipments: [], events: items.map((x) => dcsaEvent(x.shipment, x.event)) },
          { now },
        );
        eventsStored += summary.eventsStored;
        bundles++;
      } else {
        const text = x12Interchange(carrier.code, ++interchanges, poll - 60_000, items);
        const summary = await ingestEdi(database, { carrierCode: carrier.code, format: 'x12-315', text }, { now, rejectedEventsMax: 1000 });
        if (summary.transactionsRejected > 0) throw new Error(`315 rejected: ${JSON.stringify(summary.rejected.slice(0, 2))}`);
        eventsStored += summary.eventsStored;
      }
    }
  }
  return { shipmentIds, bundles, interchanges, eventsStored };
}

const iso = (ms: number) => new Date(ms).toISOString();

function dcsaEvent(shipment: SimShipment, event: SimEvent): TrackingEvent {
  return {
    eventID: uuidv5(event.id, NAMESPACE),
    eventType: 'TRANSPORT',
    eventDateTime: iso(event.eventDateTime),
    eventCreatedDateTime: iso(event.created),
    eventClassifierCode: event.classifier,
    documentReferences: [{ documentReferenceType: 'BKG', documentReferenceValue: shipment.booking }],
    transportCall: {
      unLocationCode: event.port,
      location: { unLocationCode: event.port },
      modeOfTransport: 'VESSEL',
      facilityTypeCode: 'POTE',
      vessel: { vesselName: event.vessel.name, vesselIMONumber: event.vessel.imo },
      exportVoyageNumber: event.voyage,
      importVoyageNumber: event.voyage,
    },
    transportEventTypeCode: event.kind,
  };
}

const ymd = (ms: number) => iso(ms).slice(0, 10).replaceAll('-', '');
const hm = (ms: number) => iso(ms).slice(11, 16).replace(':', '');

/**
 * One 315 interchange of a carrier's hour: a status per message. An actual is its status (VD departure, VA
 * arrival, at the port where it happened); a plan or estimate rides on the container's gate-in status, repeated
 * (a duplicate the store keeps once), with the schedule times the 315 carries: DTM 139 under R4 L (departure)
 * and R4 D (arrival). A 315 names no transshipment plans, so the X12 carriers send none.
 */
function x12Interchange(
  carrierCode: string,
  control: number,
  issued: number,
  items: Array<{ shipment: SimShipment; event: SimEvent }>,
): string {
  const sender = `${carrierCode}ETA`.padEnd(15);
  const notation = new JSEDINotation([
    '00',
    '          ',
    '00',
    '          ',
    'ZZ',
    sender,
    'ZZ',
    'TRACKING'.padEnd(15),
    ymd(issued).slice(2),
    hm(issued),
    'U',
    '00401',
    String(control).padStart(9, '0'),
    '0',
    'P',
    '>',
  ]);
  const group = notation.addFunctionalGroup(['QO', sender.trim(), 'TRACKING', ymd(issued), hm(issued), String(control), 'X', '004010']);
  let st = 0;
  // Plans and estimates of one shipment ride on one gate-in status (the same event twice in one interchange is refused).
  const estimates = new Map<SimShipment, SimEvent[]>();
  for (const { shipment, event } of items) {
    if (event.classifier !== 'ACT') estimates.set(shipment, [...(estimates.get(shipment) ?? []), event]);
  }
  for (const [shipment, events] of estimates) {
    const tx = group.addTransaction(['315', String(++st).padStart(9, '0')]);
    const container = containerNumber(shipment);
    const gateIn = shipment.events[0]!;
    tx.addSegment('B4', [
      '',
      '',
      'I',
      ymd(gateIn.created),
      hm(gateIn.created),
      '',
      container.slice(0, 4),
      container.slice(4),
      '',
      '',
      shipment.lane.pol,
      'UN',
    ]);
    tx.addSegment('N9', ['BN', shipment.booking]);
    tx.addSegment('Q2', [gateIn.vessel.imo, '', '', '', '', '', '', '', gateIn.voyage, '', '', 'L', gateIn.vessel.name]);
    // One time per port function: the latest of this poll.
    for (const kind of ['DEPA', 'ARRI'] as const) {
      const last = events.filter((e) => e.kind === kind).at(-1);
      if (!last) continue;
      tx.addSegment('R4', [kind === 'DEPA' ? 'L' : 'D', 'UN', last.port]);
      tx.addSegment('DTM', ['139', ymd(last.eventDateTime), hm(last.eventDateTime)]);
    }
  }
  for (const { shipment, event } of items) {
    if (event.classifier !== 'ACT') continue;
    const tx = group.addTransaction(['315', String(++st).padStart(9, '0')]);
    tx.addSegment('B4', [
      '',
      '',
      event.kind === 'DEPA' ? 'VD' : 'VA',
      ymd(event.eventDateTime),
      hm(event.eventDateTime),
      '',
      '',
      '',
      '',
      '',
      event.port,
      'UN',
    ]);
    tx.addSegment('N9', ['BN', shipment.booking]);
    tx.addSegment('Q2', [event.vessel.imo, '', '', '', '', '', '', '', event.voyage, '', '', 'L', event.vessel.name]);
  }
  return new X12Generator(notation, {
    segmentTerminator: '~',
    elementDelimiter: '*',
    subElementDelimiter: '>',
    endOfLine: '\n',
    format: true,
  }).toString();
}
