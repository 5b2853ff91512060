import { bestVersion } from '../milestones.js';
import type { TrackingEvent, TransportEvent } from '../types.js';

/**
 * What one voyage looked like at a moment `asOf`, from the events the service had received by then
 * (docs/predicted-arrival.md, The method). Pure: the same events and asOf give the same state, whatever
 * order the events come in and whatever was received after asOf.
 */

/** What the predictor may know of one voyage of one shipment (events as stored, each with eventCreatedDateTime). */
export interface VoyageFacts {
  /** Opaque, for grouping and splits (never a feature). */
  shipmentId: string;
  carrierCode: string;
  /** UN/LOCODE. */
  portOfLoading: string | null;
  portOfDischarge: string | null;
  /** Vessel IMO or name + voyage number, when known (congestion is shared per vessel). */
  vesselKey: string | null;
  /** Every stored version, not only the best (src/domain/types.ts). */
  events: readonly TrackingEvent[];
  /** Same order as events: when the service stored each (ingested_at), ISO UTC. */
  receivedAt: readonly string[];
}

export interface VoyageState {
  /** The carrier's current ETA at the port of discharge (the best ARRI version there, as the snapshot's `eta`), epoch ms. */
  carrierEta: number | null;
  /** True when that best version is the actual arrival. */
  arrived: boolean;
  /** When the carrier created its current ETA (the best version's eventCreatedDateTime), epoch ms. */
  carrierEtaCreated: number | null;
  /** The first ETA at the port of discharge the service received for this voyage, epoch ms. */
  firstCarrierEta: number | null;
  /** Departure from the port of loading: the actual when known, else the latest plan or estimate, epoch ms. */
  departure: number | null;
  departed: boolean;
  /**
   * The lateness built up so far, hours: of the latest actual transport milestone against the first plan of
   * the same move (event type at the same port, whatever the vessel, so that a rebooked leg still compares
   * with its first plan); or, when a planned move is overdue with nothing after it actual, how long it is
   * overdue against that first plan. 0 when nothing is known.
   */
  latenessHours: number;
  /** Transshipment ports (other than loading and discharge) the voyage calls at, as known now. */
  transshipments: number;
}

const HOUR = 3_600_000;

/** The events received by asOf (receivedAt <= asOf), in no particular order. */
export function receivedBy(voyage: VoyageFacts, asOf: string): TransportEvent[] {
  const out: TransportEvent[] = [];
  for (let i = 0; i < voyage.events.length; i++) {
    const event = voyage.events[i]!;
    if (event.eventType !== 'TRANSPORT') continue;
    const at = voyage.receivedAt[i];
    if (at === undefined || at > asOf) continue;
    out.push(event);
  }
  return out;
}

/** A transport move whatever the vessel: ARRI or DEPA at a port. */
const moveKey = (e: TransportEvent) => `${e.transportEventTypeCode}|${e.transportCall.unLocationCode}`;

/** Earliest-created first; eventID breaks ties so the choice never depends on arrival order. */
function firstCreated(a: TransportEvent, b: TransportEvent): number {
  if (a.eventCreatedDateTime !== b.eventCreatedDateTime) return a.eventCreatedDateTime < b.eventCreatedDateTime ? -1 : 1;
  return a.eventID < b.eventID ? -1 : a.eventID > b.eventID ? 1 : 0;
}

/**
 * What the state is made of that does not move with asOf once the set of received events is fixed: everything but
 * the lateness of an overdue move (which grows with asOf), each move reduced to the three times that lateness needs.
 */
interface PreparedVoyage {
  base: Omit<VoyageState, 'latenessHours'>;
  /** Each move with a plan, in the order its first event was received: its first plan, its actual, its current plan. */
  moves: { firstPlan: number; actual: number | null; currentPlan: number }[];
}

/**
 * A voyage prepared from every event it holds, with the latest receivedAt among them: a state asked as of then or
 * later reads every event, so its preparation is the same for every such asOf (a lookup's "now", each time it is
 * asked for the same version) and is made once per voyage. The voyage is read-only, so the memo is exact.
 */
const preparedWhole = new WeakMap<VoyageFacts, { latest: string; prepared?: PreparedVoyage }>();

export function voyageStateAt(voyage: VoyageFacts, asOf: string): VoyageState {
  let whole = preparedWhole.get(voyage);
  if (!whole) {
    let latest = '';
    for (const at of voyage.receivedAt) if (at > latest) latest = at;
    preparedWhole.set(voyage, (whole = { latest }));
  }
  // Earlier times (training walks a voyage's past) prepare what was received by then, each time; the whole voyage
  // is prepared only when first asked as of its last event or later.
  if (asOf < whole.latest) return stateAt(prepareVoyage(voyage, receivedBy(voyage, asOf)), Date.parse(asOf));
  whole.prepared ??= prepareVoyage(voyage, receivedBy(voyage, whole.latest));
  return stateAt(whole.prepared, Date.parse(asOf));
}

function prepareVoyage(voyage: VoyageFacts, events: readonly TransportEvent[]): PreparedVoyage {
  const pol = voyage.portOfLoading;
  const pod = voyage.portOfDischarge;

  const byMove = new Map<string, TransportEvent[]>();
  const ports = new Set<string>();
  for (const e of events) {
    const key = moveKey(e);
    const list = byMove.get(key);
    if (list) list.push(e);
    else byMove.set(key, [e]);
    ports.add(e.transportCall.unLocationCode);
  }

  const podArrivals = pod === null ? [] : (byMove.get(`ARRI|${pod}`) ?? []);
  const best = bestVersion(podArrivals);
  const plannedPod = podArrivals.filter((e) => e.eventClassifierCode !== 'ACT').sort(firstCreated);
  const departures = pol === null ? [] : (byMove.get(`DEPA|${pol}`) ?? []);
  const bestDeparture = bestVersion(departures);

  // Lateness: each move's first plan against its actual (or against asOf when overdue: stateAt).
  const moves: PreparedVoyage['moves'] = [];
  for (const versions of byMove.values()) {
    const plans = versions.filter((e) => e.eventClassifierCode !== 'ACT').sort(firstCreated);
    if (plans.length === 0) continue;
    const actual = bestVersion(versions.filter((e) => e.eventClassifierCode === 'ACT'));
    moves.push({
      firstPlan: Date.parse(plans[0]!.eventDateTime),
      actual: actual ? Date.parse(actual.eventDateTime) : null,
      currentPlan: Date.parse(bestVersion(plans)!.eventDateTime),
    });
  }

  ports.delete(pol ?? '');
  ports.delete(pod ?? '');
  return {
    base: {
      carrierEta: best ? Date.parse(best.eventDateTime) : null,
      arrived: best?.eventClassifierCode === 'ACT',
      carrierEtaCreated: best ? Date.parse(best.eventCreatedDateTime) : null,
      firstCarrierEta: plannedPod.length > 0 ? Date.parse(plannedPod[0]!.eventDateTime) : best ? Date.parse(best.eventDateTime) : null,
      departure: bestDeparture ? Date.parse(bestDeparture.eventDateTime) : null,
      departed: bestDeparture?.eventClassifierCode === 'ACT',
      transshipments: ports.size,
    },
    moves,
  };
}

function stateAt(prepared: PreparedVoyage, asOfMs: number): VoyageState {
  let latestActual: { at: number; lateness: number } | null = null;
  let overdue: { plannedAt: number; lateness: number } | null = null;
  for (const { firstPlan, actual, currentPlan } of prepared.moves) {
    if (actual !== null) {
      if (latestActual === null || actual > latestActual.at) latestActual = { at: actual, lateness: (actual - firstPlan) / HOUR };
    } else if (currentPlan < asOfMs && (overdue === null || currentPlan < overdue.plannedAt)) {
      overdue = { plannedAt: currentPlan, lateness: (asOfMs - firstPlan) / HOUR };
    }
  }
  let latenessHours = latestActual?.lateness ?? 0;
  // An overdue move counts only when nothing planned after it has happened (else its actual is just missing).
  if (overdue !== null && (latestActual === null || overdue.plannedAt > latestActual.at)) {
    latenessHours = Math.max(latenessHours, overdue.lateness);
  }
  return { ...prepared.base, latenessHours };
}

/** The actual arrival at the port of discharge among every stored version (what training learns the truth from), epoch ms. */
export function actualArrival(voyage: VoyageFacts): number | null {
  if (voyage.portOfDischarge === null) return null;
  const actual = bestVersion(
    voyage.events.filter(
      (e): e is TransportEvent =>
        e.eventType === 'TRANSPORT' &&
        e.eventClassifierCode === 'ACT' &&
        e.transportEventTypeCode === 'ARRI' &&
        e.transportCall.unLocationCode === voyage.portOfDischarge,
    ),
  );
  return actual ? Date.parse(actual.eventDateTime) : null;
}
