import { containerCheckDigit } from '../src/domain/container-number.js';
import { imoCheckDigit } from '../src/domain/imo-number.js';

/**
 * Synthetic raw ingest bundles (docs/architecture.md, Ingest bundle) for the benchmark, valid
 * per parseBundle: ISO 6346 container numbers with check digits, IMO numbers
 * with check digits, UUID eventIDs, and milestones published in several
 * versions (PLN, then EST revisions, then ACT), half in DCSA 2.2 spelling
 * (UNLocationCode, local times with offsets) and half in the spec's.
 *
 * Per shipment, by default: 4 containers with 12 equipment events each,
 * 8 transport events and 3 shipment events (59 events). The `forwarder`
 * profile of the scale runs gives a mid-size forwarder's shipments instead:
 * 15 to 30 events, 20 on average (see FORWARDER_EVENTS). Deterministic: the
 * same index always gives the same shipment, so keys can be drawn at random
 * by index without keeping the data.
 */

export const BENCH_ACCOUNT = 'bench';
export const EVENTS_PER_CONTAINER = 12;
export const TRANSPORT_EVENTS = 8;
export const SHIPMENT_EVENTS = 3;

export function eventsPerShipment(containers: number): number {
  return containers * EVENTS_PER_CONTAINER + TRANSPORT_EVENTS + SHIPMENT_EVENTS;
}

const CARRIERS = [
  { code: 'MAEU', name: 'Maersk', owner: 'MSK' },
  { code: 'CMDU', name: 'CMA CGM', owner: 'CMA' },
  { code: 'HLCU', name: 'Hapag-Lloyd', owner: 'HLX' },
] as const;

interface Port {
  code: string;
  name: string;
  offset: number;
}

const PORTS: Port[] = [
  { code: 'CNSHA', name: 'Shanghai', offset: 8 },
  { code: 'SGSIN', name: 'Singapore', offset: 8 },
  { code: 'KRPUS', name: 'Busan', offset: 9 },
  { code: 'NLRTM', name: 'Rotterdam', offset: 1 },
  { code: 'DEHAM', name: 'Hamburg', offset: 1 },
  { code: 'USLAX', name: 'Los Angeles', offset: -8 },
  { code: 'FRLEH', name: 'Le Havre', offset: 1 },
  { code: 'MYPKG', name: 'Port Klang', offset: 8 },
];

const VESSELS = ['MAERSK EDINBURGH', 'CMA CGM MARCO POLO', 'BERLIN EXPRESS', 'EVER GIVEN', 'MSC GULSUN'].map((name, i) => {
  const firstSix = String(930_000 + i * 1_117);
  return { vesselName: name, vesselIMONumber: `${firstSix}${imoCheckDigit(firstSix)}` };
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** All schedules are anchored here, so runs are reproducible. */
const EPOCH = Date.UTC(2026, 0, 5, 6, 0, 0);

export interface ShipmentKey {
  carrierCode: string;
  carrierBookingReference: string;
  billOfLadingNumber: string;
}

/** The carrier of shipment `index`; bundles group shipments by carrier (events name their carrier). */
export function carrierOf(index: number): (typeof CARRIERS)[number] {
  return CARRIERS[index % CARRIERS.length] as (typeof CARRIERS)[number];
}

/** Identifiers of shipment `index` (the lookup keys the load generator draws from). */
export function shipmentKey(index: number, tag = 'B'): ShipmentKey {
  const carrier = carrierOf(index);
  const serial = String(index).padStart(9, '0');
  return {
    carrierCode: carrier.code,
    carrierBookingReference: `${carrier.code}-${tag}${serial}`,
    billOfLadingNumber: `${carrier.code}${tag}${serial}`,
  };
}

/** Deterministic UUID (version 4 layout) from a namespace number, a shipment index and an event number. */
function eventId(space: number, index: number, n: number): string {
  const hex = (v: number, width: number) => v.toString(16).padStart(width, '0');
  return `${hex(index, 8)}-${hex(space, 4)}-4${hex(n, 3)}-8000-${hex(index * 131 + n, 12)}`;
}

/** `stride` numbers are set aside per shipment index (at least `count`), so numbers never repeat across shipments. */
function containerNumbers(index: number, count: number, ownerPrefix: string, space: number, stride = count): string[] {
  // Owner letter 4 (category U) plus a per-space owner suffix keeps numbers distinct across shipments.
  return Array.from({ length: count }, (_, j) => {
    const n = index * stride + j;
    const owner = `${ownerPrefix.slice(0, 2)}${String.fromCharCode(65 + ((space + Math.floor(n / 1_000_000)) % 26))}U`;
    const firstTen = `${owner}${String(n % 1_000_000).padStart(6, '0')}`;
    return `${firstTen}${containerCheckDigit(firstTen)}`;
  });
}

/** An ISO timestamp; in DCSA spelling as local time with the port's offset. */
function at(ms: number, port: Port, dcsa: boolean): string {
  if (!dcsa) return new Date(ms).toISOString();
  const local = new Date(ms + port.offset * HOUR).toISOString().slice(0, 19);
  const sign = port.offset >= 0 ? '+' : '-';
  return `${local}${sign}${String(Math.abs(port.offset)).padStart(2, '0')}:00`;
}

function location(port: Port, dcsa: boolean) {
  return dcsa ? { locationName: port.name, UNLocationCode: port.code } : { locationName: port.name, unLocationCode: port.code };
}

export interface GeneratedShipment {
  shipment: Record<string, unknown>;
  events: Record<string, unknown>[];
}

export interface GenerateOptions {
  /** Containers on the shipment; default 4. */
  containers?: number;
  /** Distinguishes data sets in one database (keys and eventIDs); default 'B'. */
  tag?: string;
  /** Namespace of event IDs, distinct per tag; default 1. */
  space?: number;
  /**
   * `full` (default): `containers` containers, every event of the schedule (59 for 4 containers). `forwarder`:
   * a mid-size forwarder's shipment, 1 or 2 containers and 15 to 30 events (forwarderEvents); `containers` is
   * ignored.
   */
  profile?: 'full' | 'forwarder';
}

/**
 * Events per shipment of the `forwarder` profile, one entry per slot: 15 to 30, 20 on average (a mid-size
 * forwarder's shipments: mostly one container followed from booking to discharge, some with two).
 */
const FORWARDER_EVENTS = [15, 16, 16, 17, 17, 18, 18, 19, 19, 20, 21, 22, 23, 24, 25, 30] as const;
/** One container carries at most this many events in the forwarder profile (3 shipment + 8 transport + 12 equipment). */
const ONE_CONTAINER_EVENTS = SHIPMENT_EVENTS + TRANSPORT_EVENTS + EVENTS_PER_CONTAINER;
/** Container numbers set aside per shipment index in every profile (the default's 4), so profiles never collide. */
const CONTAINER_STRIDE = 4;

/** The event count of shipment `index` in the forwarder profile (a hash of the index picks its slot). */
export function forwarderEvents(index: number): number {
  const slot = (Math.imul(index, 0x9e3779b1) >>> 0) >>> 28;
  return FORWARDER_EVENTS[slot] as number;
}

/** Containers of shipment `index`: the forwarder profile's shipments above one container's events have two. */
function containerCount(index: number, options: GenerateOptions): number {
  if (options.profile !== 'forwarder') return options.containers ?? 4;
  return forwarderEvents(index) > ONE_CONTAINER_EVENTS ? 2 : 1;
}

/** The container numbers of shipment `index` (what its equipment events name as equipmentReference). */
export function containerNumbersOf(index: number, options: GenerateOptions = {}): string[] {
  const count = containerCount(index, options);
  const stride = options.profile === 'forwarder' ? CONTAINER_STRIDE : count;
  return containerNumbers(index, count, carrierOf(index).owner, options.space ?? 1, stride);
}

/** One shipment's master data and its 59 (by default) raw events. */
export function generateShipment(index: number, options: GenerateOptions = {}): GeneratedShipment {
  const count = containerCount(index, options);
  const tag = options.tag ?? 'B';
  const space = options.space ?? 1;
  const carrier = carrierOf(index);
  const key = shipmentKey(index, tag);
  const dcsa = index % 2 === 0;
  const pol = PORTS[index % PORTS.length] as Port;
  const pod = PORTS[(index + 3) % PORTS.length] as Port;
  const via = PORTS[(index + 1) % PORTS.length] as Port;
  const vessel = VESSELS[index % VESSELS.length] as (typeof VESSELS)[number];
  const voyage = `${(index % 90) + 10}W`;
  const departure = EPOCH + (index % 400) * DAY + (index % 24) * HOUR;
  const arrival = departure + 24 * DAY;
  // One shipment in ten runs a day late, enough for an ETA_DELAY exception.
  const delay = index % 10 === 0 ? 30 * HOUR : 2 * HOUR;
  const planned = departure - 30 * DAY;
  const containers = containerNumbersOf(index, options);
  // The forwarder profile leaves out events of least interest first (lower rank first): see leaveOut.
  const optional = new Map<object, number>();
  const mayDrop = <T extends object>(event: T, rank: number): T => {
    optional.set(event, rank);
    return event;
  };

  let n = 0;
  const id = () => eventId(space, index, n++);
  const bkg = [{ documentReferenceType: 'BKG', documentReferenceValue: key.carrierBookingReference }];
  const call = (port: Port) => ({
    ...(dcsa ? { transportCallID: `TC-${port.code}-${vessel.vesselIMONumber}-${voyage}` } : {}),
    modeOfTransport: 'VESSEL',
    facilityTypeCode: 'POTE',
    ...(dcsa ? { UNLocationCode: port.code } : { unLocationCode: port.code }),
    location: location(port, dcsa),
    exportVoyageNumber: voyage,
    importVoyageNumber: voyage,
    vessel,
  });
  const base = (classifier: 'PLN' | 'EST' | 'ACT', when: number, created: number, port: Port) => ({
    eventID: id(),
    eventClassifierCode: classifier,
    eventDateTime: at(when, port, dcsa),
    eventCreatedDateTime: new Date(created).toISOString(),
  });

  const shipmentEvent = (code: string, when: number, documentTypeCode: string, documentID: string, refs?: object[]) => ({
    ...base('ACT', when, when + 60_000, pol),
    eventType: 'SHIPMENT',
    shipmentEventTypeCode: code,
    documentTypeCode,
    documentID,
    ...(refs ? { documentReferences: refs } : {}),
  });
  const shipmentEvents = [
    shipmentEvent('CONF', planned, 'BKG', key.carrierBookingReference),
    mayDrop(shipmentEvent('RECE', departure - 5 * DAY, 'SHI', `SI-${key.carrierBookingReference}`, bkg), 6),
    shipmentEvent('ISSU', departure + DAY, 'TRD', key.billOfLadingNumber),
  ];

  const transport = (code: 'DEPA' | 'ARRI', classifier: 'PLN' | 'EST' | 'ACT', when: number, created: number, port: Port) => ({
    ...base(classifier, when, created, port),
    eventType: 'TRANSPORT',
    transportEventTypeCode: code,
    documentReferences: bkg,
    transportCall: call(port),
  });
  const transportEvents = [
    transport('DEPA', 'PLN', departure, planned, pol),
    transport('DEPA', 'EST', departure + HOUR, departure - 2 * DAY, pol),
    transport('DEPA', 'ACT', departure + 2 * HOUR, departure + 2 * HOUR, pol),
    mayDrop(transport('ARRI', 'PLN', departure + 10 * DAY, planned, via), 2),
    mayDrop(transport('DEPA', 'PLN', departure + 11 * DAY, planned, via), 2),
    transport('ARRI', 'PLN', arrival, planned, pod),
    transport('ARRI', 'EST', arrival + delay / 2, departure + 3 * DAY, pod),
    transport('ARRI', 'EST', arrival + delay, departure + 5 * DAY, pod),
  ];

  const equipmentEvents = containers.flatMap((container, j) => {
    const equipment = (
      code: string,
      classifier: 'PLN' | 'EST' | 'ACT',
      when: number,
      created: number,
      port: Port,
      empty: boolean,
      onVessel: boolean,
    ) => ({
      ...base(classifier, when + j * 60_000, created, port),
      eventType: 'EQUIPMENT',
      equipmentEventTypeCode: code,
      equipmentReference: container,
      emptyIndicatorCode: empty ? 'EMPTY' : 'LADEN',
      documentReferences: bkg,
      ...(onVessel ? { transportCall: call(port) } : { eventLocation: location(port, dcsa) }),
    });
    // Ranks of the optional ones: a later container's go before an earlier one's of the same rank.
    const rank = (r: number) => r + (count - 1 - j) / count;
    return [
      mayDrop(equipment('GTOT', 'PLN', departure - 6 * DAY, planned, pol, true, false), rank(3)),
      equipment('GTOT', 'ACT', departure - 6 * DAY + HOUR, departure - 6 * DAY + HOUR, pol, true, false),
      equipment('STUF', 'ACT', departure - 5 * DAY, departure - 5 * DAY, pol, false, false),
      mayDrop(equipment('GTIN', 'PLN', departure - 3 * DAY, planned, pol, false, false), rank(4)),
      equipment('GTIN', 'ACT', departure - 3 * DAY + 2 * HOUR, departure - 3 * DAY + 2 * HOUR, pol, false, false),
      equipment('LOAD', 'PLN', departure - 6 * HOUR, planned, pol, false, true),
      mayDrop(equipment('LOAD', 'EST', departure - 5 * HOUR, departure - 2 * DAY, pol, false, true), rank(5)),
      equipment('LOAD', 'ACT', departure - 4 * HOUR, departure - 4 * HOUR, pol, false, true),
      equipment('DISC', 'PLN', arrival + 6 * HOUR, planned, pod, false, true),
      equipment('DISC', 'EST', arrival + delay + 6 * HOUR, departure + 5 * DAY, pod, false, true),
      mayDrop(equipment('GTOT', 'PLN', arrival + 2 * DAY, planned, pod, false, false), rank(1)),
      mayDrop(equipment('GTIN', 'PLN', arrival + 6 * DAY, planned, pod, true, false), rank(0)),
    ];
  });

  const references = {
    customer_name: `Customer ${index % 97}`,
    string_ref1: `PO-${index}`,
    booking_dt: new Date(planned).toISOString(),
  };
  const shipment = {
    bookingReference: `FWD-${tag}${index}`,
    ...key,
    carrierName: carrier.name,
    serviceType: index % 3 === 0 ? 'DOOR_TO_DOOR' : 'PORT_TO_PORT',
    vesselName: vessel.vesselName,
    voyageNumber: voyage,
    portOfLoading: { locationName: pol.name, unLocationCode: pol.code },
    portOfDischarge: { locationName: pod.name, unLocationCode: pod.code },
    placeOfReceipt: { locationName: pol.name, unLocationCode: pol.code },
    placeOfDelivery: { locationName: pod.name, unLocationCode: pod.code },
    references,
    accounts: [BENCH_ACCOUNT],
    containers: containers.map((containerNumber, j) => ({
      containerNumber,
      isoType: j % 2 === 0 ? '45G1' : '22G1',
      references: { customer_name: references.customer_name, string_ref1: `PO-${index}-${j}` },
    })),
  };
  const events = [...shipmentEvents, ...transportEvents, ...equipmentEvents];
  return { shipment, events: options.profile === 'forwarder' ? leaveOut(events, optional, forwarderEvents(index)) : events };
}

/**
 * Keeps `keep` of the events, leaving out optional ones, lowest rank first: plans of the empty container's
 * moves at destination, the transshipment call, plans of the gate moves at origin, the load estimate, the
 * shipping instructions' receipt. What stays is a shipment followed from booking to discharge, with its
 * departure and arrival in several versions (PLN, EST, ACT) and, one in ten, its day of delay.
 */
function leaveOut(events: Record<string, unknown>[], optional: Map<object, number>, keep: number): Record<string, unknown>[] {
  const drop = events.length - keep;
  if (drop <= 0) return events;
  const candidates = [...optional.entries()].sort((a, b) => a[1] - b[1]);
  if (candidates.length < drop) throw new Error(`cannot leave out ${drop} of ${events.length} events`);
  const dropped = new Set(candidates.slice(0, drop).map(([event]) => event));
  return events.filter((e) => !dropped.has(e));
}

/** A raw bundle of the given shipment indexes, which must share one carrier. */
export function bundleOf(indexes: readonly number[], options: GenerateOptions = {}): Record<string, unknown> {
  const first = indexes[0];
  if (first === undefined) throw new Error('a bundle needs at least one shipment');
  const generated = indexes.map((i) => generateShipment(i, options));
  return {
    carrierCode: carrierOf(first).code,
    shipments: generated.map((g) => g.shipment),
    events: generated.flatMap((g) => g.events),
  };
}

/** Shipment indexes 0..count-1, grouped by carrier into bundles of at most `size` shipments. */
export function bundleIndexes(count: number, size: number, from = 0): number[][] {
  const byCarrier = CARRIERS.map(() => [] as number[]);
  for (let i = from; i < from + count; i++) byCarrier[i % CARRIERS.length]?.push(i);
  const bundles: number[][] = [];
  for (const list of byCarrier) for (let i = 0; i < list.length; i += size) bundles.push(list.slice(i, i + size));
  return bundles;
}
