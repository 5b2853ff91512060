import { imoCheckDigit } from '../../src/domain/imo-number.js';

/**
 * The simulated world of the predicted-arrival evaluation (bench/README.md, Predicted arrival). The truth
 * (when a vessel really arrives) and the carrier's ETA come from two different processes:
 *
 * - truth: a planned departure and transit per lane; a departure delay per vessel voyage; sea-time noise and
 *   weather; congestion waves at each port of discharge (shared by every container of a vessel arriving in
 *   the wave); missed transshipment connections (+ the connection's period) and rollovers to the next sailing;
 *   a regime change mid-way: a canal closure that adds 10-14 days to the lanes through it;
 * - the carrier's ETA: the plan, moved step-wise, late (a lag per carrier) and only part of the way (an
 *   optimism per carrier) as the carrier learns of each delay, catching up only a day or so before arrival;
 *   its schedules take the closure in weeks after it began, and then only its typical detour;
 * - the data: late, missing, duplicate and corrected events.
 *
 * Every number below is drawn from the seed (carriers' lag and optimism, lanes, waves, ...), so that another
 * seed is another world; bench/eta/evaluate.ts sees none of them, only the events.
 */

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface WorldOptions {
  seed: number;
  /** Days simulated (departures stop 60 days before the end). */
  days: number;
  /** The canal closes on this day. */
  regimeChangeDay: number;
  /** Where day 0 is. */
  start: string;
}

export const DEFAULT_WORLD: Omit<WorldOptions, 'seed'> = { days: 540, regimeChangeDay: 270, start: '2025-01-06T00:00:00.000Z' };

interface Carrier {
  code: string;
  format: 'dcsa' | 'x12';
  /** Share of a delay it knows of that it puts into its ETA. */
  optimism: number;
  /** Hours between learning of a delay and publishing the ETA that holds it. */
  lagHours: [number, number];
  /** Days after the closure its schedules (new bookings) include its typical detour. */
  scheduleLagDays: number;
}

interface LaneTemplate {
  pol: string;
  pod: string;
  hub: string | null;
  transitDays: number;
  canal: boolean;
}

const LANE_TEMPLATES: LaneTemplate[] = [
  { pol: 'CNSHA', pod: 'NLRTM', hub: null, transitDays: 31, canal: true },
  { pol: 'CNNGB', pod: 'DEHAM', hub: null, transitDays: 33, canal: true },
  { pol: 'CNYTN', pod: 'BEANR', hub: 'SGSIN', transitDays: 32, canal: true },
  { pol: 'VNSGN', pod: 'GBFXT', hub: 'LKCMB', transitDays: 30, canal: true },
  { pol: 'KRPUS', pod: 'NLRTM', hub: 'SGSIN', transitDays: 35, canal: true },
  { pol: 'CNSHA', pod: 'USLAX', hub: null, transitDays: 16, canal: false },
  { pol: 'KRPUS', pod: 'USLAX', hub: null, transitDays: 13, canal: false },
  { pol: 'CNYTN', pod: 'USNYC', hub: 'MYPKG', transitDays: 36, canal: true },
  { pol: 'VNSGN', pod: 'USLAX', hub: 'MYPKG', transitDays: 22, canal: false },
];

export interface Lane extends LaneTemplate {
  carrier: Carrier;
  /** Days between sailings; a thin lane sails rarely, one shipment each. */
  periodDays: number;
  thin: boolean;
}

/** A carrier's message about one shipment: one event, when the carrier created it and when the service got it. */
export interface SimEvent {
  kind: 'ARRI' | 'DEPA';
  classifier: 'PLN' | 'EST' | 'ACT';
  port: string;
  eventDateTime: number;
  created: number;
  received: number;
  vessel: { name: string; imo: string };
  voyage: string;
  /** The same id sent again is a duplicate (the store keeps one). */
  id: string;
}

export interface SimShipment {
  index: number;
  booking: string;
  container: string;
  lane: Lane;
  vesselKey: string;
  /** The truth: when it really arrived at the port of discharge, epoch ms. */
  arrival: number;
  /** The plan's arrival, epoch ms. */
  plannedArrival: number;
  rolled: boolean;
  missedConnection: boolean;
  /** The canal closure added days to it. */
  closure: boolean;
  events: SimEvent[];
}

export interface World {
  options: WorldOptions;
  start: number;
  regimeChange: number;
  lanes: Lane[];
  carriers: Carrier[];
  shipments: SimShipment[];
}

const CARRIER_CODES: Array<[string, Carrier['format']]> = [
  ['MAEU', 'dcsa'],
  ['MSCU', 'dcsa'],
  ['CMDU', 'dcsa'],
  ['HLCU', 'x12'],
  ['ONEY', 'x12'],
];

export function simulateWorld(options: WorldOptions): World {
  const random = seededRandom(options.seed);
  const uniform = (lo: number, hi: number) => lo + (hi - lo) * random();
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const start = Date.parse(options.start);
  const regimeChange = start + options.regimeChangeDay * DAY;

  const carriers: Carrier[] = CARRIER_CODES.map(([code, format]) => ({
    code,
    format,
    optimism: uniform(0.25, 0.75),
    lagHours: [uniform(12, 36), uniform(48, 120)],
    scheduleLagDays: uniform(14, 42),
  }));

  // Each carrier sails 3 or 4 lanes, one of them thin.
  const lanes: Lane[] = [];
  for (const carrier of carriers) {
    const picked = [...LANE_TEMPLATES].sort(() => random() - 0.5).slice(0, 3 + Math.floor(random() * 2));
    picked.forEach((template, i) => {
      const thin = i === 0;
      lanes.push({ ...template, carrier, thin, periodDays: thin ? 35 : 7, transitDays: template.transitDays + uniform(-1.5, 1.5) });
    });
  }

  // Congestion waves per port of discharge: a few each year, each weeks long, peaking at 1-5 days of waiting.
  const waves = new Map<string, Array<{ from: number; to: number; peakHours: number }>>();
  for (const pod of new Set(lanes.map((l) => l.pod))) {
    const list = [];
    for (let day = uniform(0, 60); day < options.days + 60; day += uniform(40, 120)) {
      const length = uniform(14, 45) * DAY;
      list.push({ from: start + day * DAY, to: start + day * DAY + length, peakHours: uniform(24, 120) });
    }
    waves.set(pod, list);
  }
  const congestionHours = (pod: string, at: number) =>
    (waves.get(pod) ?? []).reduce((sum, w) => {
      if (at < w.from || at > w.to) return sum;
      return sum + w.peakHours * Math.sin((Math.PI * (at - w.from)) / (w.to - w.from));
    }, 0);

  // Vessel voyages: one per sailing of each lane, their truth shared by every container on board.
  interface Sailing {
    lane: Lane;
    plannedDeparture: number;
    departureDelayHours: number;
    seaNoiseHours: number;
    vessel: { name: string; imo: string };
    voyage: string;
  }
  const sailingsByLane = new Map<Lane, Sailing[]>();
  let vesselNumber = 0;
  for (const lane of lanes) {
    const fleet = Array.from({ length: 6 }, () => {
      const first6 = String(930000 + ++vesselNumber * 37).slice(0, 6);
      return { name: `${lane.carrier.code} VESSEL ${vesselNumber}`, imo: `${first6}${imoCheckDigit(first6)}` };
    });
    const list: Sailing[] = [];
    let n = 0;
    for (let day = uniform(0, lane.periodDays); day < options.days - 60; day += lane.periodDays) {
      const r = random();
      const departureDelayHours = r < 0.55 ? uniform(0, 12) : r < 0.9 ? -36 * Math.log(1 - random()) : uniform(48, 144);
      const weather = random() < 0.12 ? uniform(24, 96) : 0;
      list.push({
        lane,
        plannedDeparture: start + day * DAY,
        departureDelayHours,
        seaNoiseHours: normal() * 18 + weather,
        vessel: fleet[n % fleet.length]!,
        voyage: `${String(100 + n).padStart(3, '0')}${lane.pod.startsWith('US') ? 'E' : 'W'}`,
      });
      n++;
    }
    sailingsByLane.set(lane, list);
  }

  const shipments: SimShipment[] = [];
  for (const lane of lanes) {
    const sailings = sailingsByLane.get(lane)!;
    const carrier = lane.carrier;
    sailings.forEach((planned, k) => {
      const count = lane.thin ? 1 : 1 + Math.floor(random() * 3);
      for (let c = 0; c < count; c++) {
        const index = shipments.length;
        const rolled = random() < 0.05 && k + 1 < sailings.length;
        const sailing = rolled ? sailings[k + 1]! : planned;
        const lag = () => uniform(carrier.lagHours[0], carrier.lagHours[1]) * HOUR;
        const transit = lane.transitDays * DAY;
        // The carrier's schedule includes its typical detour for sailings planned once it has adapted.
        const scheduledDetour = lane.canal && planned.plannedDeparture > regimeChange + carrier.scheduleLagDays * DAY ? 11 * DAY : 0;
        const plannedArrival = planned.plannedDeparture + transit + scheduledDetour;

        // The truth.
        const departure = sailing.plannedDeparture + sailing.departureDelayHours * HOUR;
        const canalPassage = departure + 0.55 * transit;
        const closure = lane.canal && canalPassage > regimeChange;
        const closureDays = closure ? uniform(10, 14) : 0;
        let atHub =
          departure + (lane.hub ? 0.5 * transit : 0) + 0.5 * sailing.seaNoiseHours * HOUR + (closure && lane.hub === null ? 0 : 0);
        let missedConnection = false;
        let hubDeparture = atHub;
        if (lane.hub) {
          // The connection sails two days after the plan's hub arrival; a late feeder (or bad luck) misses it.
          const connection = sailing.plannedDeparture + 0.5 * transit + 2 * DAY + (closure ? closureDays * DAY * 0.3 : 0);
          atHub = Math.max(atHub, departure + DAY);
          missedConnection = atHub > connection - 12 * HOUR || random() < 0.06;
          hubDeparture = missedConnection ? Math.max(atHub, connection) + lane.periodDays * DAY : Math.max(atHub + 12 * HOUR, connection);
        }
        const restOfSea = departure + transit + sailing.seaNoiseHours * HOUR + closureDays * DAY;
        const beforePort = lane.hub ? Math.max(restOfSea, hubDeparture + 0.5 * transit - 2 * DAY) : restOfSea;
        const congestion = congestionHours(lane.pod, beforePort) * HOUR;
        const arrival = beforePort + congestion;

        const booking = `${carrier.code}49${String(index).padStart(7, '0')}`;
        const containerFirst6 = String(100000 + index).slice(-6);
        const shipment: SimShipment = {
          index,
          booking,
          container: `${carrier.code.slice(0, 3)}U${containerFirst6}`,
          lane,
          vesselKey: `${sailing.vessel.imo}/${sailing.voyage}`,
          arrival,
          plannedArrival,
          rolled,
          missedConnection,
          closure,
          events: [],
        };
        const events = shipment.events;
        let serial = 0;
        const emit = (
          kind: SimEvent['kind'],
          classifier: SimEvent['classifier'],
          port: string,
          eventDateTime: number,
          created: number,
          via: Sailing = sailing,
        ) => {
          const receivedLag = random() < 0.05 ? uniform(12, 96) : uniform(0.1, 2);
          const event: SimEvent = {
            kind,
            classifier,
            port,
            eventDateTime: Math.round(eventDateTime / 60_000) * 60_000,
            created,
            received: created + receivedLag * HOUR,
            vessel: via.vessel,
            voyage: via.voyage,
            id: `${booking}-${serial++}`,
          };
          events.push(event);
          // A duplicate: the same event sent again later.
          if (random() < 0.04) events.push({ ...event, received: event.received + uniform(1, 48) * HOUR });
          return event;
        };

        // The booking: the plan.
        const booked = planned.plannedDeparture - uniform(7, 14) * DAY;
        emit('DEPA', 'PLN', lane.pol, planned.plannedDeparture, booked, planned);
        emit('ARRI', 'PLN', lane.pod, plannedArrival, booked, planned);
        if (lane.hub && carrier.format === 'dcsa') {
          emit('ARRI', 'PLN', lane.hub, planned.plannedDeparture + 0.5 * transit, booked, planned);
          emit('DEPA', 'PLN', lane.hub, planned.plannedDeparture + 0.5 * transit + 2 * DAY, booked, planned);
        }

        // What the carrier learns, and when: each a delay (hours) over its plan.
        const known: Array<{ at: number; hours: number }> = [];
        const rollHours = (sailing.plannedDeparture - planned.plannedDeparture) / HOUR;
        if (rolled) known.push({ at: planned.plannedDeparture, hours: rollHours });
        known.push({ at: departure, hours: sailing.departureDelayHours });
        known.push({ at: departure + 0.5 * transit, hours: 0.5 * sailing.seaNoiseHours });
        if (closure) known.push({ at: Math.max(regimeChange, departure), hours: closureDays * 24 - scheduledDetour / HOUR });
        if (lane.hub && missedConnection) known.push({ at: hubDeparture, hours: lane.periodDays * 24 });
        known.push({ at: arrival - 4 * DAY, hours: 0.5 * sailing.seaNoiseHours + (congestion / HOUR) * 0.6 });

        // The departure, sometimes first reported wrong and corrected.
        const depCreated = departure + uniform(1, 6) * HOUR;
        if (random() < 0.04) {
          emit('DEPA', 'ACT', lane.pol, departure + uniform(-6, 24) * HOUR, depCreated);
          emit('DEPA', 'ACT', lane.pol, departure, depCreated + uniform(6, 48) * HOUR);
        } else if (random() > 0.03) {
          emit('DEPA', 'ACT', lane.pol, departure, depCreated);
        }
        if (lane.hub) {
          if (random() > 0.03) emit('ARRI', 'ACT', lane.hub, atHub, atHub + uniform(1, 8) * HOUR);
          const next = missedConnection
            ? { ...sailing, vessel: { name: `${carrier.code} FEEDER`, imo: '9074729' }, voyage: 'FDR' }
            : sailing;
          if (random() > 0.03) emit('DEPA', 'ACT', lane.hub, hubDeparture, hubDeparture + uniform(1, 8) * HOUR, next);
        }

        // The carrier's ETA: each delay it learns of, a lag later, optimism times its sum; weekly re-sends.
        const finalAt = arrival - uniform(12, 36) * HOUR;
        const updates = known.map((k) => k.at + lag()).filter((t) => t < finalAt);
        for (let t = departure + 7 * DAY; t < finalAt; t += 7 * DAY) updates.push(t);
        updates.sort((a, b) => a - b);
        let lastEta = plannedArrival;
        for (const at of updates) {
          const seen = known.filter((k) => k.at + carrier.lagHours[0] * HOUR <= at).reduce((s, k) => s + k.hours, 0);
          // Step-wise: whole days; an ETA earlier than the plan is believed less readily than a later one.
          const eta = plannedArrival + Math.round((carrier.optimism * Math.max(seen, -24)) / 24) * DAY;
          if (eta === lastEta && random() < 0.7) continue;
          if (random() < 0.05) continue; // a lost message
          lastEta = eta;
          emit('ARRI', 'EST', lane.pod, eta, at);
        }
        // A berth window a day or so out: close to the truth.
        emit('ARRI', 'EST', lane.pod, arrival + normal() * 4 * HOUR, finalAt);
        if (random() > 0.02) emit('ARRI', 'ACT', lane.pod, arrival, arrival + uniform(1, 6) * HOUR);
        shipments.push(shipment);
      }
    });
  }
  return { options, start, regimeChange, lanes, carriers, shipments };
}
