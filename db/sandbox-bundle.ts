import { v5 as uuidv5 } from 'uuid';

/**
 * The sandbox seed: raw ingest bundles (docs/architecture.md, Ingest bundle), one per carrier,
 * that `tracking serve` loads into an empty sandbox database. Every time is
 * relative to `now`, so the demo looks current whenever it is started.
 *
 * The stories, by the exception engine's rules (docs/architecture.md, Exception rules):
 *
 * | shipment | story | exceptions |
 * |---|---|---|
 * | MAEU 262150001 | Shanghai → Singapore → Rotterdam → Duisburg; late feeder misses the mother vessel, rebooked on a later one | MISSED_CONNECTION resolved REBOOKED; ETA_DELAY detected (CRITICAL) |
 * | MAEU 262150002 | Shanghai → Rotterdam, arrived two days late, boxes waiting / gated out | ETA_DELAY resolved EVENT_ACTUALIZED; DEMURRAGE_RISK detected and resolved; DETENTION_RISK detected |
 * | MAEU 262150003 | Shanghai → Hamburg, vessel sailed without two of three boxes | ROLLOVER detected; ROLLOVER resolved REBOOKED |
 * | MAEU 261900004 | delivered two months ago; its box MSKU1357908 is now on 262150005 | DETENTION_RISK resolved EVENT_ACTUALIZED |
 * | MAEU 262150005 | the reused box, on the water now (small delay, under threshold) | none |
 * | CMDU CNSHA2600451 | Shanghai → Port Klang → Le Havre; feeder running late for its connection | MISSED_CONNECTION detected |
 * | CMDU KRPUS2600087 | Busan → Los Angeles, for `other-account`; delay announced then recovered | ETA_DELAY resolved SCHEDULE_RECOVERED |
 *
 * Identifiers are valid (ISO 6346 check digits, IMO check digits). Event IDs
 * are UUID v5 of carrier, booking and a label, independent of `now`, so a
 * reseed is idempotent (ingest skips stored eventIDs). MAEU publishes in
 * DCSA 2.2 spelling (`UNLocationCode`, local times with UTC offsets, call
 * IDs), CMDU in the spec's spelling (`unLocationCode`, UTC), with a few
 * MAEU equipment events in the spec's spelling too. Every eventCreatedDateTime
 * is at or before `now`.
 */

/**
 * Namespace of sandbox event IDs.
 * @NOTE Fixed forever: changing it would make a reseed store every event twice.
 */
export const SANDBOX_EVENT_NAMESPACE = '0b6e9d3c-5f1a-4c2e-8a7d-3e9f1b2c4d5a';

export const SANDBOX_ACCOUNT = 'demo-account';
export const SANDBOX_OTHER_ACCOUNT = 'other-account';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

interface Port {
  code: string;
  name: string;
  /** Standard UTC offset in hours, for DCSA local timestamps. */
  utcOffset: number;
}

const PORTS = {
  CNSHA: { code: 'CNSHA', name: 'Shanghai', utcOffset: 8 },
  SGSIN: { code: 'SGSIN', name: 'Singapore', utcOffset: 8 },
  MYPKG: { code: 'MYPKG', name: 'Port Klang', utcOffset: 8 },
  KRPUS: { code: 'KRPUS', name: 'Busan', utcOffset: 9 },
  NLRTM: { code: 'NLRTM', name: 'Rotterdam', utcOffset: 1 },
  DEHAM: { code: 'DEHAM', name: 'Hamburg', utcOffset: 1 },
  DEDUI: { code: 'DEDUI', name: 'Duisburg', utcOffset: 1 },
  FRLEH: { code: 'FRLEH', name: 'Le Havre', utcOffset: 1 },
  USLAX: { code: 'USLAX', name: 'Los Angeles', utcOffset: -8 },
} as const satisfies Record<string, Port>;

interface Vessel {
  vesselName: string;
  vesselIMONumber: string;
}

/** Fictional vessels with valid IMO check digits. */
const VESSELS = {
  ALTAIR: { vesselName: 'MAERSK ALTAIR', vesselIMONumber: '9321483' },
  BELLATRIX: { vesselName: 'MAERSK BELLATRIX', vesselIMONumber: '9312341' },
  CAPELLA: { vesselName: 'MAERSK CAPELLA', vesselIMONumber: '9753246' },
  DENEB: { vesselName: 'MAERSK DENEB', vesselIMONumber: '9800013' },
  ELNATH: { vesselName: 'MAERSK ELNATH', vesselIMONumber: '9472115' },
  FOMALHAUT: { vesselName: 'MAERSK FOMALHAUT', vesselIMONumber: '9623178' },
  LYRA: { vesselName: 'CMA CGM LYRA', vesselIMONumber: '9554327' },
  ORION: { vesselName: 'CMA CGM ORION', vesselIMONumber: '9730012' },
  VEGA: { vesselName: 'CMA CGM VEGA', vesselIMONumber: '9811220' },
} as const satisfies Record<string, Vessel>;

type Spelling = 'dcsa' | 'spec';
type Classifier = 'PLN' | 'EST' | 'ACT';

interface Leg {
  vessel: Vessel;
  voyage: string;
}

/** Writes the events of one shipment; times are days/hours from the (hour-aligned) base instant. */
class ShipmentScript {
  readonly events: Record<string, unknown>[] = [];

  constructor(
    private readonly carrierCode: string,
    private readonly booking: string,
    private readonly billOfLading: string,
    private readonly spelling: Spelling,
    private readonly base: number,
  ) {}

  /** An instant `days` (+ `hours`) from the base; negative is the past. */
  t(days: number, hours = 0): number {
    return this.base + days * DAY + hours * HOUR;
  }

  /** Hours from the base, for labels: event IDs must not depend on `now`. */
  private rel(ms: number): string {
    return String((ms - this.base) / HOUR);
  }

  private id(label: string): string {
    return uuidv5(`${this.carrierCode}/${this.booking}/${label}`, SANDBOX_EVENT_NAMESPACE);
  }

  /** DCSA publishes local time with offset; the spec spelling here uses UTC. */
  private stamp(ms: number, port: Port | undefined, spelling: Spelling): string {
    if (spelling === 'spec' || !port) return new Date(ms).toISOString();
    const local = new Date(ms + port.utcOffset * HOUR).toISOString().slice(0, 19);
    const sign = port.utcOffset < 0 ? '-' : '+';
    return `${local}${sign}${String(Math.abs(port.utcOffset)).padStart(2, '0')}:00`;
  }

  private location(port: Port, spelling: Spelling): Record<string, string> {
    return spelling === 'dcsa'
      ? { locationName: port.name, UNLocationCode: port.code }
      : { locationName: port.name, unLocationCode: port.code };
  }

  private call(port: Port, leg: Leg, spelling: Spelling): Record<string, unknown> {
    const code = spelling === 'dcsa' ? { UNLocationCode: port.code } : { unLocationCode: port.code };
    return {
      ...(spelling === 'dcsa' ? { transportCallID: this.id(`call/${port.code}/${leg.vessel.vesselIMONumber}/${leg.voyage}`) } : {}),
      exportVoyageNumber: leg.voyage,
      importVoyageNumber: leg.voyage,
      ...code,
      facilityTypeCode: 'POTE',
      modeOfTransport: 'VESSEL',
      location: this.location(port, spelling),
      vessel: { vesselIMONumber: leg.vessel.vesselIMONumber, vesselName: leg.vessel.vesselName },
    };
  }

  private references(): Record<string, unknown>[] {
    return [{ documentReferenceType: 'BKG', documentReferenceValue: this.booking }];
  }

  shipment(type: 'CONF' | 'ISSU', at: number): void {
    const booking = type === 'CONF';
    this.events.push({
      eventID: this.id(`shipment/${type}`),
      eventType: 'SHIPMENT',
      eventClassifierCode: 'ACT',
      eventDateTime: this.stamp(at, undefined, this.spelling),
      eventCreatedDateTime: new Date(at).toISOString(),
      documentTypeCode: booking ? 'BKG' : 'TRD',
      documentID: booking ? this.booking : this.billOfLading,
      shipmentEventTypeCode: type,
    });
  }

  transport(type: 'ARRI' | 'DEPA', classifier: Classifier, port: Port, leg: Leg, at: number, created: number): void {
    this.events.push({
      eventID: this.id(`transport/${type}/${classifier}/${port.code}/${leg.vessel.vesselIMONumber}/${this.rel(created)}`),
      eventType: 'TRANSPORT',
      eventClassifierCode: classifier,
      eventDateTime: this.stamp(at, port, this.spelling),
      eventCreatedDateTime: new Date(created).toISOString(),
      transportEventTypeCode: type,
      documentReferences: this.references(),
      transportCall: this.call(port, leg, this.spelling),
    });
  }

  /** LOAD / DISC carry the vessel call; gate moves only the location. */
  equipment(
    type: 'LOAD' | 'DISC' | 'GTIN' | 'GTOT',
    classifier: Classifier,
    container: string,
    port: Port,
    at: number,
    created: number,
    options: { leg?: Leg; empty?: boolean; spelling?: Spelling } = {},
  ): void {
    const spelling = options.spelling ?? this.spelling;
    this.events.push({
      eventID: this.id(`equipment/${type}/${classifier}/${container}/${port.code}/${this.rel(created)}`),
      eventType: 'EQUIPMENT',
      eventClassifierCode: classifier,
      eventDateTime: this.stamp(at, port, spelling),
      eventCreatedDateTime: new Date(created).toISOString(),
      equipmentEventTypeCode: type,
      equipmentReference: container,
      emptyIndicatorCode: options.empty ? 'EMPTY' : 'LADEN',
      documentReferences: this.references(),
      eventLocation: this.location(port, spelling),
      ...(options.leg ? { transportCall: this.call(port, options.leg, spelling) } : {}),
    });
  }
}

function location(port: Port): Record<string, string> {
  return { locationName: port.name, unLocationCode: port.code };
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

function container(containerNumber: string, isoType: string, customer: string, freeTime?: number) {
  return {
    containerNumber,
    isoType,
    references: {
      customer_name: customer,
      ...(freeTime !== undefined ? { free_time_exp_dt: iso(freeTime) } : {}),
    },
  };
}

/** The sandbox bundles, one per carrier, with every time relative to `now`. */
export function buildSandboxBundle(now: Date): unknown[] {
  // Hour-aligned so that the demo shows round times; never after `now`.
  const base = Math.floor(now.getTime() / HOUR) * HOUR;
  return [maerskBundle(base), cmaCgmBundle(base)];
}

function maerskBundle(base: number): unknown {
  const carrier = { carrierCode: 'MAEU', carrierName: 'Maersk' };
  const shipments: unknown[] = [];
  const events: unknown[] = [];

  // 1. Transshipment in Singapore: the feeder runs late and misses MAERSK
  //    BELLATRIX; the carrier rebooks onto MAERSK DENEB two days later, so
  //    the connection is resolved REBOOKED and the arrival in Rotterdam is 3
  //    days late (ETA_DELAY, CRITICAL).
  {
    const s = new ShipmentScript('MAEU', '262150001', 'MAEU262150001', 'dcsa', base);
    const feeder = { vessel: VESSELS.ALTAIR, voyage: '612W' };
    const mother = { vessel: VESSELS.BELLATRIX, voyage: '613W' };
    const rebooked = { vessel: VESSELS.DENEB, voyage: '614W' };
    const boxes = ['MSKU1234565', 'MSKU7654328'];
    shipments.push({
      ...carrier,
      bookingReference: 'FWD-2026-0101',
      carrierBookingReference: '262150001',
      billOfLadingNumber: 'MAEU262150001',
      serviceType: 'PORT_TO_DOOR',
      vesselName: mother.vessel.vesselName,
      voyageNumber: mother.voyage,
      portOfLoading: location(PORTS.CNSHA),
      portOfDischarge: location(PORTS.NLRTM),
      placeOfReceipt: location(PORTS.CNSHA),
      placeOfDelivery: location(PORTS.DEDUI),
      references: {
        customer_name: 'Rhein Bikes GmbH',
        string_ref1: 'PO-88121',
        booking_dt: iso(s.t(-25)),
        cargo_ready_dt: iso(s.t(-16)),
        si_cutoff_dt: iso(s.t(-15)),
        vgm_cutoff_dt: iso(s.t(-14)),
      },
      accounts: [SANDBOX_ACCOUNT],
      containers: boxes.map((b) => container(b, '45G1', 'Rhein Bikes GmbH', s.t(24))),
    });
    s.shipment('CONF', s.t(-25));
    s.transport('DEPA', 'PLN', PORTS.CNSHA, feeder, s.t(-12), s.t(-25));
    s.transport('ARRI', 'PLN', PORTS.SGSIN, feeder, s.t(-5), s.t(-25));
    s.transport('DEPA', 'PLN', PORTS.SGSIN, mother, s.t(-4, 12), s.t(-25));
    s.transport('ARRI', 'PLN', PORTS.NLRTM, mother, s.t(18), s.t(-25));
    for (const box of boxes) {
      s.equipment('LOAD', 'PLN', box, PORTS.CNSHA, s.t(-12, -6), s.t(-25), { leg: feeder });
      s.equipment('GTIN', 'ACT', box, PORTS.CNSHA, s.t(-14), s.t(-14), { spelling: 'spec' });
      s.equipment('LOAD', 'ACT', box, PORTS.CNSHA, s.t(-12, -4), s.t(-12, -4), { leg: feeder });
    }
    s.transport('DEPA', 'ACT', PORTS.CNSHA, feeder, s.t(-12, 2), s.t(-12, 2));
    s.shipment('ISSU', s.t(-11));
    // The feeder will arrive 8 h after the mother vessel leaves: missed connection.
    s.transport('ARRI', 'EST', PORTS.SGSIN, feeder, s.t(-4, 20), s.t(-7));
    // Rebooked on MAERSK DENEB, two days later: the connection holds again, the eta moves.
    s.transport('DEPA', 'PLN', PORTS.SGSIN, rebooked, s.t(-2), s.t(-6));
    s.transport('ARRI', 'PLN', PORTS.NLRTM, rebooked, s.t(20, 12), s.t(-6));
    for (const box of boxes) {
      s.equipment('LOAD', 'PLN', box, PORTS.SGSIN, s.t(-2, -6), s.t(-6), { leg: rebooked });
      s.equipment('DISC', 'PLN', box, PORTS.NLRTM, s.t(21, 6), s.t(-6), { leg: rebooked });
    }
    s.transport('ARRI', 'ACT', PORTS.SGSIN, feeder, s.t(-4, 18), s.t(-4, 18));
    for (const box of boxes) {
      s.equipment('DISC', 'ACT', box, PORTS.SGSIN, s.t(-4, 22), s.t(-4, 22), { leg: feeder });
      s.equipment('LOAD', 'ACT', box, PORTS.SGSIN, s.t(-2, -4), s.t(-2, -4), { leg: rebooked });
    }
    s.transport('DEPA', 'ACT', PORTS.SGSIN, rebooked, s.t(-2, 1), s.t(-2, 1));
    s.transport('ARRI', 'EST', PORTS.NLRTM, rebooked, s.t(21), s.t(-1));
    events.push(...s.events);
  }

  // 2. Direct Shanghai → Rotterdam, two days late (ETA_DELAY resolved when
  //    the vessel actually arrived). MRKU1122331 waits at the terminal with
  //    free time ending tomorrow (DEMURRAGE_RISK WARNING); MRKU4455660 was
  //    picked up inside the demurrage window (resolved) and is not back
  //    empty although its free time is over (DETENTION_RISK CRITICAL).
  {
    const s = new ShipmentScript('MAEU', '262150002', 'MAEU262150002', 'dcsa', base);
    const leg = { vessel: VESSELS.CAPELLA, voyage: '615W' };
    const waiting = 'MRKU1122331';
    const pickedUp = 'MRKU4455660';
    shipments.push({
      ...carrier,
      bookingReference: 'FWD-2026-0102',
      carrierBookingReference: '262150002',
      billOfLadingNumber: 'MAEU262150002',
      serviceType: 'PORT_TO_PORT',
      vesselName: leg.vessel.vesselName,
      voyageNumber: leg.voyage,
      portOfLoading: location(PORTS.CNSHA),
      portOfDischarge: location(PORTS.NLRTM),
      placeOfReceipt: location(PORTS.CNSHA),
      placeOfDelivery: location(PORTS.NLRTM),
      references: { customer_name: 'Dutch Home Retail BV', string_ref1: 'PO-55410', booking_dt: iso(s.t(-40)) },
      accounts: [SANDBOX_ACCOUNT],
      containers: [
        container(waiting, '45G1', 'Dutch Home Retail BV', s.t(1)),
        container(pickedUp, '22G1', 'Dutch Home Retail BV', s.t(-1)),
      ],
    });
    s.shipment('CONF', s.t(-40));
    s.transport('DEPA', 'PLN', PORTS.CNSHA, leg, s.t(-30), s.t(-40));
    s.transport('ARRI', 'PLN', PORTS.NLRTM, leg, s.t(-6), s.t(-40));
    for (const box of [waiting, pickedUp]) {
      s.equipment('LOAD', 'PLN', box, PORTS.CNSHA, s.t(-30, -6), s.t(-40), { leg });
      s.equipment('LOAD', 'ACT', box, PORTS.CNSHA, s.t(-30, -4), s.t(-30, -4), { leg });
    }
    s.transport('DEPA', 'ACT', PORTS.CNSHA, leg, s.t(-30, 1), s.t(-30, 1));
    s.shipment('ISSU', s.t(-28));
    s.transport('ARRI', 'EST', PORTS.NLRTM, leg, s.t(-4), s.t(-10));
    s.transport('ARRI', 'ACT', PORTS.NLRTM, leg, s.t(-4, 2), s.t(-4, 2));
    s.equipment('DISC', 'ACT', pickedUp, PORTS.NLRTM, s.t(-3, 18), s.t(-3, 18), { leg });
    s.equipment('DISC', 'ACT', waiting, PORTS.NLRTM, s.t(-3, 20), s.t(-3, 20), { leg, spelling: 'spec' });
    s.equipment('GTOT', 'ACT', pickedUp, PORTS.NLRTM, s.t(-2), s.t(-2));
    events.push(...s.events);
  }

  // 3. Shanghai → Hamburg: MAERSK ELNATH sailed yesterday without
  //    MSKU9000012 and TCLU2468107 (ROLLOVER, both); TCLU2468107 has since
  //    been rebooked on MAERSK FOMALHAUT (resolved REBOOKED).
  {
    const s = new ShipmentScript('MAEU', '262150003', 'MAEU262150003', 'dcsa', base);
    const leg = { vessel: VESSELS.ELNATH, voyage: '620W' };
    const next = { vessel: VESSELS.FOMALHAUT, voyage: '624W' };
    const leftBehind = 'MSKU9000012';
    const loaded = 'MAEU4455664';
    const rebooked = 'TCLU2468107';
    const boxes = [leftBehind, loaded, rebooked];
    shipments.push({
      ...carrier,
      bookingReference: 'FWD-2026-0103',
      carrierBookingReference: '262150003',
      billOfLadingNumber: 'MAEU262150003',
      serviceType: 'PORT_TO_PORT',
      vesselName: leg.vessel.vesselName,
      voyageNumber: leg.voyage,
      portOfLoading: location(PORTS.CNSHA),
      portOfDischarge: location(PORTS.DEHAM),
      placeOfReceipt: location(PORTS.CNSHA),
      placeOfDelivery: location(PORTS.DEHAM),
      references: { customer_name: 'Hanse Electronics AG', booking_dt: iso(s.t(-15)) },
      accounts: [SANDBOX_ACCOUNT],
      containers: boxes.map((b) => container(b, '45G1', 'Hanse Electronics AG')),
    });
    s.shipment('CONF', s.t(-15));
    s.transport('DEPA', 'PLN', PORTS.CNSHA, leg, s.t(-1), s.t(-15));
    s.transport('ARRI', 'PLN', PORTS.DEHAM, leg, s.t(30), s.t(-15));
    for (const box of boxes) {
      s.equipment('LOAD', 'PLN', box, PORTS.CNSHA, s.t(-1, -8), s.t(-15), { leg });
      s.equipment('GTIN', 'ACT', box, PORTS.CNSHA, s.t(-4), s.t(-4), { spelling: 'spec' });
      s.equipment('LOAD', 'EST', box, PORTS.CNSHA, s.t(-1, -6), s.t(-3), { leg });
    }
    s.equipment('LOAD', 'ACT', loaded, PORTS.CNSHA, s.t(-1, -5), s.t(-1, -5), { leg });
    s.transport('DEPA', 'ACT', PORTS.CNSHA, leg, s.t(-1), s.t(-1, 1));
    s.transport('DEPA', 'PLN', PORTS.CNSHA, next, s.t(6), s.t(0, -10));
    s.equipment('LOAD', 'PLN', rebooked, PORTS.CNSHA, s.t(6, -6), s.t(0, -10), { leg: next });
    events.push(...s.events);
  }

  // 4. Delivered two months ago; the empty came back a day after its free
  //    time (DETENTION_RISK detected, then resolved by the return). Its box
  //    MSKU1357908 now travels on shipment 5.
  const reused = 'MSKU1357908';
  {
    const s = new ShipmentScript('MAEU', '261900004', 'MAEU261900004', 'dcsa', base);
    const leg = { vessel: VESSELS.CAPELLA, voyage: '590W' };
    shipments.push({
      ...carrier,
      bookingReference: 'FWD-2025-0977',
      carrierBookingReference: '261900004',
      billOfLadingNumber: 'MAEU261900004',
      serviceType: 'PORT_TO_PORT',
      vesselName: leg.vessel.vesselName,
      voyageNumber: leg.voyage,
      portOfLoading: location(PORTS.CNSHA),
      portOfDischarge: location(PORTS.NLRTM),
      placeOfReceipt: location(PORTS.CNSHA),
      placeOfDelivery: location(PORTS.NLRTM),
      references: { customer_name: 'Rhein Bikes GmbH', booking_dt: iso(s.t(-100)) },
      accounts: [SANDBOX_ACCOUNT],
      containers: [container(reused, '45G1', 'Rhein Bikes GmbH', s.t(-64))],
    });
    s.shipment('CONF', s.t(-100));
    s.transport('DEPA', 'PLN', PORTS.CNSHA, leg, s.t(-95), s.t(-100));
    s.transport('ARRI', 'PLN', PORTS.NLRTM, leg, s.t(-68), s.t(-100));
    s.equipment('LOAD', 'PLN', reused, PORTS.CNSHA, s.t(-95, -6), s.t(-100), { leg });
    s.equipment('LOAD', 'ACT', reused, PORTS.CNSHA, s.t(-95, -4), s.t(-95, -4), { leg });
    s.transport('DEPA', 'ACT', PORTS.CNSHA, leg, s.t(-95, 1), s.t(-95, 1));
    s.shipment('ISSU', s.t(-93));
    s.transport('ARRI', 'ACT', PORTS.NLRTM, leg, s.t(-68, 3), s.t(-68, 3));
    s.equipment('DISC', 'ACT', reused, PORTS.NLRTM, s.t(-68, 8), s.t(-68, 8), { leg });
    s.equipment('GTOT', 'ACT', reused, PORTS.NLRTM, s.t(-66), s.t(-66));
    s.equipment('GTIN', 'ACT', reused, PORTS.NLRTM, s.t(-63), s.t(-63), { empty: true });
    events.push(...s.events);
  }

  // 5. The reused box on its current trip, 6 h behind plan (under the
  //    threshold): no exception. A lookup by MSKU1357908 alone finds this one.
  {
    const s = new ShipmentScript('MAEU', '262150005', 'MAEU262150005', 'spec', base);
    const leg = { vessel: VESSELS.BELLATRIX, voyage: '617W' };
    const boxes = [reused, 'TGHU8765436'];
    shipments.push({
      ...carrier,
      bookingReference: 'FWD-2026-0105',
      carrierBookingReference: '262150005',
      billOfLadingNumber: 'MAEU262150005',
      serviceType: 'PORT_TO_PORT',
      vesselName: leg.vessel.vesselName,
      voyageNumber: leg.voyage,
      portOfLoading: location(PORTS.CNSHA),
      portOfDischarge: location(PORTS.NLRTM),
      placeOfReceipt: location(PORTS.CNSHA),
      placeOfDelivery: location(PORTS.NLRTM),
      references: { customer_name: 'Rhein Bikes GmbH', string_ref1: 'PO-90233', booking_dt: iso(s.t(-9)) },
      accounts: [SANDBOX_ACCOUNT],
      containers: boxes.map((b) => container(b, '45G1', 'Rhein Bikes GmbH', s.t(30))),
    });
    s.shipment('CONF', s.t(-9));
    s.transport('DEPA', 'PLN', PORTS.CNSHA, leg, s.t(-3), s.t(-9));
    s.transport('ARRI', 'PLN', PORTS.NLRTM, leg, s.t(26), s.t(-9));
    for (const box of boxes) {
      s.equipment('LOAD', 'PLN', box, PORTS.CNSHA, s.t(-3, -6), s.t(-9), { leg });
      s.equipment('LOAD', 'ACT', box, PORTS.CNSHA, s.t(-3, -4), s.t(-3, -4), { leg });
    }
    s.transport('DEPA', 'ACT', PORTS.CNSHA, leg, s.t(-3, 2), s.t(-3, 2));
    s.transport('ARRI', 'EST', PORTS.NLRTM, leg, s.t(26, 6), s.t(-1));
    events.push(...s.events);
  }

  return { carrierCode: 'MAEU', shipments, events };
}

function cmaCgmBundle(base: number): unknown {
  const carrier = { carrierCode: 'CMDU', carrierName: 'CMA CGM' };
  const shipments: unknown[] = [];
  const events: unknown[] = [];

  // 6. Shanghai → Port Klang → Le Havre: CMA CGM LYRA now arrives in Port
  //    Klang 14 h after CMA CGM ORION leaves (MISSED_CONNECTION, open).
  {
    const s = new ShipmentScript('CMDU', 'CNSHA2600451', 'CMDUSHA2600451', 'spec', base);
    const feeder = { vessel: VESSELS.LYRA, voyage: '0FLA1W' };
    const mother = { vessel: VESSELS.ORION, voyage: '0FLB2W' };
    const boxes = ['CMAU1002002', 'CMAU3004004'];
    shipments.push({
      ...carrier,
      bookingReference: 'FWD-2026-0106',
      carrierBookingReference: 'CNSHA2600451',
      billOfLadingNumber: 'CMDUSHA2600451',
      serviceType: 'DOOR_TO_PORT',
      vesselName: mother.vessel.vesselName,
      voyageNumber: mother.voyage,
      portOfLoading: location(PORTS.CNSHA),
      portOfDischarge: location(PORTS.FRLEH),
      placeOfReceipt: { locationName: 'Suzhou Industrial Park', address: { name: 'Suzhou Industrial Park' } },
      placeOfDelivery: location(PORTS.FRLEH),
      references: { customer_name: 'Normandie Textiles SA', string_ref2: 'LC-7781', booking_dt: iso(s.t(-20)) },
      accounts: [SANDBOX_ACCOUNT],
      containers: boxes.map((b) => container(b, '40HC', 'Normandie Textiles SA')),
    });
    s.shipment('CONF', s.t(-20));
    s.transport('DEPA', 'PLN', PORTS.CNSHA, feeder, s.t(-8), s.t(-20));
    s.transport('ARRI', 'PLN', PORTS.MYPKG, feeder, s.t(-2), s.t(-20));
    s.transport('DEPA', 'PLN', PORTS.MYPKG, mother, s.t(1), s.t(-20));
    s.transport('ARRI', 'PLN', PORTS.FRLEH, mother, s.t(22), s.t(-20));
    for (const box of boxes) {
      s.equipment('LOAD', 'PLN', box, PORTS.CNSHA, s.t(-8, -6), s.t(-20), { leg: feeder });
      s.equipment('DISC', 'PLN', box, PORTS.MYPKG, s.t(-2, 6), s.t(-20), { leg: feeder });
      s.equipment('LOAD', 'PLN', box, PORTS.MYPKG, s.t(1, -6), s.t(-20), { leg: mother });
      s.equipment('LOAD', 'ACT', box, PORTS.CNSHA, s.t(-8, -5), s.t(-8, -5), { leg: feeder });
    }
    s.transport('DEPA', 'ACT', PORTS.CNSHA, feeder, s.t(-8, 3), s.t(-8, 3));
    s.shipment('ISSU', s.t(-7));
    s.transport('ARRI', 'EST', PORTS.MYPKG, feeder, s.t(1, 10), s.t(-3));
    s.transport('ARRI', 'EST', PORTS.MYPKG, feeder, s.t(1, 14), s.t(-1));
    events.push(...s.events);
  }

  // 7. Busan → Los Angeles for another account: a 20 h delay was announced,
  //    then the vessel made up time (ETA_DELAY resolved SCHEDULE_RECOVERED).
  {
    const s = new ShipmentScript('CMDU', 'KRPUS2600087', 'CMDUPUS2600087', 'spec', base);
    const leg = { vessel: VESSELS.VEGA, voyage: '0TUE5E' };
    const box = 'CMAU5006006';
    shipments.push({
      ...carrier,
      bookingReference: 'FWD-2026-0107',
      carrierBookingReference: 'KRPUS2600087',
      billOfLadingNumber: 'CMDUPUS2600087',
      serviceType: 'PORT_TO_PORT',
      vesselName: leg.vessel.vesselName,
      voyageNumber: leg.voyage,
      portOfLoading: location(PORTS.KRPUS),
      portOfDischarge: location(PORTS.USLAX),
      placeOfReceipt: location(PORTS.KRPUS),
      placeOfDelivery: location(PORTS.USLAX),
      references: { customer_name: 'Pacific Outfitters Inc', booking_dt: iso(s.t(-14)) },
      accounts: [SANDBOX_OTHER_ACCOUNT],
      containers: [container(box, '45R1', 'Pacific Outfitters Inc', s.t(9))],
    });
    s.shipment('CONF', s.t(-14));
    s.transport('DEPA', 'PLN', PORTS.KRPUS, leg, s.t(-6), s.t(-14));
    s.transport('ARRI', 'PLN', PORTS.USLAX, leg, s.t(5), s.t(-14));
    s.equipment('LOAD', 'PLN', box, PORTS.KRPUS, s.t(-6, -8), s.t(-14), { leg });
    s.equipment('LOAD', 'ACT', box, PORTS.KRPUS, s.t(-6, -6), s.t(-6, -6), { leg });
    s.transport('DEPA', 'ACT', PORTS.KRPUS, leg, s.t(-6, 2), s.t(-6, 2));
    s.shipment('ISSU', s.t(-5));
    s.transport('ARRI', 'EST', PORTS.USLAX, leg, s.t(5, 20), s.t(-4));
    s.transport('ARRI', 'EST', PORTS.USLAX, leg, s.t(5, 5), s.t(-1));
    events.push(...s.events);
  }

  return { carrierCode: 'CMDU', shipments, events };
}
